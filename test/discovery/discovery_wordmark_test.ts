/**
 * The wordmark part of discovery: which header images count (`header_logos.ts`), how an inline
 * SVG becomes a standalone document (`inline_svg.ts`), how wordmarks rank (`wordmark_rank.ts`),
 * and that one discovery run returns the wordmark, leaves the icon choice alone, and (through the
 * service) stores it (the rules: `discovery_wordmark_store_test.ts`).
 */
import assert from "node:assert/strict";
import { DomUtils, parseDocument } from "htmlparser2";
import { headerLogos } from "../../src/discovery/header_logos.ts";
import { standaloneSvg } from "../../src/discovery/inline_svg.ts";
import { startDiscoveryService } from "../../src/discovery/service.ts";
import {
  compareWordmarks,
  type MeasuredWordmark,
  wordmarkRefusal,
} from "../../src/discovery/wordmark_rank.ts";
import type { WordmarkKind } from "../../src/discovery/wordmark_candidate.ts";
import { readSettings } from "../../src/settings/read_settings.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { html, image, noDns, world } from "../support/discover_setup.ts";
import { connectToValue, page, startSite } from "../support/discovery_sites.ts";
import { iconPng } from "../support/images.ts";

const PAGE = "https://acme.test/";
const urls = (markup: string) => headerLogos(markup, PAGE, "acme.test").map((c) => c.url);
const wideSvg = (w: number, h: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}"><rect width="${w}" height="${h}"/></svg>`;

Deno.test("header logos: the home link in the banner first, then other home links, then marked banner images", () => {
  const markup = `
    <footer><a href="/"><img src="/footer-logo.png"></a></footer>
    <header><img class="site-logo" src="/marked.png"><a href="https://www.acme.test/"><img src="/home.png"></a></header>`;
  assert.deepEqual(urls(markup), [
    "https://acme.test/home.png",
    "https://acme.test/footer-logo.png",
    "https://acme.test/marked.png",
  ]);
});

Deno.test("header logos: never an image linking to another site, marked as someone else's, or in an article's header", () => {
  const markup = `
    <header role="banner">
      <a href="https://partner.test/"><img class="logo" src="/partner.png"></a>
      <div class="partner-logos"><img class="logo" src="/sponsor.png"></div>
      <img src="/hero.jpg" alt="A photo">
    </header>
    <article><header><img class="logo" src="/author-org.png"></header></article>
    <a href="https://conference.acme.test/"><img src="/conference.png"></a>`;
  assert.deepEqual(urls(markup), []);
});

Deno.test("header logos: an alt naming the brand marks an image only when it begins with the name", () => {
  const markup =
    `<div id="masthead"><img src="/a.png" alt="Acme home"><img src="/b.png" alt="Subscribe to Acme"></div>`;
  assert.deepEqual(urls(markup), ["https://acme.test/a.png"]);
});

Deno.test("header logos: an <img> is its srcset's SVG, else its src, else its lazy-loading source", () => {
  const markup = `<header><a href="/">
    <img src="/raster.png" srcset="/vector.svg">
    <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/lazy.png">
  </a></header>`;
  assert.deepEqual(urls(markup), ["https://acme.test/vector.svg", "https://acme.test/lazy.png"]);
});

