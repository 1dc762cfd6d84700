/**
 * Reads an image's pixel dimensions from the first bytes of its file (PNG IHDR, JPEG SOF, WebP
 * VP8/VP8L/VP8X, GIF screen descriptor) without decoding it, so that a streamed body can be
 * measured from its first chunk.
 *
 * @module
 */

/** Width and height in pixels. */
export interface ImageSize {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
}

/**
 * The dimensions in `bytes` (the start of an image file); `"more"` when the header is cut short
 * and more bytes could tell; `undefined` when the bytes are not a PNG, JPEG, WebP or GIF header
 * (or are corrupt).
 *
 * @example
 * ```ts
 * const header = await (await fetch("https://example.com/logo.png")).bytes();
 * const size = readImageSize(header);
 * if (typeof size === "object") console.log(size.width, size.height);
 * ```
 */
export function readImageSize(bytes: Uint8Array): ImageSize | "more" | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return readPng(bytes);
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xd8) return readJpeg(bytes);
  if (startsWith(bytes, RIFF) && (bytes.length < 12 || startsWith(bytes.subarray(8), WEBP))) {
    return readWebp(bytes);
  }
  if (startsWith(bytes, GIF87A) || startsWith(bytes, GIF89A)) return readGif(bytes);
  // A prefix of a known signature could still become one.
  const prefixes = [PNG_SIGNATURE, [0xff, 0xd8], RIFF, GIF87A, GIF89A];
  if (bytes.length < 8 && prefixes.some((p) => startsWith(p, Array.from(bytes)))) return "more";
  return undefined;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];
const GIF87A = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61];
const GIF89A = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];

function startsWith(bytes: ArrayLike<number>, prefix: readonly number[]): boolean {
  const n = Math.min(bytes.length, prefix.length);
  for (let i = 0; i < n; i++) if (bytes[i] !== prefix[i]) return false;
  return bytes.length >= prefix.length;
}

function u16be(b: Uint8Array, at: number): number {
  return (b[at] << 8) | b[at + 1];
}

function u16le(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}

function u24le(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
}

function u32be(b: Uint8Array, at: number): number {
  return ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);
}

function sized(width: number, height: number): ImageSize | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}

function readPng(b: Uint8Array): ImageSize | "more" | undefined {
  if (b.length < 24) return "more";
  // The first chunk must be IHDR: 4-byte length, "IHDR", width, height (big-endian).
  if (b[12] !== 0x49 || b[13] !== 0x48 || b[14] !== 0x44 || b[15] !== 0x52) return undefined;
  return sized(u32be(b, 16), u32be(b, 20));
}

function readJpeg(b: Uint8Array): ImageSize | "more" | undefined {
  let at = 2;
  while (true) {
    if (at >= b.length) return "more";
    if (b[at] !== 0xff) return undefined;
    // Skip fill bytes before the marker.
    while (at < b.length && b[at] === 0xff) at++;
    if (at >= b.length) return "more";
    const marker = b[at++];
    // Markers without a length field.
    if ((marker >= 0xd0 && marker <= 0xd8) || marker === 0x01) continue;
    // Start of scan or end of image before any frame header: no size to be had.
    if (marker === 0xda || marker === 0xd9) return undefined;
    if (at + 2 > b.length) return "more";
    const length = u16be(b, at);
    if (length < 2) return undefined;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 &&
      marker !== 0xcc;
    if (isFrame) {
      // Segment: length (2), precision (1), height (2), width (2).
      if (at + 7 > b.length) return "more";
      return sized(u16be(b, at + 5), u16be(b, at + 3));
    }
    at += length;
  }
}

function readWebp(b: Uint8Array): ImageSize | "more" | undefined {
  if (b.length < 16) return "more";
  const chunk = String.fromCharCode(b[12], b[13], b[14], b[15]);
  if (chunk === "VP8 ") {
    if (b.length < 30) return "more";
    // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined;
    return sized(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  if (chunk === "VP8L") {
    if (b.length < 25) return "more";
    if (b[20] !== 0x2f) return undefined;
    const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
    return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === "VP8X") {
    if (b.length < 30) return "more";
    return sized(u24le(b, 24) + 1, u24le(b, 27) + 1);
  }
  return undefined;
}

function readGif(b: Uint8Array): ImageSize | "more" | undefined {
  if (b.length < 10) return "more";
  return sized(u16le(b, 6), u16le(b, 8));
}
