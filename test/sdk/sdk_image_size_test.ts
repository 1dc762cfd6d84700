import assert from "node:assert/strict";
import { readImageSize } from "../../src/sdk/image_size.ts";

function png(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  return b;
}

function jpeg(width: number, height: number): Uint8Array {
  // SOI, an APP0 segment of 16 bytes, a DQT of 4 bytes (content irrelevant), then SOF2.
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...new Array(14).fill(0x4a)];
  const dqt = [0xff, 0xdb, 0x00, 0x04, 0x00, 0x00];
  const sof = [
    0xff,
    0xff,
    0xc2,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
  ];
  return new Uint8Array([0xff, 0xd8, ...app0, ...dqt, ...sof, 0x03, 0, 0, 0]);
}

function riff(chunk: string, data: number[]): Uint8Array {
  const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
  return new Uint8Array([
    ...ascii("RIFF"),
    0,
    0,
    0,
    0,
    ...ascii("WEBP"),
    ...ascii(chunk),
    data.length,
    0,
    0,
    0,
    ...data,
  ]);
}

Deno.test("readImageSize reads width and height from a PNG IHDR", () => {
  assert.deepEqual(readImageSize(png(1200, 630)), { width: 1200, height: 630 });
  assert.deepEqual(readImageSize(png(70_000, 3)), { width: 70_000, height: 3 });
});

Deno.test("readImageSize finds the SOF segment of a JPEG after other segments and fill bytes", () => {
  assert.deepEqual(readImageSize(jpeg(640, 480)), { width: 640, height: 480 });
});

Deno.test("readImageSize reads lossy (VP8), lossless (VP8L) and extended (VP8X) WebP", () => {
  // VP8: frame tag, start code 9d 01 2a, 14-bit width/height (upper 2 bits are scaling).
  const vp8 = riff("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, 300 & 255, (300 >> 8) | 0x40, 150, 0]);
  assert.deepEqual(readImageSize(vp8), { width: 300, height: 150 });
  // VP8L: signature 0x2f, then (width-1) in 14 bits and (height-1) in the next 14.
  const bits = (1023 - 1) | ((77 - 1) << 14);
  const vp8l = riff("VP8L", [0x2f, bits & 255, (bits >> 8) & 255, (bits >> 16) & 255, bits >>> 24]);
  assert.deepEqual(readImageSize(vp8l), { width: 1023, height: 77 });
  // VP8X: flags, 3 reserved, canvas (width-1) and (height-1) as 24-bit little-endian.
  const w = 4000 - 1, h = 2 - 1;
  const vp8x = riff("VP8X", [0x10, 0, 0, 0, w & 255, w >> 8, 0, h, 0, 0]);
  assert.deepEqual(readImageSize(vp8x), { width: 4000, height: 2 });
});

Deno.test("readImageSize asks for more bytes while a known header is cut short", () => {
  for (const whole of [png(10, 20), jpeg(10, 20), riff("VP8X", [0, 0, 0, 0, 9, 0, 0, 19, 0, 0])]) {
    for (let n = 0; n < whole.length - 4; n++) {
      const answer = readImageSize(whole.subarray(0, n));
      assert.ok(
        answer === "more" || (typeof answer === "object" && answer.width === 10),
        `prefix of ${n} bytes gave ${JSON.stringify(answer)}`,
      );
    }
    assert.deepEqual(readImageSize(whole), { width: 10, height: 20 });
  }
});

Deno.test("readImageSize gives undefined for bytes that are not a known image header", () => {
  assert.equal(readImageSize(new TextEncoder().encode("Logo not found")), undefined);
  assert.equal(readImageSize(new TextEncoder().encode("<svg xmlns=")), undefined);
  const badPng = png(1, 1);
  badPng[12] = 0x58; // first chunk is not IHDR
  assert.equal(readImageSize(badPng), undefined);
  assert.equal(readImageSize(png(0, 5)), undefined);
  // A JPEG whose scan starts before any frame header.
  assert.equal(readImageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2])), undefined);
});

Deno.test("readImageSize agrees with imagecore on every format imagecore encodes", async () => {
  const { encodeRgba, probe } = await import("../../imagecore/mod.ts");
  for (const [width, height] of [[1, 1], [17, 5], [300, 1200], [1200, 37]]) {
    const pixels = new Uint8Array(width * height * 4).fill(200);
    for (const format of ["png", "webp", "jpeg"] as const) {
      const bytes = encodeRgba(pixels, width, height, format);
      const expected = probe(bytes);
      assert.deepEqual(
        readImageSize(bytes),
        { width: expected.width, height: expected.height },
        `${format} ${width}x${height}`,
      );
      assert.deepEqual([expected.width, expected.height], [width, height]);
    }
  }
});
