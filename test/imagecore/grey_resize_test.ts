/**
 * The greyscale resize in the WASM build: imagecore packs luma + alpha with SIMD128 on wasm32
 * (imagecore/src/raster/resize/grey.rs), a path the native `cargo test` suite does not run. A
 * greyscale transform must match the colour transform made grey afterwards (Rec. 709 luma),
 * within the 40-dB PSNR bar of imagecore/tests/resize_grey.rs, on coloured, half-transparent
 * detail at sizes that leave a scalar tail on every row, and on that detail as a JPEG (decoded to
 * RGB at the reduced scale a colour resize uses, luma packed from three bytes a pixel).
 */
import { ok, strictEqual } from "node:assert";
import { transform } from "../../imagecore/mod.ts";
import { bytesOf, fromPixels, pixelsOf } from "../support/images.ts";
import { rec709Luma } from "../support/rec709_luma.ts";

const COLOURS = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 220, 0], [0, 200, 255], [
  250,
  250,
  250,
]];

/** 16-px cells cycling through saturated colours, alpha by band, 1-px dark lines every 7 px. */
function detail(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cell = ((x >> 4) + 3 * (y >> 4)) % COLOURS.length;
      const line = x % 7 === 0 || y % 7 === 0;
      const [r, g, b] = line ? [20, 20, 20] : COLOURS[cell];
      const alpha = [255, 128, 40, 0, 200][(y >> 5) % 5];
      pixels.set([r, g, b, alpha], (y * width + x) * 4);
    }
  }
  return pixels;
}

/** PSNR in dB of two straight-alpha RGBA8 images, on premultiplied channels. */
function psnr(image: Uint8Array, reference: Uint8Array): number {
  let squared = 0;
  for (let i = 0; i < image.length; i += 4) {
    for (let c = 0; c < 4; c++) {
      const a = c === 3 ? image[i + 3] : image[i + c] * image[i + 3] / 255;
      const b = c === 3 ? reference[i + 3] : reference[i + c] * reference[i + 3] / 255;
      squared += (a - b) ** 2;
    }
  }
  return 10 * Math.log10(255 * 255 / (squared / image.length));
}

/** Straight-alpha RGBA8 made grey by Rec. 709 luma in 1/256ths, as imagecore's greyscale step. */
function greyscale(pixels: Uint8Array): Uint8Array {
  const out = pixels.slice();
  for (let i = 0; i < out.length; i += 4) {
    const y = rec709Luma(out[i], out[i + 1], out[i + 2]);
    out.set([y, y, y], i);
  }
  return out;
}

Deno.test("a greyscale resize in WASM matches the colour resize made grey, ≥ 40 dB", async () => {
  for (const [width, height, to] of [[1024, 1024, 128], [517, 301, 128], [2047, 515, 101]]) {
    const source = await bytesOf(fromPixels(detail(width, height), width, height).png());
    const grey = await pixelsOf(transform(source, { width: to, greyscale: true }).bytes);
    const colour = await pixelsOf(transform(source, { width: to }).bytes);
    strictEqual(grey.data.length, colour.data.length);
    const db = psnr(grey.data, greyscale(colour.data));
    ok(db >= 40, `${width}×${height} → ${to}: ${db.toFixed(1)} dB`);
    // The bar can fail: the colour output itself, not made grey, is far from the grey one.
    ok(psnr(grey.data, colour.data) < 40, `${width}×${height}: colour passes as grey`);
  }
});

Deno.test("a greyscale resize of a JPEG (luma packed from RGB in WASM) matches colour made grey", async () => {
  for (const [width, height, to] of [[1024, 1024, 128], [517, 301, 128], [2047, 515, 101]]) {
    const source = await bytesOf(
      fromPixels(detail(width, height), width, height).flatten({ background: "#ffffff" })
        .jpeg({ quality: 90 }),
    );
    const grey = await pixelsOf(transform(source, { width: to, greyscale: true }).bytes);
    // Both resizes shrink the JPEG on load at the same scale (1/2 or 1/4 here), so they start
    // from the same decode.
    const colour = await pixelsOf(transform(source, { width: to }).bytes);
    strictEqual(grey.data.length, colour.data.length);
    const db = psnr(grey.data, greyscale(colour.data));
    ok(db >= 40, `JPEG ${width}×${height} → ${to}: ${db.toFixed(1)} dB`);
    ok(psnr(grey.data, colour.data) < 40, `JPEG ${width}×${height}: colour passes as grey`);
  }
});
