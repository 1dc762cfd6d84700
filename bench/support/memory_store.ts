/**
 * The memory benchmark's store: N logos written through `LogoStore.put` — the store API the admin
 * CLI uses — plus one key with an unreachable rate limit. The sources are the growth benchmark's
 * first {@link BASE_LOGOS} generated logos (`growth_logos.ts`: seeded PNGs, 256–1024 px, with
 * transparency), each reused for every 1000th domain with the domain in a `tEXt` chunk; `put`'s
 * renders go through {@link taggedImaging}, which renders each base once (imagecore in an image
 * pool) and gives every rendition its own `tEXt` chunk. So every logo's renditions are distinct,
 * valid PNGs of a real logo's size — distinct content hashes, distinct cache entries, distinct
 * renders in the server — and 10,000 logos are written in about a minute instead of the import's
 * ~50 ms of CPU per logo. Built once per seed, count and store code, then kept as a file in the
 * benchmark cache (`~/.cache/logo-lookup/`): the cache name carries a hash of the files that
 * decide what a store holds (`logo_store.ts`, `blob_store.ts`, `keyspace.ts`, `logo_ingest.ts`,
 * `key_store.ts`), so a change of layout builds a fresh one.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory_store.ts";
 * const store = await memoryStore({ seed: 1, count: 1000 });
 * console.log(store.path, store.token, store.domains.length);
 * ```
 * @module
 */
import { join } from "node:path";
import { defaultCacheRoot, growthDomain, growthLogoSet } from "./growth_logos.ts";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { sha256Hex } from "../../src/store/sha256.ts";
import type { ImageWork } from "../../imagecore/image_pool.ts";
import type { RenditionsResult, TransformResult } from "../../imagecore/mod.ts";
import { crc32 } from "node:zlib";

/** A built store. */
export interface MemoryStore {
  /** The KV file (copy it before serving it: the server writes rate-limit state). */
  path: string;
  /** A publishable key of the store, limit 10⁹ a minute. */
  token: string;
  /** The domains with a logo, in order. */
  domains: string[];
  /** Milliseconds spent building now (0 when it came from the cache). */
  builtMs: number;
}

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /** Seed of the logo set. */
  seed: number;
  /** Logos. */
  count: number;
  /** Called every few hundred logos with how many are stored. */
  progress?: (done: number) => void;
}

const LAYOUT_FILES = [
  "../../src/store/logo_store.ts",
  "../../src/store/blob_store.ts",
  "../../src/store/keyspace.ts",
  "../../src/store/logo_ingest.ts",
  "../../src/store/key_store.ts",
];
/** Logos written at once (the image pool has one worker per core). */
const CONCURRENCY = 4;
/** Distinct drawings; logo `i` is drawing `i % BASE_LOGOS` with its own tag. */
export const BASE_LOGOS = 1000;
const KEYWORD = "logo-lookup-bench";
/** Where the tag goes: right after the PNG signature (8 bytes) and the IHDR chunk (25 bytes). */
const AFTER_IHDR = 33;

/** `png` with a `tEXt` chunk saying `text` right after its IHDR chunk. */
export function tagPng(png: Uint8Array, text: string): Uint8Array {
  const data = new TextEncoder().encode(`tEXt${KEYWORD}\0${text}`);
  const chunk = new Uint8Array(12 + data.length - 4);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length - 4);
  chunk.set(data, 4);
  view.setUint32(chunk.length - 4, crc32(data));
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, AFTER_IHDR));
  out.set(chunk, AFTER_IHDR);
  out.set(png.subarray(AFTER_IHDR), AFTER_IHDR + chunk.length);
  return out;
}

/** `png` without the tag {@link tagPng} put in, if it has one. */
function untagPng(png: Uint8Array): Uint8Array {
  const type = new TextDecoder().decode(png.subarray(AFTER_IHDR + 4, AFTER_IHDR + 8 + 17));
  if (type !== `tEXt${KEYWORD}`) return png;
  const length = new DataView(png.buffer, png.byteOffset).getUint32(AFTER_IHDR);
  const out = new Uint8Array(png.length - length - 12);
  out.set(png.subarray(0, AFTER_IHDR));
  out.set(png.subarray(AFTER_IHDR + length + 12), AFTER_IHDR);
  return out;
}

