import assert from "node:assert/strict";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { ImageCoreError, renditions, transform } from "../../imagecore/mod.ts";
import { noiseImage } from "../support/images.ts";

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
