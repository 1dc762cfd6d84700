/**
 * Discovery run again: the negative cache, one shared run for concurrent calls, refreshing an old
 * logo (never for a worse one), operators' logos left alone, and the refresh sweep.
 */
import assert from "node:assert/strict";
import { iconPng } from "../support/images.ts";
import { page } from "../support/discovery_sites.ts";
import { DAY, html, image, world } from "../support/discover_setup.ts";

Deno.test("discovery: a site with no icon is remembered as missing for a day (negative cache)", async () => {
  const w = await world({ "acme.test": { "/": html(page("")) } });
  try {
    const first = await w.discovery.discover("acme.test");
    assert.equal(first.status, "not-found");
    assert.deepEqual(first.tried.map((c) => c.result), [
      "HTTP 404 from http://acme.test/apple-touch-icon.png",
      "HTTP 404 from http://acme.test/apple-touch-icon-precomposed.png",
      "HTTP 404 from http://acme.test/favicon.ico",
      "HTTP 404 from http://acme.test/favicon.png",
    ]);
    const requests = w.sites[0].requests.length;
    w.now.value += DAY - 1;
    assert.equal((await w.discovery.discover("acme.test")).status, "known-missing");
    assert.equal(w.sites[0].requests.length, requests, "nothing fetched while remembered");
    w.now.value += 2;
    assert.equal((await w.discovery.discover("acme.test")).status, "not-found");
    assert.ok(w.sites[0].requests.length > requests, "looked again after a day");
    assert.equal((await w.discovery.discover("acme.test", { force: true })).status, "not-found");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: concurrent discoveries of one domain share one run", async () => {
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/i.png">`)),
      "/i.png": image(iconPng(64, 64)),
    },
  });
  try {
    const [a, b, c] = await Promise.all([
      w.discovery.discover("acme.test"),
      w.discovery.discover("acme.test"),
      w.discovery.discover("acme.test"),
    ]);
    assert.equal(a, b);
    assert.equal(b, c);
    assert.equal(w.sites[0].requests.filter((p) => p === "/").length, 1);
    assert.equal((await w.discovery.discover("acme.test")).status, "fresh");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: an old discovered logo is refreshed, never replaced by a worse one", async () => {
  let icon = iconPng(256, 256, [0, 0, 255, 255]);
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/i.png">`)),
      "/i.png": () => new Response(icon),
    },
  });
  try {
    assert.equal((await w.discovery.discover("acme.test")).status, "stored");
    const first = await w.store.get("acme.test");
    icon = iconPng(32, 32, [255, 0, 0, 255]); // the site now offers a worse icon
    w.now.value += 29 * DAY;
    assert.equal((await w.discovery.discover("acme.test")).status, "fresh");
    w.now.value += 2 * DAY;
    assert.equal((await w.discovery.discover("acme.test")).status, "kept");
    assert.equal((await w.store.get("acme.test"))?.hash, first?.hash);
    icon = iconPng(512, 512, [0, 255, 0, 255]); // and later a better one
    w.now.value += 31 * DAY;
    assert.equal((await w.discovery.discover("acme.test")).status, "stored");
    assert.equal((await w.store.get("acme.test"))?.width, 512);
  } finally {
    await w.close();
  }
});

Deno.test("discovery: an operator's logo is left alone unless forced", async () => {
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/i.png">`)),
      "/i.png": image(iconPng(300, 300)),
    },
  });
  try {
    await w.store.put("acme.test", iconPng(40, 40), { source: "file:acme.test.png" });
    assert.equal((await w.discovery.discover("acme.test")).status, "operator");
    assert.deepEqual(w.sites[0].requests, []);
    assert.equal((await w.discovery.discover("acme.test", { force: true })).status, "stored");
    assert.equal((await w.store.get("acme.test"))?.source, "http://acme.test/i.png");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: the refresh sweep revisits only discovered logos older than the refresh age", async () => {
  const site = {
    "/": html(page(`<link rel="icon" href="/i.png">`)),
    "/i.png": image(iconPng(64, 64)),
  };
  const w = await world({ "a.test": site, "b.test": site });
  try {
    assert.equal((await w.discovery.discover("a.test")).status, "stored");
    assert.equal((await w.discovery.discover("b.test")).status, "stored");
    assert.deepEqual(await w.discovery.refreshStale(), [], "nothing is old yet");
    await w.store.put("b.test", iconPng(50, 50), { source: "file:b.test.png" }); // an operator's now
    w.now.value += 30 * DAY;
    const outcomes = await w.discovery.refreshStale();
    assert.deepEqual(outcomes.map((o) => [o.domain, o.status]), [["a.test", "unchanged"]]);
    assert.equal((await w.kv.get(["discovery", "found", "b.test"])).value, null);
    assert.equal((await w.store.get("b.test"))?.source, "file:b.test.png");
    assert.deepEqual(await w.discovery.refreshStale(), [], "refreshed just now");
  } finally {
    await w.close();
  }
});
