/**
 * Discovery stores the wordmark it finds, as it stores the icon (`discover_wordmark.ts`, through
 * `DiscoveryConfig.wordmarks`): what it stored is remembered (`wordmark_memory.ts`), an operator's
 * wordmark is never replaced, unchanged bytes write nothing, a domain whose icon needs no look is
 * searched for its wordmark alone once, the refresh sweep refreshes discovered wordmarks only, and
 * a failing wordmark store changes nothing of the icon's outcome.
 */
import assert from "node:assert/strict";
import { readWordmarkEntry } from "../../src/discovery/wordmark_memory.ts";
import type { LogoSink } from "../../src/discovery/discover.ts";
import { DAY, image, world } from "../support/discover_setup.ts";
import { page, type Route } from "../support/discovery_sites.ts";
import { iconPng } from "../support/images.ts";
import { wideSvg } from "../support/wordmarks.ts";

/** A site whose home page shows `/wordmark.svg` in its banner while `shows.value` holds. */
function acme(wordmark: { bytes: Uint8Array; shows: boolean }): Record<string, Route> {
  return {
    "/": () =>
      new Response(
        page(
          `<link rel="icon" href="/i.png">`,
          wordmark.shows ? `<header><a href="/"><img src="/wordmark.svg"></a></header>` : "",
        ),
        { headers: { "content-type": "text/html" } },
      ),
    "/wordmark.svg": () =>
      new Response(wordmark.bytes as BodyInit, { headers: { "content-type": "image/svg+xml" } }),
    "/i.png": image(iconPng(64, 64)),
  };
}

const SOURCE = "http://acme.test/wordmark.svg";
const homeRequests = (requests: string[]) => requests.filter((path) => path === "/").length;

Deno.test("discovery stores the wordmark it finds beside the icon, and remembers it", async () => {
  const site = { bytes: wideSvg(300, 60), shows: true };
  const w = await world({ "acme.test": acme(site) }, {}, { wired: true });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.status, "stored");
    assert.deepEqual(outcome.wordmarkOutcome, { status: "stored", source: SOURCE });
    const record = (await w.wordmarks.get("acme.test"))!;
    assert.equal(record.source, SOURCE);
    assert.equal(record.renditions.source.width, 1200, "an SVG wordmark is stored 1200 px wide");
    const entry = await readWordmarkEntry(w.kv, "acme.test");
    assert.deepEqual(entry, { at: w.now.value, source: SOURCE, hash: record.hash });

    // Fresh icon and wordmark: nothing fetched.
    const requests = w.sites[0].requests.length;
    const again = await w.discovery.discover("acme.test");
    assert.equal(again.status, "fresh");
    assert.deepEqual(again.wordmarkOutcome, { status: "fresh", source: SOURCE });
    assert.equal(w.sites[0].requests.length, requests);

    // Forced, the same bytes: nothing written.
    const forced = await w.discovery.discover("acme.test", { force: true });
    assert.deepEqual(forced.wordmarkOutcome, { status: "unchanged", source: SOURCE });
    assert.equal((await w.wordmarks.get("acme.test"))!.updatedAt, record.updatedAt);
  } finally {
    await w.close();
  }
});

Deno.test("an operator's wordmark is never replaced by discovery, forgotten by the sweep", async () => {
  const site = { bytes: wideSvg(300, 60), shows: true };
  const w = await world({ "acme.test": acme(site) }, {}, { wired: true });
  try {
    const { record: mine } = await w.wordmarks.put("acme.test", wideSvg(200, 40, "#aa2200"), {
      source: "file:ours.svg",
    });
    const outcome = await w.discovery.discover("acme.test"); // the icon is missing: a search
    assert.equal(outcome.status, "stored");
    assert.equal(outcome.wordmark?.source, SOURCE, "found…");
    assert.deepEqual(outcome.wordmarkOutcome, { status: "operator", source: "file:ours.svg" });
    assert.equal((await w.wordmarks.get("acme.test"))!.hash, mine.hash, "…and not stored");
    assert.equal(await readWordmarkEntry(w.kv, "acme.test"), null);

    // A discovered wordmark the operator then replaces is no longer discovery's.
    await w.discovery.discover("acme.test", { force: true });
    assert.equal((await w.wordmarks.get("acme.test"))!.source, SOURCE, "--force replaces it");
    await w.wordmarks.put("acme.test", wideSvg(200, 40, "#0022aa"), { source: "file:new.svg" });
    w.now.value += 31 * DAY;
    const swept = await w.discovery.refreshStale();
    assert.deepEqual(swept.map((o) => o.wordmarkOutcome?.status), ["operator"], "the icon is due");
    assert.equal((await w.wordmarks.get("acme.test"))!.source, "file:new.svg");
    assert.equal(await readWordmarkEntry(w.kv, "acme.test"), null, "the entry deleted");
  } finally {
    await w.close();
  }
});

