/**
 * Format-blind byte mutations: bit flips, interesting bytes and words, truncation, duplicated,
 * deleted and zeroed ranges. Offsets lean towards the first 64 bytes, where headers live.
 * @module
 */
import type { Rng } from "./rng.ts";

/** A mutation's result: the new bytes and a short description for the report. */
export interface Mutated {
  /** Mutated bytes (a new array). */
  bytes: Uint8Array;
  /** What was done, e.g. "flip 3 bits @12,40,41". */
  note: string;
}

/** Bytes the fuzzer writes: zero, one, the sign boundaries and all ones. */
export const INTERESTING_8 = [0, 1, 0x7f, 0x80, 0xff] as const;

/** Sizes a decoder may trust: zero, tiny, sign and width boundaries. */
export function interestingWords(length: number): number[] {
  return [
    0,
    1,
    2,
    0x7f,
    0x80,
    0xff,
    0x100,
    0x7fff,
    0x8000,
    0xffff,
    0x10000,
    0x7fffffff,
    0x80000000,
    0xffffffff,
    length,
    length - 1,
    length + 1,
    length * 2,
  ];
}

/** A position in `bytes`, half the time within the first 64 bytes. */
export function offsetIn(rng: Rng, length: number): number {
  if (length === 0) return 0;
  return rng.chance(0.5) ? rng.below(Math.min(64, length)) : rng.below(length);
}

/** Writes `value` as a `width`-byte integer at `at`, either byte order, clipped to the end. */
export function writeWord(
  bytes: Uint8Array,
  at: number,
  value: number,
  width: number,
  le: boolean,
) {
  for (let k = 0; k < width && at + k < bytes.length; k++) {
    const shift = 8 * (le ? k : width - 1 - k);
    bytes[at + k] = Math.floor(value / 2 ** shift) & 0xff;
  }
}

function flipBits(input: Uint8Array, rng: Rng): Mutated {
  const bytes = input.slice();
  const at: number[] = [];
  for (let n = rng.between(1, 4); n > 0; n--) {
    const i = offsetIn(rng, bytes.length);
    bytes[i] ^= 1 << rng.below(8);
    at.push(i);
  }
  return { bytes, note: `flip bits @${at.join(",")}` };
}

function setByte(input: Uint8Array, rng: Rng): Mutated {
  const bytes = input.slice();
  const at = offsetIn(rng, bytes.length);
  const value = rng.pick(INTERESTING_8);
  bytes[at] = value;
  return { bytes, note: `byte @${at} = 0x${value.toString(16)}` };
}

function setWord(input: Uint8Array, rng: Rng): Mutated {
  const bytes = input.slice();
  const at = offsetIn(rng, bytes.length);
  const width = rng.chance(0.5) ? 2 : 4;
  const le = rng.chance(0.5);
  const value = rng.pick(interestingWords(bytes.length));
  writeWord(bytes, at, value, width, le);
  return { bytes, note: `u${width * 8}${le ? "le" : "be"} @${at} = ${value}` };
}

function truncate(input: Uint8Array, rng: Rng): Mutated {
  const keep = rng.chance(0.5) ? rng.below(input.length) : input.length - 1 - rng.below(16);
  const length = Math.max(0, keep);
  return { bytes: input.slice(0, length), note: `truncate to ${length}` };
}

function range(rng: Rng, length: number): [number, number] {
  const start = offsetIn(rng, length);
  return [start, Math.min(length, start + 1 + rng.below(rng.chance(0.7) ? 16 : 512))];
}

function duplicate(input: Uint8Array, rng: Rng): Mutated {
  const [a, b] = range(rng, input.length);
  const at = rng.below(input.length + 1);
  const times = rng.pick([1, 2, 8, 64]);
  const copies = Array.from({ length: times }, () => input.subarray(a, b));
  const bytes = concat([input.subarray(0, at), ...copies, input.subarray(at)]);
  return { bytes, note: `duplicate [${a},${b}) ×${times} @${at}` };
}

function remove(input: Uint8Array, rng: Rng): Mutated {
  const [a, b] = range(rng, input.length);
  return { bytes: concat([input.subarray(0, a), input.subarray(b)]), note: `delete [${a},${b})` };
}

function fill(input: Uint8Array, rng: Rng): Mutated {
  const bytes = input.slice();
  const [a, b] = range(rng, input.length);
  const value = rng.pick(INTERESTING_8);
  bytes.fill(value, a, b);
  return { bytes, note: `fill [${a},${b}) with 0x${value.toString(16)}` };
}

/** Joins byte arrays. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const BYTE_MUTATIONS = [flipBits, setByte, setWord, truncate, duplicate, remove, fill];

/** Applies one format-blind mutation chosen by `rng`. */
export function mutateBytes(input: Uint8Array, rng: Rng): Mutated {
  if (input.length === 0) return { bytes: new Uint8Array([rng.below(256)]), note: "one byte" };
  return rng.pick(BYTE_MUTATIONS)(input, rng);
}
