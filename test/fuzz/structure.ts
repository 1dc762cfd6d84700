/**
 * A shallow reading of each raster format's layout for the fuzzer: the segments it is made of
 * (PNG chunks, JPEG marker segments, RIFF chunks, GIF blocks, BMP parts) and the header fields a
 * decoder trusts (dimensions, lengths, enumerations), by byte offset. Lenient on purpose: it reads
 * mutated files too, stopping where the layout stops making sense.
 * @module
 */
import type { SourceFormat } from "../../imagecore/mod.ts";

/** A byte range of a file: one chunk, segment or block. */
export interface Segment {
  /** First byte. */
  start: number;
  /** One past the last byte. */
  end: number;
  /** E.g. "IHDR", "SOF0", "VP8X", "image". */
  kind: string;
}

/** A header field: where it is and what it means. */
export interface Field {
  /** Name for the report, e.g. "IHDR.width". */
  name: string;
  /** Byte offset. */
  at: number;
  /** Width in bytes (1–4). */
  width: number;
  /** Little-endian (else big-endian). */
  le: boolean;
  /** A dimension, a length/offset, or an enumeration (depth, colour type, compression…). */
  kind: "dim" | "length" | "enum";
}

function u16be(b: Uint8Array, at: number): number {
  return (b[at] << 8) | b[at + 1];
}
function u32be(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}
function u32le(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}
function ascii(b: Uint8Array, at: number, n: number): string {
  return String.fromCharCode(...b.subarray(at, at + n));
}

function pngSegments(b: Uint8Array): Segment[] {
  const out: Segment[] = [];
  for (let at = 8; at + 12 <= b.length;) {
    const end = at + 12 + u32be(b, at);
    if (end > b.length) break;
    out.push({ start: at, end, kind: ascii(b, at + 4, 4) });
    at = end;
  }
  return out;
}

const JPEG_NAMES: Record<number, string> = { 0xc4: "DHT", 0xdb: "DQT", 0xda: "SOS", 0xdd: "DRI" };

function jpegSegments(b: Uint8Array): Segment[] {
  const out: Segment[] = [];
  for (let at = 2; at + 4 <= b.length && b[at] === 0xff;) {
    const marker = b[at + 1];
    if (marker === 0xd9) break;
    let end = at + 2 + u16be(b, at + 2);
    if (marker === 0xda) { // entropy-coded data runs to the next marker that is not RSTn/stuffing
      while (
        end + 1 < b.length && !(b[end] === 0xff && b[end + 1] !== 0 && (b[end + 1] & 0xf8) !== 0xd0)
      ) end++;
    }
    if (end > b.length) break;
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 &&
      marker !== 0xcc;
    const kind = sof
      ? `SOF${marker - 0xc0}`
      : marker >= 0xe0 && marker <= 0xef
      ? `APP${marker - 0xe0}`
      : JPEG_NAMES[marker] ?? `FF${marker.toString(16)}`;
    out.push({ start: at, end, kind });
    at = end;
  }
  return out;
}

function webpSegments(b: Uint8Array): Segment[] {
  const out: Segment[] = [];
  for (let at = 12; at + 8 <= b.length;) {
    const size = u32le(b, at + 4);
    const end = at + 8 + size + (size & 1);
    if (end > b.length + 1) break;
    out.push({ start: at, end: Math.min(end, b.length), kind: ascii(b, at, 4) });
    at = end;
  }
  return out;
}

/** Sub-blocks from `at` up to and including the zero terminator; returns the end. */
function subBlocksEnd(b: Uint8Array, at: number): number {
  while (at < b.length && b[at] !== 0) at += b[at] + 1;
  return at + 1;
}

/** A GIF colour table's length from the flags byte that announces it (absent past the end). */
function gifTable(flags: number | undefined): number {
  return flags !== undefined && flags & 0x80 ? 3 << ((flags & 7) + 1) : 0;
}