/**
 * An {@link ImageWork} for `LogoStore.put` that renders each untagged input once with `real`
 * and returns every result with a tag of its own, so equal drawings still store distinct bytes.
 */
export function taggedImaging(real: ImageWork): ImageWork {
  const memo = new Map<string, Promise<TransformResult>>();
  const made = new Map<string, Promise<RenditionsResult>>();
  let serial = 0;
  const keyOf = async (input: Uint8Array, width: number | undefined) =>
    `${await sha256Hex(untagPng(input))}/${width}`;
  return {
    probe: (input) => real.probe(untagPng(input)),
    async transform(input, options = {}) {
      const key = await keyOf(input, options.width);
      let result = memo.get(key);
      if (result === undefined) {
        result = real.transform(untagPng(input), options);
        memo.set(key, result);
      }
      const out = await result;
      return { ...out, bytes: tagPng(out.bytes, `rendition ${serial++}`) };
    },
    async renditions(input, options) {
      const key = `${await sha256Hex(untagPng(input))}/${JSON.stringify(options)}`;
      let result = made.get(key);
      if (result === undefined) {
        result = real.renditions(untagPng(input), options);
        made.set(key, result);
      }
      const out = await result;
      const images = out.images.map((image) => ({
        ...image,
        bytes: tagPng(image.bytes, `rendition ${serial++}`),
      }));
      return { ...out, images };
    },
  };
}

async function layoutHash(): Promise<string> {
  const texts = await Promise.all(
    LAYOUT_FILES.map((file) => Deno.readTextFile(new URL(file, import.meta.url))),
  );
  return (await sha256Hex(new TextEncoder().encode(texts.join("\0")))).slice(0, 12);
}

/** The store of `seed` and `count`, from the cache or built now. */
export async function memoryStore(options: MemoryStoreOptions): Promise<MemoryStore> {
  const { seed, count } = options;
  const name = `memory-store-seed${seed}-n${count}-${await layoutHash()}`;
  const dir = join(defaultCacheRoot(), name);
  const path = join(dir, "store.kv");
  const marker = join(dir, "complete.json");
  const domains = Array.from({ length: count }, (_, i) => growthDomain(seed, i));
  try {
    const { token } = JSON.parse(await Deno.readTextFile(marker));
    return { path, token, domains, builtMs: 0 };
  } catch {
    // not built yet (or half built): build from scratch
  }
  const started = performance.now();
  const set = await growthLogoSet({ seed, count: BASE_LOGOS });
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  const kv = await Deno.openKv(path);
  const pool = startImagePool({ size: navigator.hardwareConcurrency, maxQueue: 4 * CONCURRENCY });
  try {
    await pool.ready();
    const logos = new LogoStore(kv, { imaging: taggedImaging(pool) });
    let next = 0;
    let done = 0;
    const writer = async () => {
      for (let i = next++; i < count; i = next++) {
        const base = growthDomain(seed, i % BASE_LOGOS);
        const bytes = tagPng(await Deno.readFile(join(set.dir, `${base}.png`)), domains[i]);
        await logos.put(domains[i], bytes, { source: `file:${domains[i]}.png` });
        if (++done % 500 === 0) options.progress?.(done);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, writer));
    const { key } = await new KeyStore(kv).create({ limit: 1_000_000_000, window: 60 });
    await Deno.writeTextFile(marker, JSON.stringify({ token: key.publishableKey, count }));
    return { path, token: key.publishableKey, domains, builtMs: performance.now() - started };
  } finally {
    await pool.close();
    kv.close();
  }
}

if (import.meta.main) {
  const count = Number(Deno.args[0] ?? 10000);
  const store = await memoryStore({
    seed: 1,
    count,
    progress: (n) => console.log(`${n}/${count}`),
  });
  console.log(JSON.stringify({ ...store, domains: store.domains.length }));
}
