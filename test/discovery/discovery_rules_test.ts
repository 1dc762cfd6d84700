/**
 * The ranking rules of issue 13, each pinned by real discovery over the corpus sites modelled on
 * the pages where it went wrong (`test/fixtures/discovery_corpus/`): the winner must be the
 * site's expected best candidate.
 */
import assert from "node:assert/strict";
import { corpusHosts, hostPath, loadCorpus } from "../support/discovery_corpus.ts";
import { world } from "../support/discover_setup.ts";

async function winners(names: string[]) {
  const sites = (await loadCorpus()).filter((site) => names.includes(site.name));
  assert.equal(sites.length, names.length, "every named corpus site exists");
  const w = await world(await corpusHosts(sites));
  try {
    const results = [];
    for (const site of sites) {
      const outcome = await w.discovery.discover(site.domain);
      results.push({ site, outcome, pick: outcome.source && hostPath(outcome.source) });
    }
    return results;
  } finally {
    await w.close();
  }
}

async function expectBest(names: string[]) {
  for (const { site, pick, outcome } of await winners(names)) {
    assert.equal(pick, site.expect[0], `${site.name}: ${JSON.stringify(outcome.tried)}`);
  }
}

Deno.test("rule 1: a mask icon is a last resort, below any colour icon", async () => {
  await expectBest(["news-mask-icon", "mask-vs-small-favicon", "fluid-icon-cdn", "mask-icon-only"]);
});

Deno.test("rule 2: og:image is a last resort, even square (cover art, photos)", async () => {
  await expectBest([
    "podcast-square-og",
    "stock-photo-og",
    "broken-touch-og-photo",
    "precomposed-and-photos",
    "og-image-only",
  ]);
});

Deno.test("rule 3: wide wordmarks (SVG or raster) rank below square icons of 32 px or more", async () => {
  await expectBest([
    "svg-wordmark-jsonld",
    "wide-svg-as-icon",
    "wide-jsonld-vs-favicon",
    "shop-cdn-wordmark",
    "landscape-logo-vs-tiny-favicon",
  ]);
});

Deno.test("rule 4: JSON-LD logo only from the site's own organisation, never an author's or another's", async () => {
  const results = await winners([
    "blog-author-org",
    "directory-profile",
    "syndicated-publisher",
    "yoast-graph",
    "microdata-article-author",
    "microdata-directory-profile",
  ]);
  for (const { site, pick, outcome } of results) {
    assert.equal(pick, site.expect[0], site.name);
    for (const forbidden of site.forbid ?? []) {
      assert.ok(!outcome.tried.some((c) => hostPath(c.url) === forbidden), "never even fetched");
    }
  }
});

Deno.test("rule 5: under the fetch cap, candidates are fetched by expected value (sizes in names)", async () => {
  const results = await winners(["icon-heavy-url-sizes", "favicon-generator-full-set"]);
  for (const { site, pick, outcome } of results) {
    assert.equal(pick, site.expect[0], site.name);
    assert.ok(outcome.tried.length <= 12, "the cap still holds");
  }
  const heavy = results[1].outcome.tried.map((c) => new URL(c.url).pathname);
  assert.deepEqual(heavy.slice(0, 3), [
    "/favicons/android-512.png",
    "/favicons/favicon-192.png",
    "/favicons/favicon-180.png",
  ]);
});

Deno.test("rule 6: og:logo, itemprop=logo, fluid-icon, msapplication tiles and the new conventional URLs are read", async () => {
  await expectBest([
    "og-logo",
    "itemprop-logo-img",
    "itemprop-logo-meta",
    "fluid-icon-cdn",
    "msapplication-tiles",
    "pixel-gif-precomposed",
    "favicon-png-only",
  ]);
});

Deno.test("rule 6: a 1x1 GIF is not a logo", async () => {
  const [{ outcome }] = await winners(["pixel-gif-precomposed"]);
  const gif = outcome.tried.find((c) => c.url.endsWith("/images/spacer.gif"));
  assert.equal(gif?.result, "gif 1x1: too small to be a logo (under 16 px)");
});

Deno.test("meta refresh: a home page's <meta http-equiv=refresh> is followed like a redirect", async () => {
  const [{ site, pick, outcome }] = await winners(["meta-refresh-home"]);
  assert.equal(pick, site.expect[0]);
  assert.equal(outcome.page, "http://alpine-ski-school.test/en/");
});

Deno.test("the outcome says why the winner won, and what it ranked ahead of", async () => {
  const [{ outcome }] = await winners(["news-mask-icon"]);
  assert.deepEqual(outcome.why?.slice(0, 2), [
    "tier 3 of 0-8, square raster of 64-255 px: png 180x180 from apple-touch-icon",
    "ahead of http://dailyherald.test/favicon.ico: tier 4 of 0-8, square raster of 32-63 px: ico 32x32 from icon",
  ]);
  assert.match(
    outcome.why!.at(-1)!,
    /mask icon .*safari-pinned-tab\.svg|safari-pinned-tab\.svg.*mask icon/,
  );
});
