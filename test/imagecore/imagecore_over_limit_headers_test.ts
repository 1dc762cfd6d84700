/**
 * Issue #30, defect 8: a header declaring a size over the limits is refused as `too_large` with
 * the size and the limit named ("Cannot decode image: 70000×70000 exceeds the 65535-px limit"),
 * in every format, by `probe` and `transform` through the WASM module — never as `corrupt` (the
 * BMP and ICO decoders' "Image too large" and WebP's were format errors) or, on wasm32, as an
 * unsupported format. The Rust side: imagecore/tests/over_limit_headers.rs.
 */
import { deepStrictEqual, strictEqual } from "node:assert";
import { ImageCoreError, probe, transform } from "../../imagecore/mod.ts";
import { gif, icoBmpEntry, type Pixels } from "../fuzz/handmade_images.ts";
import { hugeGif, rleBmp } from "../support/hostile_images.ts";
import { bmp24, bytesOf, fromPixels, icoOf, noiseImage, pngHeaderOnly } from "../support/images.ts";

const SIDE = "exceeds the 65535-px limit";
const PIXELS = "exceeds the 16800000-pixel limit";
const small: Pixels = { data: noiseImage(16, 16, 3), width: 16, height: 16 };

/** What `probe` and `transform` (64 px) throw: `[code, message]` each, or "ok". */
function outcomes(bytes: Uint8Array): [string, string][] {
  return [() => probe(bytes), () => transform(bytes, { width: 64 })].map((call) => {
    try {
      call();
      return ["ok", ""];
    } catch (e) {
      if (!(e instanceof ImageCoreError)) throw e;
      return [e.code, e.message];
    }
  });
}

function tooLarge(name: string, bytes: Uint8Array, message: string): void {
  const expected: [string, string] = ["too_large", `Cannot decode image: ${message}`];
  deepStrictEqual(outcomes(bytes), [expected, expected], name);
}

function bmpDeclaring(width: number, height: number): Uint8Array {
  const bytes = bmp24(small.data, 16, 16);
  const view = new DataView(bytes.buffer);
  view.setInt32(18, width, true);
  view.setInt32(22, height, true);
  return bytes;
}

function icoDeclaring(width: number, height: number): Uint8Array {
  const entry = icoBmpEntry(small, 32);
  const view = new DataView(entry.buffer, entry.byteOffset);
  view.setInt32(4, width, true);
  view.setInt32(8, height * 2, true); // an entry stores its height doubled (the AND mask)
  return icoOf([{ png: entry, side: 16 }]);
}

/** A WebP whose VP8X chunk declares a `width`×`height` canvas around a 16×16 lossless frame. */
async function webpVp8xDeclaring(width: number, height: number): Promise<Uint8Array> {
  const lossless = await bytesOf(fromPixels(small.data, 16, 16).webp({ lossless: true }));
  const out = new Uint8Array(12 + 18 + lossless.length - 12);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode("RIFF"));
  view.setUint32(4, out.length - 8, true);
  out.set(new TextEncoder().encode("WEBPVP8X"), 8);
  view.setUint32(16, 10, true);
  for (const [at, side] of [[24, width - 1], [27, height - 1]]) {
    out.set([side & 0xff, (side >> 8) & 0xff, (side >> 16) & 0xff], at);
  }
  out.set(lossless.subarray(12), 30);
  return out;
}

function gifFrameDeclaring(width: number, height: number): Uint8Array {
  const bytes = gif(small, {});
  let at = 13 + (bytes[10] & 0x80 ? 3 << ((bytes[10] & 7) + 1) : 0);
  while (bytes[at] === 0x21) {
    at += 2;
    while (bytes[at] !== 0) at += bytes[at] + 1;
    at++;
  }
  strictEqual(bytes[at], 0x2c, "an image descriptor");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  view.setUint16(at + 5, width, true);
  view.setUint16(at + 7, height, true);
  return bytes;
}

Deno.test("the hand-patched headers decode at their real size", async () => {
  for (
    const bytes of [bmpDeclaring(16, 16), icoDeclaring(16, 16), await webpVp8xDeclaring(16, 16)]
  ) {
    deepStrictEqual(outcomes(bytes), [["ok", ""], ["ok", ""]]);
  }
  deepStrictEqual(outcomes(gifFrameDeclaring(16, 16)).map(([code]) => code), ["ok", "ok"]);
});

Deno.test("PNG headers over the limits are too large, the side named", () => {
  tooLarge("PNG", pngHeaderOnly(70_000, 70_000), `70000×70000 ${SIDE}`);
  tooLarge("PNG", pngHeaderOnly(20_000, 20_000), `20000×20000 ${PIXELS}`);
  tooLarge(
    "ICO of a PNG",
    icoOf([{ png: pngHeaderOnly(70_000, 70_000), side: 0 }]),
    `70000×70000 ${SIDE}`,
  );
});

Deno.test("JPEG and GIF headers over the pixel limit are too large", async () => {
  const jpeg = await bytesOf(fromPixels(small.data, 16, 16).jpeg({ quality: 80 }));
  const sof = jpeg.findIndex((b, i) => b === 0xff && jpeg[i + 1] === 0xc0);
  new DataView(jpeg.buffer, jpeg.byteOffset).setUint32(sof + 5, 0xffff_ffff);
  tooLarge("JPEG", jpeg, `65535×65535 ${PIXELS}`);
  tooLarge("GIF screen", hugeGif(65_535), `65535×65535 ${PIXELS}`);
  tooLarge("GIF frame", gifFrameDeclaring(65_535, 65_535), `a frame of 65535×65535 ${PIXELS}`);
});

Deno.test("BMP headers over the limits are too large, not corrupt", () => {
  tooLarge("BMP", bmpDeclaring(70_000, 70_000), `70000×70000 ${SIDE}`);
  tooLarge("BMP", bmpDeclaring(70_000, 10), `70000×10 ${SIDE}`);
  tooLarge("BMP top-down", bmpDeclaring(10, -70_000), `10×70000 ${SIDE}`);
  tooLarge("BMP", bmpDeclaring(40_000, 40_000), `40000×40000 ${PIXELS}`);
  tooLarge("RLE BMP", rleBmp(70_000), `70000×70000 ${SIDE}`);
});

Deno.test("ICO entries over the limits are too large, not corrupt", () => {
  tooLarge("ICO", icoDeclaring(70_000, 70_000), `70000×70000 ${SIDE}`);
  tooLarge("ICO", icoDeclaring(20_000, 20_000), `20000×20000 ${PIXELS}`);
  tooLarge(
    "ICO",
    icoDeclaring(100, 40_000),
    "100×40000 exceeds the 32767-px height limit of an ICO entry",
  );
});

Deno.test("WebP headers over the limits are too large, not corrupt", async () => {
  tooLarge("VP8X", await webpVp8xDeclaring(70_000, 70_000), `70000×70000 ${SIDE}`);
  tooLarge("VP8X", await webpVp8xDeclaring(70_000, 10), `70000×10 ${SIDE}`);
  tooLarge("VP8X", await webpVp8xDeclaring(16_384, 16_384), `16384×16384 ${PIXELS}`);
});

Deno.test("a header of no pixels is corrupt, not an unsupported format", () => {
  for (const bytes of [bmpDeclaring(0, 16), bmpDeclaring(16, 0)]) {
    const expected = ["corrupt", "Cannot decode image: corrupt data (zero width or height)"];
    deepStrictEqual(outcomes(bytes), [expected, expected]);
  }
});