Deno.test("inline svg: serialised with its namespace, SVG's mixed-case names and the sprite symbols it uses", () => {
  const markup =
    `<svg style="display:none"><symbol id="mark" viewBox="0 0 10 10"><path d="M0 0h9"/></symbol></svg>
    <header><a href="/"><svg viewbox="0 0 120 30"><linearGradient id="g"/><use xlink:href="#mark"/></svg></a></header>`;
  const [logo] = headerLogos(markup, PAGE, "acme.test");
  assert.equal(logo.kind, "header-svg");
  assert.equal(logo.url, "https://acme.test/#inline-svg-1");
  const text = new TextDecoder().decode(logo.inline);
  assert.match(text, /^<svg viewBox="0 0 120 30" xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(text, /xmlns:xlink="http:\/\/www\.w3\.org\/1999\/xlink"/);
  assert.match(text, /<defs><symbol id="mark" viewBox="0 0 10 10">/);
  assert.match(text, /<linearGradient id="g"\/>/);
});

Deno.test("inline svg: one larger than the bound is not used", () => {
  const big = `<svg viewBox="0 0 10 1"><path d="${"M0 0h1".repeat(50_000)}"/></svg>`;
  const doc = parseDocument(big);
  assert.equal(
    standaloneSvg(DomUtils.findOne((e) => e.name === "svg", doc.children)!, doc),
    undefined,
  );
});

function measured(kind: WordmarkKind, format: string, width: number, height: number, order = 0) {
  const candidate = { url: `https://acme.test/${order}`, kind };
  return { candidate, format, width, height, order } satisfies MeasuredWordmark;
}

Deno.test("wordmark rank: square or tall images are not wordmarks, even declared; 1.5:1 is", () => {
  assert.match(wordmarkRefusal(measured("json-ld", "png", 512, 512))!, /not a wordmark/);
  assert.match(wordmarkRefusal(measured("header-img", "png", 140, 100))!, /not a wordmark/);
  assert.equal(wordmarkRefusal(measured("header-img", "png", 150, 100)), undefined);
  assert.match(wordmarkRefusal(measured("og:logo", "png", 300, 12))!, /under 16 px tall/);
});

Deno.test("wordmark rank: vector first, then shown before declared, then candidate order (not width)", () => {
  const ranked = [
    measured("json-ld", "png", 600, 60, 3),
    measured("header-img", "png", 190, 35, 1),
    measured("og:logo", "svg", 300, 60, 4),
    measured("header-img", "png", 363, 124, 2),
    measured("json-ld", "png", 250, 50, 0),
  ].sort(compareWordmarks).map((m) => m.order);
  assert.deepEqual(ranked, [4, 3, 1, 2, 0]);
});

const SITE = {
  "/": html(`<!doctype html><title>Acme</title>
    <link rel="apple-touch-icon" href="/touch.png">
    <script type="application/ld+json">{"@type":"Organization","url":"https://acme.test/","logo":"/square.png"}</script>
    <header><a href="/"><svg viewBox="0 0 200 40"><rect width="200" height="40"/></svg></a>
    <a href="https://partner.test/"><img src="/partner.png" class="logo"></a></header>`),
  "/touch.png": image(iconPng(180, 180)),
  "/square.png": image(iconPng(512, 512)),
  "/partner.png": image(iconPng(400, 100)),
};

Deno.test("discovery returns the wordmark beside the icon, whose choice it does not change", async () => {
  const w = await world({ "acme.test": SITE });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.status, "stored");
    assert.equal(outcome.source, "http://acme.test/square.png"); // the icon: as before
    const wordmark = outcome.wordmark!;
    assert.equal(wordmark.source, "http://acme.test/#inline-svg-1");
    assert.equal(wordmark.kind, "header-svg");
    assert.deepEqual([wordmark.format, wordmark.width, wordmark.height], ["svg", 200, 40]);
    assert.match(new TextDecoder().decode(wordmark.bytes), /^<svg viewBox="0 0 200 40"/);
    assert.match(wordmark.why[0], /^tier 0 of 0-2, wide SVG/);
    const square = outcome.wordmarkTried!.find((t) => t.url.endsWith("/square.png"))!;
    assert.match(square.result, /png 512x512: not a wordmark/);
    assert.ok(
      !w.sites[0].requests.includes("/partner.png"),
      "another site's logo is never fetched",
    );
  } finally {
    await w.close();
  }
});

Deno.test("a site that shows no wordmark has none, and its icon is found as before", async () => {
  const w = await world({
    "acme.test": {
      "/": html(`<link rel="icon" href="/i.png"><header><a href="/">Acme</a></header>`),
      "/i.png": image(iconPng(64, 64)),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.source, "http://acme.test/i.png");
    assert.equal(outcome.wordmark, undefined);
  } finally {
    await w.close();
  }
});

Deno.test("the service stores each discovered wordmark in the store, beside the icon", async () => {
  const acme = startSite({
    "/": { body: page(`<header><a href="/"><img src="/wordmark.svg"></a></header>`) },
    "/wordmark.svg": { body: wideSvg(300, 60), type: "image/svg+xml" },
    "/favicon.ico": { body: iconPng(32, 32), type: "image/png" },
  });
  const kv = await Deno.openKv(":memory:");
  const env = { LOGO_CONNECT_TO: connectToValue({ "acme.test": acme }) };
  const service = startDiscoveryService(kv, readSettings(env, "serve"), {
    resolve: noDns,
    sweepMs: 0,
    requestBudgetMs: 60_000,
  })!;
  try {
    await service.ready();
    await service.discover("www.acme.test");
    const logos = new LogoStore(kv);
    assert.equal((await logos.get("acme.test"))?.source, "http://acme.test/favicon.ico");
    const wordmark = await logos.get("acme.test", "logo");
    assert.equal(wordmark?.source, "http://acme.test/wordmark.svg");
    assert.equal(wordmark?.type, "image/svg+xml");
  } finally {
    await service.close();
    await acme.close();
    kv.close();
  }
});
