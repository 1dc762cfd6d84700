/**
 * `deno run -A bench/imagecore_limits_bench.ts [PKG_DIR]`: time and peak WASM linear memory of
 * imagecore's largest legal inputs and of hostile ones (a PNG with zlib bombs in `iCCP` and
 * `zTXt`, a GIF and an RLE BMP declaring 6000×6000 or 4096×4096), one call each on a fresh
 * instance, through the raw wasm-bindgen glue of `PKG_DIR` (default `imagecore/pkg`). Point
 * `PKG_DIR` at an older checkout's `imagecore/pkg` for "before" figures. See docs/internals/images.md.
 *
 * @module
 */
import sharp, { type Sharp } from "sharp";
import { hugeGif, pngWithZlibBombs, rleBmp, zlibBomb } from "../test/support/hostile_images.ts";

const pkg = Deno.args[0] ?? new URL("../imagecore/pkg", import.meta.url).pathname;
const glue = await import(`file://${pkg}/imagecore.js`);
glue.initSync({ module: Deno.readFileSync(`${pkg}/imagecore_bg.wasm`) });

/** Gradients with sparse translucent noise: a 16.8-MP PNG of it stays under 10 MiB. */
function pixels(width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  let state = 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      out.set(
        [x & 255, y & 255, (x ^ y) & 255, (state & 63) === 0 ? state >>> 24 : 255],
        (y * width + x) * 4,
      );
    }
  }
  return out;
}

async function encoded(width: number, height: number, encode: (s: Sharp) => Sharp) {
  const image = sharp(pixels(width, height), { raw: { width, height, channels: 4 } });
  return new Uint8Array(await encode(image).toBuffer());
}

/** One call on a fresh instance: milliseconds, linear memory after (it only grows), outcome. */
function measure(input: Uint8Array, width: number): string {
  glue.__wbg_reset_state();
  const start = performance.now();
  let outcome: string;
  try {
    const out: Uint8Array = glue.transform(input, width, false, 0, 0);
    const view = new DataView(out.buffer, out.byteOffset);
    outcome = `${view.getUint32(0, true)}×${view.getUint32(4, true)}`;
  } catch (error) {
    outcome = String(error).replace("\t", ": ").slice(0, 80);
  }
  const ms = performance.now() - start;
  const mib = glue.memory_bytes() / 2 ** 20;
  return `${ms.toFixed(0).padStart(5)} ms ${mib.toFixed(0).padStart(5)} MiB  ${outcome}`;
}

const legal: [string, Uint8Array][] = [
  ["PNG RGBA 8-bit 4096²", await encoded(4096, 4096, (s) => s.png({ compressionLevel: 9 }))],
  [
    "PNG RGBA 16-bit 4096²",
    await encoded(4096, 4096, (s) => s.toColourspace("rgb16").png({ compressionLevel: 9 })),
  ],
  ["JPEG baseline 4096²", await encoded(4096, 4096, (s) => s.jpeg({ quality: 80 }))],
  [
    "JPEG progressive 4096²",
    await encoded(4096, 4096, (s) => s.jpeg({ quality: 80, progressive: true })),
  ],
  ["WebP lossy+alpha 4096²", await encoded(4096, 4096, (s) => s.webp({ quality: 80 }))],
  ["WebP lossless 4096²", await encoded(4096, 4096, (s) => s.webp({ lossless: true }))],
  ["GIF 4096²", await encoded(4096, 4096, (s) => s.gif())],
  ["BMP RLE8 4096² (13 KB)", rleBmp(4096)],
  ["PNG 5000×3360 (16.8 MP)", await encoded(5000, 3360, (s) => s.png({ compressionLevel: 9 }))],
];
console.log("Largest legal inputs, to 4096 and 128 px wide:");
for (const [name, input] of legal) {
  for (const width of [4096, 128]) {
    console.log(`${name.padEnd(26)} → ${String(width).padStart(4)}: ${measure(input, width)}`);
  }
}

const hostile: [string, Uint8Array][] = [
  ["PNG, iCCP+zTXt 2 × 1 GiB", pngWithZlibBombs(await zlibBomb(1))],
  ["RLE BMP 6000² (13 KB)", rleBmp(6000)],
  ["GIF 6000² (805 B)", hugeGif(6000)],
  ["GIF 4096² (805 B)", hugeGif(4096)],
];
console.log("\nHostile inputs, to 128 px wide:");
for (const [name, input] of hostile) console.log(`${name.padEnd(26)}: ${measure(input, 128)}`);
