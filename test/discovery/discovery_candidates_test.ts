import assert from "node:assert/strict";
import { extractCandidates, manifestCandidates } from "../../src/discovery/candidates.ts";

const PAGE = "https://www.acme.test/about/index.html";

function urls(html: string, pageUrl = PAGE) {
  return extractCandidates(html, pageUrl).candidates.map((c) => [c.kind, c.url]);
}

Deno.test("candidates: link rel icon, shortcut icon, apple-touch-icon(-precomposed), mask-icon", () => {
  const html = `<html><head>
    <link rel="mask-icon" href="/mask.svg" color="#000">
    <link rel="apple-touch-icon-precomposed" href="/touch-pre.png">
    <LINK REL="Shortcut Icon" HREF="/shortcut.ico">
    <link rel="apple-touch-icon" sizes="180x180" href="/touch.png">
    <link rel="icon" type="image/png" sizes="32x32" href="/icon-32.png">
    <link rel="stylesheet" href="/style.css">
  </head></html>`;
  const found = extractCandidates(html, PAGE).candidates;
  assert.deepEqual(found.map((c) => [c.kind, c.url]), [
    ["icon", "https://www.acme.test/shortcut.ico"],
    ["icon", "https://www.acme.test/icon-32.png"],
    ["apple-touch-icon", "https://www.acme.test/touch-pre.png"],
    ["apple-touch-icon", "https://www.acme.test/touch.png"],
    ["favicon", "https://www.acme.test/favicon.ico"],
    ["favicon", "https://www.acme.test/favicon.png"],
    ["favicon", "https://www.acme.test/apple-touch-icon.png"],
    ["favicon", "https://www.acme.test/apple-touch-icon-precomposed.png"],
    ["mask-icon", "https://www.acme.test/mask.svg"],
  ]);
  assert.equal(found[1].sizes, "32x32");
  assert.equal(found[1].type, "image/png");
});

Deno.test("candidates: relative URLs resolve against the page, base-relative against <base href>", () => {
  assert.deepEqual(urls(`<link rel="icon" href="img/logo.png">`)[0], [
    "icon",
    "https://www.acme.test/about/img/logo.png",
  ]);
  assert.deepEqual(urls(`<link rel="icon" href="//cdn.acme.test/i.png">`)[0], [
    "icon",
    "https://cdn.acme.test/i.png",
  ]);
  // The first <base href> wins, and applies to links before it too; fallbacks stay on the site root.
  const html = `<head><link rel="icon" href="logo.png"><base href="/static/v2/">` +
    `<base href="https://elsewhere.test/"><link rel="apple-touch-icon" href="../touch.png"></head>`;
  const found = extractCandidates(html, PAGE);
  assert.equal(found.baseUrl, "https://www.acme.test/static/v2/");
  assert.deepEqual(found.candidates.map((c) => c.url), [
    "https://www.acme.test/static/v2/logo.png",
    "https://www.acme.test/static/touch.png",
    "https://www.acme.test/favicon.ico",
    "https://www.acme.test/favicon.png",
    "https://www.acme.test/apple-touch-icon.png",
    "https://www.acme.test/apple-touch-icon-precomposed.png",
  ]);
});

Deno.test("candidates: the site's JSON-LD logos before the conventional fallbacks, og:image last", () => {
  const html = `<head>
    <meta property="og:image" content="/social-card.jpg">
    <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
      {"@type":"Organization","logo":{"@type":"ImageObject","url":"/brand/logo.png"}},
      {"@type":"WebSite","publisher":{"logo":"https://www.acme.test/brand/wordmark.svg"}}]}</script>
    <script type="application/ld+json">{ not json </script>
    <script>var logo = "/not-this.png";</script>
    <link rel="icon" href="/favicon.svg">
  </head>`;
  assert.deepEqual(urls(html), [
    ["icon", "https://www.acme.test/favicon.svg"],
    ["json-ld", "https://www.acme.test/brand/logo.png"],
    ["json-ld", "https://www.acme.test/brand/wordmark.svg"],
    ["favicon", "https://www.acme.test/favicon.ico"],
    ["favicon", "https://www.acme.test/favicon.png"],
    ["favicon", "https://www.acme.test/apple-touch-icon.png"],
    ["favicon", "https://www.acme.test/apple-touch-icon-precomposed.png"],
    ["og:image", "https://www.acme.test/social-card.jpg"],
  ]);
});

Deno.test("candidates: manifests are listed to fetch, not returned as icons", () => {
  const found = extractCandidates(`<link rel="manifest" href="/site.webmanifest">`, PAGE);
  assert.deepEqual(found.manifests, ["https://www.acme.test/site.webmanifest"]);
  assert.deepEqual(found.candidates.map((c) => c.kind), [
    "favicon",
    "favicon",
    "favicon",
    "favicon",
  ]);
});

Deno.test("candidates: non-web schemes and duplicates are dropped, data: kept", () => {
  const html =
    `<link rel="icon" href="javascript:alert(1)"><link rel="icon" href="file:///etc/passwd">
    <link rel="icon" href="ftp://acme.test/i.png"><link rel="icon" href="/favicon.ico">
    <link rel="icon" href="data:image/png;base64,AAAA"><link rel="icon" href="  ">`;
  assert.deepEqual(urls(html), [
    ["icon", "https://www.acme.test/favicon.ico"],
    ["icon", "data:image/png;base64,AAAA"],
    ["favicon", "https://www.acme.test/favicon.png"],
    ["favicon", "https://www.acme.test/apple-touch-icon.png"],
    ["favicon", "https://www.acme.test/apple-touch-icon-precomposed.png"],
  ]);
});

Deno.test("candidates: a page with no declarations still yields the conventional fallbacks", () => {
  assert.deepEqual(urls("<p>hello</p>", "http://acme.test/"), [
    ["favicon", "http://acme.test/favicon.ico"],
    ["favicon", "http://acme.test/favicon.png"],
    ["favicon", "http://acme.test/apple-touch-icon.png"],
    ["favicon", "http://acme.test/apple-touch-icon-precomposed.png"],
  ]);
});

Deno.test("manifest icons resolve against the manifest URL; monochrome-only icons are skipped", () => {
  const json = JSON.stringify({
    name: "Acme",
    icons: [
      { src: "icons/192.png", sizes: "192x192", type: "image/png" },
      { src: "/icons/512.png", sizes: "512x512", purpose: "any maskable" },
      { src: "icons/mono.png", purpose: "monochrome" },
      { src: 42 },
      { src: "icons/192.png" },
    ],
  });
  const found = manifestCandidates(json, "https://cdn.acme.test/app/manifest.json");
  assert.deepEqual(found, [
    {
      url: "https://cdn.acme.test/app/icons/192.png",
      kind: "manifest",
      sizes: "192x192",
      type: "image/png",
    },
    { url: "https://cdn.acme.test/icons/512.png", kind: "manifest", sizes: "512x512" },
  ]);
  assert.deepEqual(manifestCandidates("<html>", "https://a.test/m.json"), []);
  assert.deepEqual(manifestCandidates('{"icons":"x"}', "https://a.test/m.json"), []);
  assert.deepEqual(manifestCandidates("null", "https://a.test/m.json"), []);
});
