/**
 * Discovery with broken and lying icons: content is sniffed, undecodable icons are skipped for the
 * next best.
 */
import assert from "node:assert/strict";
import { iconPng, icoOf } from "../support/images.ts";
import { page } from "../support/discovery_sites.ts";
import { html, image, world } from "../support/discover_setup.ts";

Deno.test("discovery: broken and lying icons are sniffed and skipped for the next best", async () => {
  const big = iconPng(512, 512, [10, 120, 200, 255]);
  const w = await world({
    "acme.test": {
      "/": html(page(`
        <link rel="icon" href="/html.png">
        <link rel="icon" href="/truncated.png">
        <link rel="icon" href="/garbage.ico">
        <link rel="icon" href="/zeros.gif">
        <link rel="icon" href="/really-a-png.svg">
        <link rel="apple-touch-icon" href="/ok.png">`)),
      "/html.png": image(
        new TextEncoder().encode("<!DOCTYPE html><html><body>Not found</body></html>"),
      ),
      "/truncated.png": image(big.subarray(0, 60)),
      "/garbage.ico": image(
        icoOf([{ png: iconPng(64, 64), side: 64 }]).subarray(0, 40),
        "image/x-icon",
      ),
      "/zeros.gif": image(new Uint8Array(2048), "image/gif"),
      "/really-a-png.svg": image(iconPng(48, 48), "image/svg+xml"),
      "/ok.png": image(iconPng(120, 120)),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    const results = Object.fromEntries(
      outcome.tried.map((c) => [new URL(c.url).pathname, c.result]),
    );
    assert.equal(results["/html.png"], "HTML, not an image");
    assert.match(results["/truncated.png"], /^Cannot decode image: corrupt data/);
    assert.match(results["/garbage.ico"], /Cannot decode image/);
    assert.equal(results["/zeros.gif"], "Cannot decode image: unsupported format");
    assert.equal(
      results["/really-a-png.svg"],
      "png 48x48",
      "content sniffed, not the name or type",
    );
    assert.equal(outcome.source, "http://acme.test/ok.png");
    assert.equal((await w.store.get("acme.test"))?.width, 120);
  } finally {
    await w.close();
  }
});

Deno.test("discovery: a PNG whose header probes fine but whose data is cut is refused at full decode", async () => {
  const full = iconPng(400, 400, [1, 2, 3, 255]);
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/cut.png"><link rel="icon" href="/ok.png">`)),
      "/cut.png": image(full.subarray(0, Math.floor(full.length * 0.6))),
      "/ok.png": image(iconPng(64, 64)),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    const cut = outcome.tried.find((c) => c.url.endsWith("/cut.png"))!;
    assert.match(cut.result, /^png 400x400: Cannot decode image: corrupt data/);
    assert.equal(outcome.source, "http://acme.test/ok.png");
  } finally {
    await w.close();
  }
});
