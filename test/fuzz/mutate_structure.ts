/**
 * Format-aware mutations: header fields (dimensions, lengths, enumerations) set to interesting
 * values; segments dropped, duplicated, swapped or spliced in from another seed of the format;
 * a PNG's decompressed scanlines mutated and recompressed (node:zlib); an ICO entry mutated as the
 * PNG or BMP it holds; a JPEG's EXIF orientation rewritten. PNG chunk CRCs are usually fixed
 * afterwards, so the mutation reaches the decoder rather than the CRC check.
 * @module
 */
import { deflateSync, inflateSync } from "node:zlib";
import type { SourceFormat } from "../../imagecore/mod.ts";
import { concat, interestingWords, mutateBytes, type Mutated, writeWord } from "./mutate_bytes.ts";
import type { Rng } from "./rng.ts";
import { dibFields, type Field, fieldsOf, segmentsOf } from "./structure.ts";
import { crc32 } from "node:zlib";

const DIMS = [
  0,
  1,
  2,
  3,
  7,
  8,
  255,
  256,
  257,
  1023,
  4096,
  4097,
  6324,
  6325,
  16383,
  16384,
  32767,
  32768,
  65535,
  65536,
  100_000,
  0x7fffffff,
  0x80000000,
  0xffffffff,
];
const ENUMS = [
  0,
  1,
  2,
  3,
  4,
  5,
  6,
  7,
  8,
  9,
  11,
  12,
  13,
  15,
  16,
  17,
  24,
  32,
  33,
  64,
  0x7f,
  0x80,
  0xff,
];

function read(bytes: Uint8Array, field: Field): number {
  let value = 0;
  for (let k = 0; k < field.width; k++) {
    value += bytes[field.at + k] * 2 ** (8 * (field.le ? k : field.width - 1 - k));
  }
  return value;
}

/** A value for `field`: a boundary, the current value nudged, or (enums) a random byte. */
function valueFor(field: Field, current: number, length: number, rng: Rng): number {
  const nudged = [
    current + 1,
    current - 1,
    current * 2,
    current ^ (1 << rng.below(8 * field.width)),
  ];
  if (rng.chance(0.25)) return rng.pick(nudged);
  if (field.kind === "dim") return rng.pick(DIMS);
  if (field.kind === "enum") return rng.chance(0.7) ? rng.pick(ENUMS) : rng.below(256);
  return rng.pick(interestingWords(length));
}

/** Writes an interesting value into one of `fields`. */
function rewriteField(input: Uint8Array, fields: Field[], rng: Rng, prefix = ""): Mutated | null {
  if (fields.length === 0) return null;
  const bytes = input.slice();
  const field = rng.pick(fields);
  const current = read(bytes, field);
  const value = Math.max(0, Math.floor(valueFor(field, current, bytes.length, rng))) % 2 ** 32;
  writeWord(bytes, field.at, value, field.width, field.le);
  return { bytes, note: `${prefix}${field.name} ${current} → ${value % 2 ** (8 * field.width)}` };
}

/** Drops, duplicates, swaps a segment, or replaces one with a donor's. */
function reshuffle(
  format: SourceFormat,
  input: Uint8Array,
  donors: Uint8Array[],
  rng: Rng,
): Mutated | null {
  const segments = segmentsOf(format, input);
  if (segments.length === 0) return null;
  const head = input.subarray(0, segments[0].start);
  const tail = input.subarray(segments[segments.length - 1].end);
  const parts = segments.map((s) => input.subarray(s.start, s.end));
  const i = rng.below(parts.length);
  const kind = segments[i].kind;
  let note: string;
  switch (rng.below(4)) {
    case 0:
      parts.splice(i, 1);
      note = `drop ${kind}`;
      break;
    case 1: {
      const times = rng.pick([1, 2, 16, 200]);
      parts.splice(i, 0, ...Array.from({ length: times }, () => parts[i]));
      note = `duplicate ${kind} ×${times}`;
      break;
    }
    case 2: {
      const j = rng.below(parts.length);
      [parts[i], parts[j]] = [parts[j], parts[i]];
      note = `swap ${kind} and ${segments[j].kind}`;
      break;
    }
    default: {
      const donor = donors.length ? rng.pick(donors) : input;
      const theirs = segmentsOf(format, donor);
      if (theirs.length === 0) return null;
      const s = rng.pick(theirs);
      parts.splice(i, rng.chance(0.5) ? 1 : 0, donor.subarray(s.start, s.end));
      note = `splice donor ${s.kind} at ${kind}`;
    }
  }
  return { bytes: concat([head, ...parts, tail]), note };
}

/** Recomputes the CRC of every chunk that lies within the file. */
export function fixPngCrcs(bytes: Uint8Array): Uint8Array {
  for (const s of segmentsOf("png", bytes)) {
    writeWord(bytes, s.end - 4, crc32(bytes.subarray(s.start + 4, s.end - 4)), 4, false);
  }
  return bytes;
}

