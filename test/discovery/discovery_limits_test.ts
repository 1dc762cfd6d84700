/**
 * What discovery refuses or cuts short: non-public addresses, bodies over the byte cap, and
 * anything past the time budget.
 */
import assert from "node:assert/strict";
import { iconPng } from "../support/images.ts";
import { page, startSite } from "../support/discovery_sites.ts";
import { html, image, world } from "../support/discover_setup.ts";

Deno.test("discovery: an icon redirecting to 127.0.0.1 is refused unless that host is mapped", async () => {
  let internal = 0;
  const inside = startSite({ "/admin.png": () => (internal++, new Response(iconPng(512, 512))) });
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/go.png"><link rel="icon" href="/small.png">`)),
      "/go.png": () => Response.redirect(`http://127.0.0.1:${inside.port}/admin.png`, 302),
      "/small.png": image(iconPng(32, 32)),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    const go = outcome.tried.find((c) => c.url.endsWith("/go.png"))!;
    assert.equal(go.result, "Refused 127.0.0.1: loopback address is not public");
    assert.equal(internal, 0);
    assert.equal(outcome.source, "http://acme.test/small.png");
  } finally {
    await w.close();
    await inside.close();
  }
});

Deno.test("discovery: huge and endless icon responses are cut at the byte cap; the next best wins", async () => {
  const w = await world({
    "acme.test": {
      "/": html(
        page(
          `<link rel="icon" href="/huge.png"><link rel="icon" href="/endless.png"><link rel="icon" href="/ok.png">`,
        ),
      ),
      "/huge.png": image(new Uint8Array(200 * 1024)),
      "/endless.png": () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(iconPng(512, 512).subarray(0, 33));
            },
            pull(controller) {
              controller.enqueue(new Uint8Array(8192));
            },
          }),
          { headers: { "content-type": "image/png" } },
        ),
      "/ok.png": image(iconPng(100, 100)),
    },
  }, { maxBytes: 64 * 1024 });
  try {
    const outcome = await w.discovery.discover("acme.test");
    const results = Object.fromEntries(
      outcome.tried.map((c) => [new URL(c.url).pathname, c.result]),
    );
    assert.equal(
      results["/huge.png"],
      "Refused http://acme.test/huge.png: body exceeds 65536 bytes",
    );
    assert.equal(
      results["/endless.png"],
      "Refused http://acme.test/endless.png: body exceeds 65536 bytes",
    );
    assert.equal(outcome.source, "http://acme.test/ok.png");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: the time budget cuts a slow icon, and the icons already measured still count", async () => {
  let slowArrived!: () => void;
  const arrived = new Promise<void>((resolve) => slowArrived = resolve);
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/slow.png"><link rel="icon" href="/ok.png">`)),
      "/slow.png": async () => {
        slowArrived();
        await w.sites[0].held; // never answers before the test ends
        return new Response(iconPng(512, 512));
      },
      "/ok.png": image(iconPng(64, 64)),
    },
  }, { budgetMs: 1500, parallelFetches: 4 });
  try {
    const pending = w.discovery.discover("acme.test");
    await arrived;
    const outcome = await pending;
    const slow = outcome.tried.find((c) => c.url.endsWith("/slow.png"))!;
    assert.equal(slow.result, "Gave up on http://acme.test/slow.png: time budget exhausted");
    assert.equal(outcome.source, "http://acme.test/ok.png");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: a home page that never answers ends within the budget as not found", async () => {
  const w = await world({
    "acme.test": { "/": async () => (await w.sites[0].held, new Response("late")) },
  }, { budgetMs: 200 });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.status, "not-found");
    assert.match(outcome.pageError ?? "", /time budget exhausted/);
    assert.equal(await w.store.get("acme.test"), null);
  } finally {
    await w.close();
  }
});

Deno.test("discovery: an unmapped host that does not resolve to a public address is not contacted", async () => {
  const w = await world({}, { resolve: () => Promise.resolve(["127.0.0.1"]) });
  try {
    const outcome = await w.discovery.discover("internal.test");
    assert.equal(outcome.status, "not-found");
    assert.match(
      outcome.pageError ?? "",
      /Refused internal\.test: resolves to 127\.0\.0\.1 \(loopback\)/,
    );
  } finally {
    await w.close();
  }
});
