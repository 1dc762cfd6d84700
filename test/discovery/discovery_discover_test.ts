/**
 * Discovery end to end against fixture sites: each candidate source found on its own, and which
 * candidate wins among several (largest square raster; larger declared sizes fetched first).
 */
import assert from "node:assert/strict";
import { iconPng, icoOf } from "../support/images.ts";
import { page, type Route } from "../support/discovery_sites.ts";
import { html, image, world } from "../support/discover_setup.ts";

Deno.test("discovery: each candidate source on its own is found and stored with its source URL", async (t) => {
  const cases: [string, Record<string, Route>, string, number][] = [
    [
      "link rel=icon",
      { "/": html(page(`<link rel="icon" href="/i.png">`)), "/i.png": image(iconPng(96, 96)) },
      "/i.png",
      96,
    ],
    [
      "shortcut icon (ICO)",
      {
        "/": html(page(`<link rel="shortcut icon" href="/s.ico">`)),
        "/s.ico": image(icoOf([{ png: iconPng(48, 48), side: 48 }]), "image/x-icon"),
      },
      "/s.ico",
      48,
    ],
    [
      "apple-touch-icon",
      {
        "/": html(page(`<link rel="apple-touch-icon" href="/t.png">`)),
        "/t.png": image(iconPng(180, 180)),
      },
      "/t.png",
      180,
    ],
    [
      "apple-touch-icon-precomposed",
      {
        "/": html(page(`<link rel="apple-touch-icon-precomposed" href="/p.png">`)),
        "/p.png": image(iconPng(152, 152)),
      },
      "/p.png",
      152,
    ],
    [
      "web app manifest",
      {
        "/": html(page(`<link rel="manifest" href="/app/site.webmanifest">`)),
        "/app/site.webmanifest": {
          body: JSON.stringify({ icons: [{ src: "icons/512.png", sizes: "512x512" }] }),
          type: "application/manifest+json",
        },
        "/app/icons/512.png": image(iconPng(512, 512)),
      },
      "/app/icons/512.png",
      512,
    ],
    [
      "/favicon.ico fallback",
      {
        "/": html(page("")),
        "/favicon.ico": image(icoOf([{ png: iconPng(32, 32), side: 32 }]), "image/x-icon"),
      },
      "/favicon.ico",
      32,
    ],
    [
      "/apple-touch-icon.png fallback",
      { "/": html(page("")), "/apple-touch-icon.png": image(iconPng(180, 180)) },
      "/apple-touch-icon.png",
      180,
    ],
    [
      "JSON-LD logo",
      {
        "/": html(page(
          `<script type="application/ld+json">{"@type":"Organization","logo":{"@type":"ImageObject","url":"/brand.png"}}</script>`,
        )),
        "/brand.png": image(iconPng(300, 100)),
      },
      "/brand.png",
      300,
    ],
    [
      "og:image",
      {
        "/": html(page(`<meta property="og:image" content="/og.png">`)),
        "/og.png": image(iconPng(400, 400)),
      },
      "/og.png",
      400,
    ],
  ];
  for (const [name, routes, path, width] of cases) {
    await t.step(name, async () => {
      const w = await world({ "acme.test": routes });
      try {
        const outcome = await w.discovery.discover("acme.test");
        assert.equal(outcome.status, "stored", JSON.stringify(outcome.tried));
        assert.equal(outcome.source, `http://acme.test${path}`);
        const record = await w.store.get("acme.test");
        assert.equal(record?.source, `http://acme.test${path}`);
        assert.equal(record?.width, width);
        assert.equal(record?.createdAt, w.now.value);
      } finally {
        await w.close();
      }
    });
  }
});

Deno.test("discovery: an inline data: icon is decoded locally and stored", async () => {
  const b64 = btoa(String.fromCharCode(...iconPng(64, 64)));
  const w = await world({
    "acme.test": { "/": html(page(`<link rel="icon" href="data:image/png;base64,${b64}">`)) },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.status, "stored");
    assert.ok(outcome.source?.startsWith("data:image/png"));
    const record = await w.store.get("acme.test");
    assert.equal(record?.width, 64);
    assert.equal(record?.source, "http://acme.test/ (inline data: icon)");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: among competing candidates the largest square raster wins; a wide og:image loses", async () => {
  const w = await world({
    "acme.test": {
      "/": html(page(`
        <meta property="og:image" content="/card.png">
        <link rel="icon" sizes="512x512" href="/liar-32.png">
        <link rel="apple-touch-icon" href="/touch.png">
        <link rel="manifest" href="/manifest.json">`)),
      "/card.png": image(iconPng(1200, 630)),
      "/liar-32.png": image(iconPng(32, 32)), // declares 512x512: measured, not trusted
      "/touch.png": image(iconPng(180, 180)),
      "/manifest.json": {
        body: JSON.stringify({ icons: [{ src: "/m-384.png", sizes: "16x16" }] }),
        type: "application/json",
      },
      "/m-384.png": image(iconPng(384, 384)),
      "/favicon.ico": image(icoOf([{ png: iconPng(16, 16), side: 16 }]), "image/x-icon"),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.status, "stored");
    assert.equal(outcome.source, "http://acme.test/m-384.png");
    assert.deepEqual(
      Object.fromEntries(outcome.tried.map((c) => [new URL(c.url).pathname, c.result])),
      {
        "/liar-32.png": "png 32x32",
        "/touch.png": "png 180x180",
        "/m-384.png": "png 384x384",
        "/favicon.ico": "ico 16x16",
        "/favicon.png": "HTTP 404 from http://acme.test/favicon.png",
        "/apple-touch-icon.png": "HTTP 404 from http://acme.test/apple-touch-icon.png",
        "/apple-touch-icon-precomposed.png":
          "HTTP 404 from http://acme.test/apple-touch-icon-precomposed.png",
        "/card.png": "png 1200x630",
      },
    );
  } finally {
    await w.close();
  }
});

Deno.test("discovery: under the fetch cap, icons declaring larger sizes are fetched first", async () => {
  const sizes = [57, 60, 72, 76, 114, 120, 144, 152, 180];
  const routes: Record<string, Route> = {
    "/": html(
      page(
        sizes.map((s) => `<link rel="apple-touch-icon" sizes="${s}x${s}" href="/t${s}.png">`).join(
          "",
        ),
      ),
    ),
  };
  for (const s of sizes) routes[`/t${s}.png`] = image(iconPng(s, s));
  const w = await world({ "acme.test": routes }, { maxFetches: 3 });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.deepEqual(outcome.tried.map((c) => new URL(c.url).pathname), [
      "/t180.png",
      "/t152.png",
      "/t144.png",
    ]);
    assert.equal(outcome.source, "http://acme.test/t180.png");
  } finally {
    await w.close();
  }
});