/** Inflates the IDAT stream, mutates the scanlines, deflates them back into one IDAT. */
function mutateScanlines(input: Uint8Array, rng: Rng): Mutated | null {
  const segments = segmentsOf("png", input);
  const idats = segments.filter((s) => s.kind === "IDAT");
  if (idats.length === 0) return null;
  let raw: Uint8Array;
  try {
    raw = new Uint8Array(
      inflateSync(concat(idats.map((s) => input.subarray(s.start + 8, s.end - 4)))),
    );
  } catch {
    return null;
  }
  const inner = rng.chance(0.3)
    ? {
      bytes: raw.map((b, i) => (i % 97 === 0 ? rng.between(5, 255) : b)),
      note: "bad filter bytes",
    }
    : mutateBytes(raw, rng);
  const data = new Uint8Array(deflateSync(inner.bytes));
  const chunk = new Uint8Array(12 + data.length);
  writeWord(chunk, 0, data.length, 4, false);
  chunk.set([0x49, 0x44, 0x41, 0x54], 4);
  chunk.set(data, 8);
  const first = idats[0];
  const rest = segments.filter((s) => s.kind !== "IDAT" && s.start > first.start);
  const bytes = concat([
    input.subarray(0, first.start),
    chunk,
    ...rest.map((s) => input.subarray(s.start, s.end)),
  ]);
  return { bytes, note: `scanlines: ${inner.note}` };
}

/** Mutates one ICO entry as the PNG or BMP (DIB) it holds, then repacks the directory. */
function mutateIcoEntry(input: Uint8Array, rng: Rng): Mutated | null {
  const count = input[4] | (input[5] << 8);
  const entries: { dir: Uint8Array; data: Uint8Array }[] = [];
  for (let i = 0; i < count && 6 + 16 * (i + 1) <= input.length; i++) {
    const dir = input.subarray(6 + 16 * i, 6 + 16 * (i + 1));
    const view = new DataView(dir.buffer, dir.byteOffset, 16);
    const [size, offset] = [view.getUint32(8, true), view.getUint32(12, true)];
    if (offset + size > input.length) return null;
    entries.push({ dir: dir.slice(), data: input.subarray(offset, offset + size) });
  }
  if (entries.length === 0) return null;
  const i = rng.below(entries.length);
  const isPng = entries[i].data[0] === 0x89;
  const inner = isPng ? mutateStructure("png", entries[i].data, [], rng) : rewriteField(
    entries[i].data,
    dibFields(0).filter((f) => f.at + f.width <= entries[i].data.length),
    rng,
    "DIB ",
  ) ??
    mutateBytes(entries[i].data, rng);
  entries[i].data = inner.bytes;
  let offset = 6 + 16 * entries.length;
  for (const e of entries) {
    writeWord(e.dir, 8, e.data.length, 4, true);
    writeWord(e.dir, 12, offset, 4, true);
    offset += e.data.length;
  }
  const header = input.slice(0, 6);
  writeWord(header, 4, entries.length, 2, true);
  return {
    bytes: concat([header, ...entries.map((e) => e.dir), ...entries.map((e) => e.data)]),
    note: `entry ${i}: ${inner.note}`,
  };
}

/** Sets the EXIF orientation value (tag 0x0112, either byte order) to 0–9 or 255. */
function rewriteOrientation(input: Uint8Array, rng: Rng): Mutated | null {
  for (let at = 0; at + 10 < input.length; at++) {
    const le = input[at] === 0x12 && input[at + 1] === 0x01 && input[at + 2] === 3;
    const be = input[at] === 0x01 && input[at + 1] === 0x12 && input[at + 3] === 3;
    if (le || be) {
      const bytes = input.slice();
      const value = rng.pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 255]);
      writeWord(bytes, at + 8, value, 2, le);
      return { bytes, note: `EXIF orientation = ${value}` };
    }
  }
  return null;
}

/** One format-aware mutation of `input` (a `format` file); falls back to a byte mutation. */
export function mutateStructure(
  format: SourceFormat,
  input: Uint8Array,
  donors: Uint8Array[],
  rng: Rng,
): Mutated {
  const choice = rng.below(10);
  let out: Mutated | null = null;
  if (format === "ico" && choice < 4) out = mutateIcoEntry(input, rng);
  else if (format === "png" && choice < 2) out = mutateScanlines(input, rng);
  else if (format === "jpeg" && choice < 1) out = rewriteOrientation(input, rng);
  else if (choice < 6) out = rewriteField(input, fieldsOf(format, input), rng);
  else out = reshuffle(format, input, donors, rng);
  out ??= mutateBytes(input, rng);
  if (format === "png" && rng.chance(0.8)) out.bytes = fixPngCrcs(out.bytes);
  return out;
}