Deno.test("a domain whose icon needs no look is searched once for its wordmark alone", async () => {
  const site = { bytes: wideSvg(300, 60), shows: false };
  const w = await world({ "acme.test": acme(site) }, {}, { wired: true });
  try {
    const { record: icon } = await w.store.put("acme.test", iconPng(128, 128), {
      source: "file:icon.png",
    });
    const first = await w.discovery.discover("acme.test");
    assert.equal(first.status, "operator", "the operator's icon is left alone");
    assert.equal(first.wordmarkOutcome?.status, "none");
    assert.equal(first.wordmarkOutcome?.retryAt, w.now.value + 30 * DAY);
    assert.equal(homeRequests(w.sites[0].requests), 1, "the site was searched");
    assert.equal((await w.store.get("acme.test"))!.hash, icon.hash);

    site.shows = true; // remembered: not looked for again before retryAt
    const second = await w.discovery.discover("acme.test");
    assert.equal(second.wordmarkOutcome?.status, "known-missing");
    assert.equal(homeRequests(w.sites[0].requests), 1);

    w.now.value += 30 * DAY;
    const third = await w.discovery.discover("acme.test");
    assert.equal(third.status, "operator");
    assert.deepEqual(third.wordmarkOutcome, { status: "stored", source: SOURCE });
    assert.equal((await w.store.get("acme.test"))!.hash, icon.hash, "the icon untouched");
  } finally {
    await w.close();
  }
});

Deno.test("the refresh sweep refreshes a discovered wordmark, and keeps it when the site shows none", async () => {
  const site = { bytes: wideSvg(300, 60), shows: true };
  const w = await world({ "acme.test": acme(site) }, {}, { wired: true });
  try {
    // An operator icon: only the wordmark is discovery's, so only it makes the domain due.
    await w.store.put("acme.test", iconPng(128, 128), { source: "file:icon.png" });
    await w.discovery.discover("acme.test");
    const before = (await w.wordmarks.get("acme.test"))!;
    w.now.value += 29 * DAY;
    assert.deepEqual(await w.discovery.refreshStale(), [], "not due yet");
    site.bytes = wideSvg(300, 60, "#3344ff");
    w.now.value += 2 * DAY;
    const [refreshed] = await w.discovery.refreshStale();
    assert.deepEqual(refreshed.wordmarkOutcome, { status: "stored", source: SOURCE });
    const after = (await w.wordmarks.get("acme.test"))!;
    assert.notEqual(after.hash, before.hash, "the new wordmark replaced the old one");

    site.shows = false;
    w.now.value += 31 * DAY;
    const [kept] = await w.discovery.refreshStale();
    assert.deepEqual(kept.wordmarkOutcome, { status: "kept", source: SOURCE });
    assert.equal((await w.wordmarks.get("acme.test"))!.hash, after.hash);
    assert.deepEqual(await w.discovery.refreshStale(), [], "checked again: not due");
  } finally {
    await w.close();
  }
});

Deno.test("a failing wordmark store is logged and leaves the icon's outcome as it was", async () => {
  const site = { bytes: wideSvg(300, 60), shows: true };
  const logged: string[] = [];
  const failing: LogoSink = {
    get: () => Promise.resolve(null),
    put: () => Promise.reject(new Error("store down")),
  };
  const w = await world({ "acme.test": acme(site) }, {
    wordmarks: failing,
    log: (line) => logged.push(line),
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.status, "stored");
    assert.equal((await w.store.get("acme.test"))!.source, "http://acme.test/i.png");
    assert.deepEqual(outcome.wordmarkOutcome, { status: "error", reason: "store down" });
    assert.deepEqual(logged, ["Storing the wordmark of acme.test failed: store down"]);
  } finally {
    await w.close();
  }
});

Deno.test("a site that cannot be read leaves 'no wordmark' for a day only", async () => {
  const w = await world({}, {}, { wired: true }); // acme.test does not resolve
  try {
    await w.store.put("acme.test", iconPng(128, 128), { source: "file:icon.png" });
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.wordmarkOutcome?.status, "none");
    assert.equal(outcome.wordmarkOutcome?.retryAt, w.now.value + DAY);
  } finally {
    await w.close();
  }
});

Deno.test("a wordmark inline as a data: URL is stored under its page's URL", async () => {
  const svg = btoa(new TextDecoder().decode(wideSvg(300, 60)));
  const w = await world(
    {
      "acme.test": {
        "/": () =>
          new Response(
            page(
              `<link rel="icon" href="/i.png">`,
              `<header><a href="/"><img src="data:image/svg+xml;base64,${svg}"></a></header>`,
            ),
            { headers: { "content-type": "text/html" } },
          ),
        "/i.png": image(iconPng(64, 64)),
      },
    },
    {},
    { wired: true },
  );
  try {
    const outcome = await w.discovery.discover("acme.test");
    const source = "http://acme.test/ (inline data: wordmark)";
    assert.deepEqual(outcome.wordmarkOutcome, { status: "stored", source });
    assert.equal((await w.wordmarks.get("acme.test"))?.source, source);
  } finally {
    await w.close();
  }
});
