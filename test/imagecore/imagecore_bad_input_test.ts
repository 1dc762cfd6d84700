import { ok, strictEqual, throws } from "node:assert";
import {
  allocateForTests,
  ImageCoreError,
  type ImageCoreErrorCode,
  probe,
  transform,
  trapForTests,
  wasmMemoryBytes,
} from "../../imagecore/mod.ts";
import { hugeGif, rleBmp } from "../support/hostile_images.ts";
import { bmp24, bytesOf, discPixels, fromPixels, icoOf, pngHeaderOnly } from "../support/images.ts";

const valid = await bytesOf(
  fromPixels(discPixels(64, 64, [9, 9, 9, 255], [0, 0, 0, 0]), 64, 64).png(),
);

function refusedWith(bytes: Uint8Array, code: ImageCoreErrorCode, options = { width: 32 }) {
  throws(() => transform(bytes, options), (e: unknown) => {
    ok(e instanceof ImageCoreError, `threw ${e}`);
    strictEqual(e.code, code, e.message);
    ok(e.message.startsWith("Cannot "), e.message);
    return true;
  });
  // The instance stays healthy: the next call works.
  strictEqual(transform(valid, { width: 16 }).width, 16);
}

function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = state & 0xff;
  }
  return out;
}

Deno.test("zero bytes are corrupt", () => refusedWith(new Uint8Array(0), "corrupt"));

Deno.test("random bytes are an unsupported format", () => {
  for (const seed of [1, 2, 3, 4, 5]) refusedWith(noise(2048, seed), "unsupported_format");
});

Deno.test("HTML and TIFF are unsupported formats", () => {
  refusedWith(new TextEncoder().encode("<!doctype html><svg></svg>"), "unsupported_format");
  refusedWith(new Uint8Array([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]), "unsupported_format");
});

Deno.test("truncated PNGs are corrupt", () => {
  for (const cut of [8, 30, valid.length >> 1, valid.length - 13]) {
    refusedWith(valid.subarray(0, cut), "corrupt");
  }
});

Deno.test("a PNG body of random bytes after a valid signature is corrupt", () => {
  const lying = new Uint8Array([...valid.subarray(0, 8), ...noise(500, 9)]);
  refusedWith(lying, "corrupt");
});

Deno.test("a PNG header claiming 100000×100000 is too large, before any allocation", () => {
  const bytes = pngHeaderOnly(100_000, 100_000);
  refusedWith(bytes, "too_large");
  throws(() => probe(bytes), (e: unknown) => e instanceof ImageCoreError && e.code === "too_large");
});

Deno.test("a header claiming a plausible size with no pixels is corrupt", () => {
  refusedWith(pngHeaderOnly(4000, 4000), "corrupt");
});

Deno.test("inputs over 10 MiB are too large", () => {
  const big = new Uint8Array(10 * 1024 * 1024 + 1);
  big.set(valid);
  refusedWith(big, "too_large");
});

Deno.test("bad options are invalid arguments", () => {
  for (const width of [0, -1, 1.5, 4097, NaN]) refusedWith(valid, "invalid_argument", { width });
});

Deno.test("a trap inside WASM throws an internal ImageCoreError and the next call works", () => {
  for (let i = 0; i < 3; i++) {
    throws(
      () => trapForTests(),
      (e: unknown) => e instanceof ImageCoreError && e.code === "internal",
    );
    strictEqual(transform(valid, { width: 20 }).width, 20);
  }
});

