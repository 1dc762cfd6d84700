/**
 * imagecore's format names at the JS boundary: every source format is probed under its name with
 * its size, the format comes from the bytes, and each output format is reported as its bytes are.
 * How each format decodes, pixel by pixel, is imagecore's own suite (imagecore/tests/formats.rs).
 */
import { deepStrictEqual, strictEqual } from "node:assert";
import { probe, transform } from "../../imagecore/mod.ts";
import { bmp24, bytesOf, discPixels, fromPixels, icoOf, type Rgba } from "../support/images.ts";

const GREEN: Rgba = [20, 160, 60, 255];
const W = 48, H = 32;
const logo = discPixels(W, H, GREEN, [0, 0, 0, 0]);

Deno.test("every source format is probed under its name, with its size, and transforms", async () => {
  const png = await bytesOf(fromPixels(logo, W, H).png());
  const sources = {
    png,
    jpeg: await bytesOf(fromPixels(logo, W, H).flatten({ background: "#fff" }).jpeg()),
    gif: await bytesOf(fromPixels(logo, W, H).gif()),
    webp: await bytesOf(fromPixels(logo, W, H).webp({ lossless: true })),
    ico: icoOf([{ png, side: W }]),
    bmp: bmp24(logo, W, H),
    svg: new TextEncoder().encode(
      `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="32"><rect width="48" height="32" fill="rgb(20,160,60)"/></svg>`,
    ),
  };
  for (const [format, bytes] of Object.entries(sources)) {
    deepStrictEqual(probe(bytes), { format, width: W, height: H });
    const out = transform(bytes);
    deepStrictEqual([out.width, out.height, out.format], [W, H, "png"], format);
  }
});

Deno.test("format is recognised from the bytes, whatever the caller believes", async () => {
  const webp = await bytesOf(fromPixels(logo, W, H).webp({ lossless: true }));
  strictEqual(probe(webp).format, "webp");
  strictEqual(transform(webp, { format: "png" }).format, "png");
});

Deno.test("each output format is reported as its bytes are encoded", async () => {
  const png = await bytesOf(fromPixels(logo, W, H).png());
  for (const format of ["png", "webp", "jpeg"] as const) {
    const out = transform(png, { format, width: 24 });
    strictEqual(out.format, format);
    deepStrictEqual(probe(out.bytes), { format, width: 24, height: 16 });
  }
});
