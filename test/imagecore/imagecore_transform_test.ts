/**
 * `transform`'s result at the JS boundary: the width, height, format and `inverted` flag it
 * reports are those of the bytes it returns, and its options reach the WASM. The pixels
 * themselves (sizes, greyscale values, the theme, no fringe) are imagecore's own suite:
 * imagecore/tests/output_size.rs, imagecore/tests/pixels.rs and imagecore/tests/theme.rs.
 */
import { deepStrictEqual, notDeepStrictEqual, strictEqual } from "node:assert";
import { transform } from "../../imagecore/mod.ts";
import { renderDemoLogos } from "../../src/store/demo_logos.ts";
import {
  bytesOf,
  discPixels,
  fromPixels,
  pixelAt,
  pixelsOf,
  type Rgba,
} from "../support/images.ts";

async function logo(width: number, height: number, colour: Rgba = [0, 0, 200, 255]) {
  return await bytesOf(
    fromPixels(discPixels(width, height, colour, [0, 0, 0, 0]), width, height).png(),
  );
}

Deno.test("the reported width and height are the output's, as a decoder reads them", async () => {
  for (
    const [width, height, to] of [[2048, 512, 128], [100, 400, 50], [300, 1, 1], [16, 16, 256]]
  ) {
    const out = transform(await logo(width, height), { width: to });
    strictEqual(out.width, to);
    const decoded = await pixelsOf(out.bytes); // sharp, independent of imagecore
    deepStrictEqual([decoded.width, decoded.height], [out.width, out.height], `${width}×${height}`);
  }
});

Deno.test("no width keeps the source size", async () => {
  const out = transform(await logo(40, 30));
  deepStrictEqual([out.width, out.height], [40, 30]);
});

Deno.test("an SVG is drawn at the width asked, or its own without one", () => {
  const svg = new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="32"><rect width="48" height="32"/></svg>`,
  );
  const wide = transform(svg, { width: 480 });
  deepStrictEqual([wide.width, wide.height], [480, 320]);
  const own = transform(svg);
  deepStrictEqual([own.width, own.height], [48, 32]);
});

Deno.test("`inverted` reports whether the theme step inverted the logo", async () => {
  const black = await logo(40, 40, [0, 0, 0, 255]);
  strictEqual(transform(black, { theme: "dark" }).inverted, true);
  strictEqual(transform(black, { theme: "light" }).inverted, false);
  strictEqual(transform(black).inverted, false);
});

Deno.test("the demo logos under each theme: the orange example.org badge stays orange", async () => {
  // The RGB inversion this replaced turned the badge blue under theme=light (issue 14).
  const demo = new Map(renderDemoLogos().map(({ domain, bytes }) => [domain, bytes]));
  const badge = demo.get("example.org")!;
  for (const theme of ["light", "dark"] as const) {
    const out = transform(badge, { theme });
    strictEqual(out.inverted, false, theme);
    deepStrictEqual(out.bytes, transform(badge).bytes, theme);
  }
  const themed = await pixelsOf(transform(badge, { theme: "light" }).bytes);
  deepStrictEqual(pixelAt(themed, 40, 100), [249, 115, 22, 255], "inside the badge, left of ORG");
  // example.com's near-black ring turns light on a dark page only.
  const ring = demo.get("example.com")!;
  strictEqual(transform(ring, { theme: "dark" }).inverted, true);
  strictEqual(transform(ring, { theme: "light" }).inverted, false);
});

Deno.test("greyscale reaches the WASM: it changes a coloured logo's bytes", async () => {
  const red = await logo(40, 40, [200, 40, 90, 255]);
  const plain = transform(red, { width: 30 }).bytes;
  notDeepStrictEqual(transform(red, { width: 30, greyscale: true }).bytes, plain);
  deepStrictEqual(transform(red, { width: 30, greyscale: false }).bytes, plain);
});
