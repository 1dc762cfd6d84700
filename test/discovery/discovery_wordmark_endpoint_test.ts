/**
 * `type=logo` through the app with the running discovery service: a miss discovers a real recorded
 * page's wordmark (the wordmark corpus, on loopback) and serves it unmarked; a domain with an icon
 * and no wordmark ever looked for is searched once for it, whatever the subdomains asked; an
 * operator's wordmark is served, never replaced.
 */
import assert from "node:assert/strict";
import { startDiscoveryService } from "../../src/discovery/service.ts";
import { readSettings } from "../../src/settings/read_settings.ts";
import { corpusHosts, loadCorpus } from "../support/discovery_corpus.ts";
import { noDns } from "../support/discover_setup.ts";
import { connectToValue, type FixtureSite, page, startSite } from "../support/discovery_sites.ts";
import { iconPng } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";
import { wideSvg } from "../support/wordmarks.ts";

const CORPUS = new URL("../fixtures/wordmark_corpus/", import.meta.url);

/** The app over `kv` with the discovery service reaching `sites`, for `fn`. */
async function withService(
  sites: Record<string, FixtureSite>,
  fn: (server: Awaited<ReturnType<typeof startTestApp>>, calls: string[]) => Promise<void>,
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const env = { LOGO_CONNECT_TO: connectToValue(sites) };
  const discovery = startDiscoveryService(kv, readSettings(env, "serve"), {
    resolve: noDns,
    sweepMs: 0,
    requestBudgetMs: 60_000,
  })!;
  await discovery.ready();
  const calls: string[] = [];
  const discover = (domain: string) => {
    calls.push(domain);
    return discovery.discover(domain);
  };
  const server = await startTestApp({ kv, discover, app: { logoCacheTtlMs: 0 } });
  try {
    await fn(server, calls);
  } finally {
    await server.close();
    await discovery.close();
    for (const site of Object.values(sites)) await site.close();
    kv.close();
  }
}

Deno.test("type=logo on a miss: discovery stores a recorded page's wordmark and it is served", async () => {
  const corpus = (await loadCorpus<{ name: string; domain: string; pick: string | null }>(CORPUS))
    .filter((site) => site.name === "npr" || site.name === "pitchfork");
  const hosts = await corpusHosts(corpus as never, CORPUS);
  const sites = Object.fromEntries(
    Object.entries(hosts).map(([host, routes]) => [host, startSite(routes)]),
  );
  await withService(sites, async (server) => {
    for (const site of corpus) {
      const answer = await server.exchange(
        server.logoUrl(`www.${site.domain}`, { type: "logo", size: "400" }),
      );
      assert.equal(answer.status, 200, `${site.name}: ${answer.text}`);
      assert.equal(answer.headers.get("x-logo-fallback"), null, site.name);
      assert.equal(answer.headers.get("x-logo-domain"), site.domain);
      assert.equal(answer.headers.get("x-logo-width"), "400");
      assert.ok(Number(answer.headers.get("x-logo-height")) < 400 / 1.5, "wide");
      const stored = (await server.logos.get(site.domain, "logo"))!;
      const url = new URL(stored.source);
      assert.equal(url.host + url.pathname + url.hash, site.pick, "the corpus's pinned pick");
      assert.match(answer.headers.get("etag")!, /-logo"$/);
    }
  });
});

Deno.test("type=logo with an icon and no wordmark: one search per registrable domain, then the icon", async () => {
  const routes = {
    "/": { body: page(`<link rel="icon" href="/i.png">`) },
    "/i.png": { body: iconPng(64, 64), type: "image/png" },
  };
  const acme = startSite(routes);
  await withService({ "acme.test": acme }, async (server, calls) => {
    await server.addLogo("acme.test", iconPng(128, 128));
    for (let i = 0; i < 20; i++) {
      const answer = await server.exchange(server.logoUrl(`x${i}.acme.test`, { type: "logo" }));
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get("x-logo-fallback"), "icon");
      assert.equal(answer.headers.get("x-logo-domain"), "acme.test");
    }
    assert.deepEqual(calls, ["acme.test"], "one discovery call, for the registrable domain");
    assert.equal(acme.requests.filter((path) => path === "/").length, 1, "one search");
    const plain = await server.exchange(server.logoUrl("acme.test"));
    assert.equal(plain.headers.get("x-logo-fallback"), null);
    assert.deepEqual(calls, ["acme.test"], "type=icon never looks for a wordmark");
  });
});

Deno.test("type=logo with an icon stored before wordmarks: the first request finds and serves it", async () => {
  const acme = startSite({
    "/": { body: page("", `<header><a href="/"><img src="/brand.svg"></a></header>`) },
    "/brand.svg": { body: wideSvg(400, 80), type: "image/svg+xml" },
  });
  await withService({ "acme.test": acme }, async (server) => {
    await server.addLogo("acme.test", iconPng(128, 128));
    const answer = await server.exchange(server.logoUrl("acme.test", { type: "logo" }));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("x-logo-fallback"), null);
    assert.equal(answer.headers.get("x-logo-width"), "128");
    assert.equal(answer.headers.get("x-logo-height"), "26"); // 400x80 at 128 wide
    assert.equal((await server.logos.get("acme.test"))?.source, "test", "the icon untouched");
  });
});

Deno.test("type=logo: an operator's wordmark is served and kept when discovery finds another", async () => {
  const acme = startSite({
    "/": {
      body: page(
        `<link rel="icon" href="/i.png">`,
        `<header><a href="/"><img src="/w.svg"></a></header>`,
      ),
    },
    "/i.png": { body: iconPng(64, 64), type: "image/png" },
    "/w.svg": { body: wideSvg(400, 80), type: "image/svg+xml" },
  });
  await withService({ "acme.test": acme }, async (server) => {
    const { record } = await server.logos.put("acme.test", wideSvg(300, 100, "#aa0000"), {
      source: "file:ours.svg",
      type: "logo",
    });
    // A miss for the icon: discovery searches the site and finds its wordmark too.
    const icon = await server.exchange(server.logoUrl("acme.test"));
    assert.equal(icon.status, 200);
    assert.equal((await server.logos.get("acme.test"))?.source, "http://acme.test/i.png");
    assert.equal((await server.logos.get("acme.test", "logo"))?.hash, record.hash);
    const wide = await server.exchange(server.logoUrl("acme.test", { type: "logo" }));
    assert.equal(wide.headers.get("x-logo-fallback"), null);
    assert.equal(wide.headers.get("x-logo-height"), "43"); // ours: 300x100 at 128 wide
  });
});