Deno.test("a trap inside the SVG module leaves both modules working", async () => {
  const svg = new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="4"><rect width="8" height="4"/></svg>`,
  );
  throws(
    () => trapForTests("svg"),
    (e: unknown) => e instanceof ImageCoreError && e.code === "internal",
  );
  strictEqual(transform(svg, { width: 16 }).height, 8);
  strictEqual(transform(valid, { width: 16 }).width, 16);
  await Promise.resolve();
});

Deno.test("memory stays flat across many calls", async () => {
  const big = await bytesOf(
    fromPixels(discPixels(1024, 1024, [200, 10, 10, 255], [0, 0, 0, 0]), 1024, 1024).png(),
  );
  // Warm-up: each path once (greyscale and colour resize allocate differently), so the linear
  // memory reaches its high-water mark before it is measured; growth after that is a leak.
  for (let i = 0; i < 6; i++) transform(big, { width: 128, greyscale: i % 2 === 0 });
  const before = wasmMemoryBytes();
  for (let i = 0; i < 200; i++) {
    transform(big, {
      width: 128 + (i % 7),
      greyscale: i % 2 === 0,
      theme: i % 3 ? "dark" : undefined,
    });
    try {
      transform(noise(4096, i + 1));
    } catch { /* refused, as above */ }
  }
  strictEqual(wasmMemoryBytes(), before, "linear memory grew across 400 calls");
});

/** A 256×256 opaque image of gradients and noise, so that every part of its file matters. */
function busyPixels(): Uint8Array {
  const pixels = noise(256 * 256 * 4, 77);
  for (let i = 0; i < pixels.length; i += 4) {
    pixels[i] = (i >> 2) & 255;
    pixels[i + 3] = 255;
  }
  return pixels;
}

/** Prefixes that cut into the pixel data: 40 %, 70 %, 90 % and all but 20 bytes. */
function cuts(bytes: Uint8Array): Uint8Array[] {
  const n = bytes.length;
  return [0.4, 0.7, 0.9].map((f) => bytes.subarray(0, Math.floor(n * f)))
    .concat([bytes.subarray(0, n - 20)]);
}

Deno.test("truncated JPEGs, baseline and progressive, are refused as truncated, not greyed", async () => {
  const busy = fromPixels(busyPixels(), 256, 256);
  for (const progressive of [false, true]) {
    const jpeg = await bytesOf(busy.clone().jpeg({ quality: 90, progressive }));
    strictEqual(transform(jpeg, { width: 32 }).width, 32);
    for (const cut of cuts(jpeg)) {
      throws(() => transform(cut), (e: unknown) => {
        ok(e instanceof ImageCoreError, `threw ${e}`);
        strictEqual(e.code, "corrupt", `${cut.length} of ${jpeg.length}: ${e.message}`);
        strictEqual(e.message, "Cannot decode image: corrupt data (truncated)");
        return true;
      });
    }
  }
});

Deno.test("truncated GIF, WebP, BMP and ICO files are corrupt", async () => {
  const pixels = busyPixels();
  const busy = fromPixels(pixels, 256, 256);
  const png = await bytesOf(busy.clone().png());
  const files = {
    gif: await bytesOf(busy.clone().gif()),
    "lossy webp": await bytesOf(busy.clone().webp({ quality: 80 })),
    "lossless webp": await bytesOf(busy.clone().webp({ lossless: true })),
    bmp: bmp24(pixels, 256, 256),
    ico: icoOf([{ png, side: 256 }]),
  };
  for (const [name, bytes] of Object.entries(files)) {
    strictEqual(transform(bytes, { width: 32 }).width, 32, name);
    for (const cut of cuts(bytes)) refusedWith(cut, "corrupt");
  }
});

Deno.test("a GIF and an RLE BMP declaring 6000×6000 are too large from their headers", () => {
  for (const bytes of [hugeGif(6000), rleBmp(6000)]) {
    refusedWith(bytes, "too_large");
    throws(
      () => probe(bytes),
      (e: unknown) => e instanceof ImageCoreError && e.code === "too_large",
    );
  }
});

Deno.test("an allocation over the WASM memory cap is too_large and the next call works", () => {
  throws(() => allocateForTests(2 ** 30), (e: unknown) => {
    ok(e instanceof ImageCoreError, `threw ${e}`);
    strictEqual(e.code, "too_large", e.message);
    strictEqual(e.message, "Cannot process image: too large (out of memory)");
    return true;
  });
  strictEqual(transform(valid, { width: 16 }).width, 16);
  // Under the cap, the same hook succeeds: the refusal above was the cap, not the hook.
  strictEqual(allocateForTests(2 ** 20), 2 ** 20);
});