function gifSegments(b: Uint8Array): Segment[] {
  const out: Segment[] = [];
  let at = 13 + gifTable(b[10]);
  while (at < b.length) {
    if (b[at] === 0x21) {
      // A mutated file may end right after the introducer: no label, no sub-blocks.
      if (at + 1 >= b.length) break;
      const end = subBlocksEnd(b, at + 2);
      out.push({ start: at, end: Math.min(end, b.length), kind: `ext${b[at + 1].toString(16)}` });
      at = end;
    } else if (b[at] === 0x2c) {
      const data = at + 10 + gifTable(b[at + 9]);
      const end = subBlocksEnd(b, data + 1);
      out.push({ start: at, end: Math.min(end, b.length), kind: "image" });
      at = end;
    } else break;
  }
  return out;
}

function bmpSegments(b: Uint8Array): Segment[] {
  const dibEnd = Math.min(b.length, 14 + u32le(b, 14));
  const pixels = Math.min(b.length, Math.max(dibEnd, u32le(b, 10)));
  return [
    { start: 0, end: 14, kind: "file header" },
    { start: 14, end: dibEnd, kind: "DIB header" },
    { start: dibEnd, end: pixels, kind: "palette" },
    { start: pixels, end: b.length, kind: "pixels" },
  ].filter((s) => s.end > s.start);
}

/** The segments of `bytes` read as `format` (ICO and SVG have none here). */
export function segmentsOf(format: SourceFormat, bytes: Uint8Array): Segment[] {
  switch (format) {
    case "png":
      return pngSegments(bytes);
    case "jpeg":
      return jpegSegments(bytes);
    case "webp":
      return webpSegments(bytes);
    case "gif":
      return gifSegments(bytes);
    case "bmp":
      return bmpSegments(bytes);
    default:
      return [];
  }
}

function f(name: string, at: number, width: number, le: boolean, kind: Field["kind"]): Field {
  return { name, at, width, le, kind };
}

/** BMP fields of a DIB that starts at `dib` (14 in a file, 0 in an ICO entry). */
export function dibFields(dib: number): Field[] {
  return [
    f("DIB.size", dib, 4, true, "length"),
    f("DIB.width", dib + 4, 4, true, "dim"),
    f("DIB.height", dib + 8, 4, true, "dim"),
    f("DIB.planes", dib + 12, 2, true, "enum"),
    f("DIB.bpp", dib + 14, 2, true, "enum"),
    f("DIB.compression", dib + 16, 4, true, "enum"),
    f("DIB.imageSize", dib + 20, 4, true, "length"),
    f("DIB.coloursUsed", dib + 32, 4, true, "length"),
    f("DIB.redMask", dib + 40, 4, true, "length"),
    f("DIB.alphaMask", dib + 52, 4, true, "length"),
  ];
}

