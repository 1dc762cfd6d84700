import assert from "node:assert/strict";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { ImageCoreError, renditions, transform } from "../../imagecore/mod.ts";
import { iconPng, noiseImage } from "../support/images.ts";
import { crc32 } from "node:zlib";

const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200">' +
    '<circle cx="100" cy="100" r="80" fill="#3366cc"/></svg>',
);

Deno.test("renditions: the source and each width, with the bytes of separate small-effort transforms", () => {
  const png = noiseImage(1500, 500, 9);
  const made = renditions(png, { sourceMaxWidth: 1200, widths: [128, 300] });
  assert.deepEqual([made.format, made.width, made.height], ["png", 1500, 500]);
  const source = transform(png, { width: 1200, effort: "small" });
  assert.deepEqual(made.images.map((i) => [i.width, i.height]), [[1200, 400], [128, 43], [
    300,
    100,
  ]]);
  assert.deepEqual(made.images[0].bytes, source.bytes);
  assert.deepEqual(
    made.images[1].bytes,
    transform(source.bytes, { width: 128, effort: "small" }).bytes,
  );
  assert.deepEqual(
    made.images[2].bytes,
    transform(source.bytes, { width: 300, effort: "small" }).bytes,
  );
});

/** `png` with a `tEXt` chunk inserted after its IHDR chunk. */
function withText(png: Uint8Array, text: string): Uint8Array {
  const data = new TextEncoder().encode(`Comment\0${text}`);
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(new TextEncoder().encode("tEXt"), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  const ihdrEnd = 8 + 12 + 13;
  return new Uint8Array([...png.subarray(0, ihdrEnd), ...chunk, ...png.subarray(ihdrEnd)]);
}

Deno.test("renditions: a PNG that needs no resize is the source rendition as given, minus its text", () => {
  const png = iconPng(300, 150); // IHDR, IDAT, IEND
  const made = renditions(withText(png, "a private note"), { sourceMaxWidth: 1200, widths: [128] });
  assert.deepEqual(made.images[0].bytes, png);
  assert.deepEqual(
    made.images[1].bytes,
    transform(png, { width: 128, effort: "small" }).bytes,
  );
  // Wider than the source rendition may be: resized, so encoded.
  const resized = renditions(png, { sourceMaxWidth: 200, widths: [] });
  assert.deepEqual(resized.images[0].bytes, transform(png, { width: 200, effort: "small" }).bytes);
});

Deno.test("renditions: an SVG is rasterised once, at the source width", () => {
  const made = renditions(SVG, { sourceMaxWidth: 1200, widths: [128] });
  assert.deepEqual([made.format, made.width, made.height], ["svg", 400, 200]);
  const source = transform(SVG, { width: 400, effort: "small" });
  assert.deepEqual(made.images[0].bytes, source.bytes);
  assert.deepEqual(
    made.images[1].bytes,
    transform(source.bytes, { width: 128, effort: "small" }).bytes,
  );
});

Deno.test("renditions: bad options and bad bytes are refused with a reason", () => {
  const png = noiseImage(32, 32, 1);
  for (const widths of [[0], [1.5], [5000], [1, 2, 3, 4, 5, 6, 7, 8, 9]]) {
    assert.throws(
      () => renditions(png, { sourceMaxWidth: 1200, widths }),
      (e) => e instanceof ImageCoreError && e.code === "invalid_argument",
      String(widths),
    );
  }
  assert.throws(
    () => renditions(new Uint8Array([1, 2, 3]), { sourceMaxWidth: 1200, widths: [128] }),
    (e) => e instanceof ImageCoreError && e.message === "Cannot decode image: unsupported format",
  );
});

Deno.test("renditions through the image pool: the same images as in process", async () => {
  await using pool = startImagePool();
  await pool.ready();
  const png = noiseImage(700, 350, 4);
  const options = { sourceMaxWidth: 1200, widths: [128] };
  const fromPool = await pool.renditions(png, options);
  const inProcess = renditions(png, options);
  assert.deepEqual(fromPool.images.map((i) => i.bytes), inProcess.images.map((i) => i.bytes));
  assert.equal(fromPool.format, "png");
  await assert.rejects(
    pool.renditions(new Uint8Array([1, 2, 3]), options),
    (e) => e instanceof ImageCoreError && e.code === "unsupported_format",
  );
});
