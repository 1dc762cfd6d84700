/**
 * A large logo store made fast, for the lookup benchmark (`bench/store_lookup_bench.ts`): importing
 * 100,000 logos through imagecore takes hours, so the store is written directly.
 *
 * How: `bases` distinct generated logos (`growth_logos.ts`, 256–1024 px sources) are rendered once
 * with the real recipe (`prepareLogo`). Logo `i` (domain `growth-SEED-i.com`) takes the renditions
 * of base `i % bases` and makes each one distinct by inserting a PNG `tEXt` chunk naming the domain
 * after the header (a valid PNG of the same size and pixels, 12 + ~40 bytes more, with its own
 * SHA-256). Logos are written many to a commit (at most {@link BATCH_BYTES} of values): each
 * record as `layOut` (`src/store/inline_rendition.ts`) makes it, and each rendition it does not
 * hold as a live blob with one reference (manifest and 60-KiB chunks, as `src/store/blob_store.ts`
 * lays them out) — the state an import leaves, without its per-logo
 * crash-safety commits (about seven per logo), which made a 100,000-logo store take most of an
 * hour on the shared machine.
 *
 * @example
 * ```ts
 * import { buildLookupStore } from "./lookup_store.ts";
 * const built = await buildLookupStore("/tmp/lookup.kv", { seed: 7, count: 1000 });
 * console.log(built.token, built.logosPerSecond);
 * ```
 * @module
 */
import { crc32 } from "node:zlib";
import { join } from "node:path";
import { growthDomain, growthLogoSet } from "./growth_logos.ts";
import { type PreparedLogo, prepareLogo } from "../../src/store/logo_ingest.ts";
import { blobChunkKey, blobManifestKey, logoKey } from "../../src/store/keyspace.ts";
import { type BlobManifest, CHUNK_SIZE } from "../../src/store/blob_store.ts";
import { layOut } from "../../src/store/inline_rendition.ts";
import type { LogoRecord, Rendition } from "../../src/store/logo_store.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { sha256Hex } from "../../src/store/sha256.ts";
import { PIPELINE_VERSION } from "../../src/store/logo_ingest.ts";

/** Options of {@link buildLookupStore}. */
export interface LookupStoreOptions {
  /** Domains are `growth-SEED-INDEX.com` (what `random_domains.lua` asks for). */
  seed: number;
  /** Logos to write. */
  count: number;
  /** Distinct base logos rendered with imagecore; default 200. */
  bases?: number;
  /** Called now and then with how many logos are written. */
  progress?: (done: number) => void;
}

/** What {@link buildLookupStore} made. */
export interface BuiltLookupStore {
  /** A publishable key with a limit no benchmark reaches. */
  token: string;
  /** Wall-clock ms spent writing the logos (not rendering the bases). */
  writeMs: number;
  /** Logos written per second. */
  logosPerSecond: number;
}

const encoder = new TextEncoder();

/** `png` with a `tEXt` chunk (`logo-lookup-bench` = `text`) inserted after its IHDR chunk. */
export function withTextChunk(png: Uint8Array, text: string): Uint8Array {
  const ihdrEnd = 8 + 4 + 4 + 13 + 4; // signature, IHDR length, type, data, CRC
  const data = encoder.encode(`logo-lookup-bench\0${text}`);
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(encoder.encode("tEXt"), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, ihdrEnd));
  out.set(chunk, ihdrEnd);
  out.set(png.subarray(ihdrEnd), ihdrEnd + chunk.length);
  return out;
}

/** The renditions of `base`, made distinct for `domain`, as a record and its bytes by hash. */
async function variantOf(
  base: PreparedLogo,
  domain: string,
  now: number,
): Promise<{ record: LogoRecord; blobs: Map<string, Uint8Array> }> {
  const renditions: Record<string, Rendition> = {};
  const blobs = new Map<string, Uint8Array>();
  for (const [name, r] of Object.entries(base.renditions)) {
    const bytes = withTextChunk(r.bytes, `${domain} ${name}`);
    const hash = await sha256Hex(bytes);
    renditions[name] = {
      hash,
      type: r.type,
      width: r.width,
      height: r.height,
      bytes: bytes.length,
    };
    blobs.set(hash, bytes);
  }
  const record: LogoRecord = {
    domain,
    hash: await sha256Hex(encoder.encode(`${base.hash} ${domain}`)),
    type: base.type,
    width: base.width,
    height: base.height,
    source: `file:${domain}.png`,
    createdAt: now,
    updatedAt: now,
    pipeline: PIPELINE_VERSION,
    renditions,
  };
  return { record, blobs };
}

/** Bytes of values per commit: under KV's 800 KiB per commit, with room for keys and records. */
const BATCH_BYTES = 512 * 1024;

/**
 * Adds a logo to `op`: its record as the current code lays it out (`inline_rendition.ts`: the
 * default's bytes inside) and its other renditions as blobs referenced once.
 */
function setLogo(
  op: Deno.AtomicOperation,
  record: LogoRecord,
  bytesByHash: Map<string, Uint8Array>,
) {
  const { stored, blobs } = layOut(record, bytesByHash);
  for (const { hash, bytes } of blobs) {
    const chunks = Math.max(1, Math.ceil(bytes.length / CHUNK_SIZE));
    for (let i = 0; i < chunks; i++) {
      op.set(blobChunkKey(hash, i), bytes.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE));
    }
    const manifest: BlobManifest = { size: bytes.length, chunks, refs: 1, state: "live" };
    op.set(blobManifestKey(hash), manifest);
  }
  op.set(logoKey(record.domain), stored);
}

async function commit(op: Deno.AtomicOperation): Promise<void> {
  if (!(await op.commit()).ok) throw new Error("Cannot build the lookup store: a commit failed");
}

/** Writes `count` logos and a key into the (new) store at `path`; see the module doc. */
export async function buildLookupStore(
  path: string,
  options: LookupStoreOptions,
): Promise<BuiltLookupStore> {
  const baseCount = options.bases ?? 200;
  const set = await growthLogoSet({ seed: 1, count: baseCount });
  const bases: PreparedLogo[] = [];
  for (let i = 0; i < baseCount; i++) {
    const png = await Deno.readFile(join(set.dir, `${growthDomain(1, i)}.png`));
    bases.push(await prepareLogo(png));
  }
  const kv = await Deno.openKv(path);
  try {
    const { key } = await new KeyStore(kv).create({ limit: 1_000_000_000, window: 60 });
    const started = performance.now();
    const now = Date.now();
    let op = kv.atomic();
    let pending = 0;
    for (let i = 0; i < options.count; i++) {
      const domain = growthDomain(options.seed, i);
      const { record, blobs } = await variantOf(bases[i % bases.length], domain, now);
      const bytes = [...blobs.values()].reduce((sum, b) => sum + b.length, 0);
      if (pending > 0 && pending + bytes > BATCH_BYTES) {
        await commit(op);
        op = kv.atomic();
        pending = 0;
      }
      setLogo(op, record, blobs);
      pending += bytes;
      if ((i + 1) % 10_000 === 0) options.progress?.(i + 1);
    }
    if (pending > 0) await commit(op);
    const writeMs = performance.now() - started;
    return {
      token: key.publishableKey,
      writeMs,
      logosPerSecond: options.count / (writeMs / 1000),
    };
  } finally {
    kv.close();
  }
}