function segmentFields(format: SourceFormat, b: Uint8Array, s: Segment): Field[] {
  const at = s.start;
  if (format === "png") {
    const out = [f(`${s.kind}.length`, at, 4, false, "length")];
    if (s.kind === "IHDR") {
      out.push(
        f("IHDR.width", at + 8, 4, false, "dim"),
        f("IHDR.height", at + 12, 4, false, "dim"),
      );
      for (
        const [i, n] of ["depth", "colourType", "compression", "filter", "interlace"].entries()
      ) {
        out.push(f(`IHDR.${n}`, at + 16 + i, 1, false, "enum"));
      }
    }
    return out;
  }
  if (format === "jpeg") {
    const out = [f(`${s.kind}.length`, at + 2, 2, false, "length")];
    if (s.kind.startsWith("SOF")) {
      out.push(f(`${s.kind}.precision`, at + 4, 1, false, "enum"));
      out.push(
        f(`${s.kind}.height`, at + 5, 2, false, "dim"),
        f(`${s.kind}.width`, at + 7, 2, false, "dim"),
      );
      out.push(f(`${s.kind}.components`, at + 9, 1, false, "enum"));
      for (let c = 0; c < b[at + 9] && c < 4; c++) {
        out.push(f(`${s.kind}.c${c}.sampling`, at + 11 + 3 * c, 1, false, "enum"));
        out.push(f(`${s.kind}.c${c}.table`, at + 12 + 3 * c, 1, false, "enum"));
      }
    } else if (s.kind === "SOS") {
      out.push(f("SOS.components", at + 4, 1, false, "enum"));
      const n = b[at + 4];
      for (let c = 0; c < n && c < 4; c++) {
        out.push(f(`SOS.c${c}.tables`, at + 6 + 2 * c, 1, false, "enum"));
      }
      for (const [i, name] of ["Ss", "Se", "AhAl"].entries()) {
        out.push(f(`SOS.${name}`, at + 5 + 2 * n + i, 1, false, "enum"));
      }
    } else if (s.kind === "DHT" || s.kind === "DQT") {
      out.push(f(`${s.kind}.class/id`, at + 4, 1, false, "enum"));
      if (s.kind === "DHT") {
        for (let i = 0; i < 16; i += 5) {
          out.push(f(`DHT.count${i + 1}`, at + 5 + i, 1, false, "length"));
        }
      }
    } else if (s.kind === "DRI") out.push(f("DRI.interval", at + 4, 2, false, "length"));
    return out;
  }
  if (format === "webp") {
    const out = [f(`${s.kind}.size`, at + 4, 4, true, "length")];
    if (s.kind === "VP8X") {
      out.push(f("VP8X.flags", at + 8, 1, true, "enum"));
      out.push(
        f("VP8X.width-1", at + 12, 3, true, "dim"),
        f("VP8X.height-1", at + 15, 3, true, "dim"),
      );
    } else if (s.kind === "VP8L") {
      out.push(
        f("VP8L.signature", at + 8, 1, true, "enum"),
        f("VP8L.size-bits", at + 9, 4, true, "dim"),
      );
    } else if (s.kind === "VP8 ") {
      out.push(f("VP8.frame-tag", at + 8, 3, true, "length"));
      out.push(f("VP8.width", at + 14, 2, true, "dim"), f("VP8.height", at + 16, 2, true, "dim"));
    } else if (s.kind === "ALPH") out.push(f("ALPH.header", at + 8, 1, true, "enum"));
    return out;
  }
  if (format === "gif") {
    if (s.kind === "image") {
      const lzw = at + 10 + gifTable(b[at + 9]);
      return [
        f("image.left", at + 1, 2, true, "dim"),
        f("image.top", at + 3, 2, true, "dim"),
        f("image.width", at + 5, 2, true, "dim"),
        f("image.height", at + 7, 2, true, "dim"),
        f("image.flags", at + 9, 1, true, "enum"),
        f("image.lzwMinCodeSize", lzw, 1, true, "enum"),
        f("image.firstBlockLength", lzw + 1, 1, true, "length"),
      ];
    }
    return s.kind === "extf9"
      ? [f("GCE.flags", at + 3, 1, true, "enum"), f("GCE.transparent", at + 6, 1, true, "enum")]
      : [];
  }
  return [];
}

/** The header fields of `bytes` read as `format`. */
export function fieldsOf(format: SourceFormat, bytes: Uint8Array): Field[] {
  const out: Field[] = [];
  if (format === "gif") {
    out.push(
      f("screen.width", 6, 2, true, "dim"),
      f("screen.height", 8, 2, true, "dim"),
      f("screen.flags", 10, 1, true, "enum"),
    );
  } else if (format === "webp") {
    out.push(f("RIFF.size", 4, 4, true, "length"));
  } else if (format === "bmp") {
    out.push(
      f("file.size", 2, 4, true, "length"),
      f("file.pixelOffset", 10, 4, true, "length"),
      ...dibFields(14),
    );
  } else if (format === "ico") {
    out.push(f("ICO.type", 2, 2, true, "enum"), f("ICO.count", 4, 2, true, "length"));
    const count = Math.min(bytes[4] | (bytes[5] << 8), 8);
    for (let i = 0; i < count; i++) {
      const e = 6 + 16 * i;
      out.push(
        f(`entry${i}.width`, e, 1, true, "dim"),
        f(`entry${i}.height`, e + 1, 1, true, "dim"),
        f(`entry${i}.bpp`, e + 6, 2, true, "enum"),
        f(`entry${i}.size`, e + 8, 4, true, "length"),
        f(`entry${i}.offset`, e + 12, 4, true, "length"),
      );
    }
  }
  for (const s of segmentsOf(format, bytes)) out.push(...segmentFields(format, bytes, s));
  return out.filter((field) => field.at + field.width <= bytes.length);
}
