/**
 * The SDK's `format: "svg"` against the real server: an SVG logo comes as its sanitised SVG with
 * the size the server states; a raster logo as its PNG marked `fallback: "png"`; a tile asked as
 * SVG is marked with both fallbacks, the monogram first.
 */
import assert from "node:assert/strict";
import { parseFallbackHeader } from "../../src/sdk/logo_options.ts";
import { startTestServer } from "../support/server.ts";
import { clientFor, logo } from "../support/sdk_real_server.ts";

const SVG = new TextEncoder().encode(
  `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#0a7"/></svg>`,
);

Deno.test("format: svg gives the SVG, or the PNG marked png; a tile is marked monogram and png", async () => {
  await using server = await startTestServer();
  await server.addLogo("svg.example", SVG);
  await server.addLogo("png.example", logo(400, 200));
  const client = clientFor(server);
  const svg = await client.get("svg.example", { format: "svg", size: 300 });
  assert.equal(svg.contentType, "image/svg+xml");
  assert.deepEqual([svg.width, svg.height], [300, 150]);
  assert.equal(svg.fallback, undefined);
  assert.deepEqual(svg.fallbacks, []);
  assert.match(new TextDecoder().decode(svg.bytes), /^<svg viewBox="0 0 40 20" width="300"/);
  const png = await client.get("png.example", { format: "svg", size: 64 });
  assert.equal(png.contentType, "image/png");
  assert.equal(png.fallback, "png");
  assert.deepEqual([png.width, png.height], [64, 32]);
  const tile = await client.get("nothing.example", { format: "svg", fallback: "monogram" });
  assert.equal(tile.fallback, "monogram");
  assert.deepEqual(tile.fallbacks, ["monogram", "png"]);
});

Deno.test("X-Logo-Fallback is read as a list; unknown names are skipped", () => {
  assert.deepEqual(parseFallbackHeader("monogram"), ["monogram"]);
  assert.deepEqual(parseFallbackHeader("monogram, png"), ["monogram", "png"]);
  assert.deepEqual(parseFallbackHeader(" png ,wordmark"), ["png"]);
  assert.deepEqual(parseFallbackHeader(""), []);
  assert.deepEqual(parseFallbackHeader(null), []);
});
