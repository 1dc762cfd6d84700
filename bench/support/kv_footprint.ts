/**
 * What a store holds, by kind, measured two ways for the store-growth benchmark:
 *
 * - {@link kvFootprint} walks the keyspace of `src/store/keyspace.ts` through `Deno.Kv` (so it
 *   works on a local file and on a denokv server alike) and adds up the bytes of each entry's key
 *   and value as KV encodes them: keys in KV's tuple encoding, `Uint8Array` values as their bytes,
 *   other values as V8-serialised (what KV stores). Blob chunks and manifests are attributed to
 *   the rendition (`default`, `mid`, `source`) of the record that uses them.
 * - {@link sqliteFileSize} checkpoints a SQLite store file (Deno's local KV, or the file a denokv
 *   server keeps) that no process has open and measures the file, WAL and page counts.
 *
 * @example
 * ```ts
 * import { kvFootprint } from "./kv_footprint.ts";
 * const kv = await Deno.openKv(":memory:");
 * const footprint = await kvFootprint(kv);
 * console.log(footprint.logos, footprint.kinds);
 * ```
 * @module
 */
import { serialize } from "node:v8";
import { DatabaseSync } from "node:sqlite";
import {
  BLOB_MANIFESTS_PREFIX,
  blobChunksPrefix,
  LOGOS_PREFIX,
  PREFIX,
} from "../../src/store/keyspace.ts";
import type { LogoRecord } from "../../src/store/logo_store.ts";

/** Bytes of one kind of entry. */
export interface KindBytes {
  /** Entries. */
  entries: number;
  /** Bytes of their encoded keys. */
  keyBytes: number;
  /** Bytes of their encoded values. */
  valueBytes: number;
}

/** What {@link kvFootprint} found. */
export interface KvFootprint {
  /** Logo records. */
  logos: number;
  /**
   * Bytes by kind: `record` (the logo records, without rendition bytes held inside them),
   * `inline:NAME` (the bytes of rendition NAME held inside records: `src/store/inline_rendition.ts`;
   * no entries of their own), `blob:NAME` (chunks and manifests of rendition NAME), `other` (keys,
   * meta, rate-limit windows, unreferenced blobs…).
   */
  kinds: Record<string, KindBytes>;
  /** All entries together. */
  total: KindBytes;
}

const encoder = new TextEncoder();

/** Encoded size of a string or byte part: tag, bytes (each 0x00 escaped as 2 bytes), end byte. */
function escapedSize(bytes: Uint8Array): number {
  let zeros = 0;
  for (const byte of bytes) if (byte === 0) zeros++;
  return 2 + bytes.length + zeros;
}

/** Bytes of `key` in Deno KV's tuple encoding (as stored in its SQLite `kv.k` column). */
export function encodedKeySize(key: Deno.KvKey): number {
  let size = 0;
  for (const part of key) {
    if (typeof part === "string") size += escapedSize(encoder.encode(part));
    else if (part instanceof Uint8Array) size += escapedSize(part);
    else if (typeof part === "number") size += 9;
    else if (typeof part === "boolean") size += 1;
    else size += 2 + Math.ceil(part.toString(16).length / 2); // bigint: tag, length, bytes
  }
  return size;
}

/** Bytes of `value` as Deno KV stores it. */
export function encodedValueSize(value: unknown): number {
  if (value instanceof Uint8Array) return value.length;
  if (value instanceof Deno.KvU64) return 8;
  return serialize(value).length;
}

function add(kinds: Record<string, KindBytes>, kind: string, entry: Deno.KvEntry<unknown>): void {
  const bytes = kinds[kind] ??= { entries: 0, keyBytes: 0, valueBytes: 0 };
  bytes.entries++;
  bytes.keyBytes += encodedKeySize(entry.key);
  bytes.valueBytes += encodedValueSize(entry.value);
}

/** Walks the whole keyspace of `kv` and adds up its bytes by kind (see {@link KvFootprint}). */
export async function kvFootprint(kv: Deno.Kv): Promise<KvFootprint> {
  const kinds: Record<string, KindBytes> = {};
  /** Which rendition each blob holds, from the records that use it. */
  const renditionOf = new Map<string, string>();
  let logos = 0;
  for await (const entry of kv.list<LogoRecord>({ prefix: LOGOS_PREFIX }, { batchSize: 500 })) {
    logos++;
    add(kinds, "record", entry);
    for (const [name, rendition] of Object.entries(entry.value.renditions)) {
      if (rendition.data !== undefined) {
        // Held inside the record: its bytes move from `record` to `inline:NAME`.
        const inline = kinds[`inline:${name}`] ??= { entries: 0, keyBytes: 0, valueBytes: 0 };
        inline.valueBytes += rendition.data.byteLength;
        kinds.record.valueBytes -= rendition.data.byteLength;
      } else if (!renditionOf.has(rendition.hash)) {
        renditionOf.set(rendition.hash, name);
      }
    }
  }
  const seenBlobs = new Set<string>();
  for await (const entry of kv.list({ prefix: BLOB_MANIFESTS_PREFIX }, { batchSize: 500 })) {
    const hash = entry.key[1] as string;
    const name = renditionOf.get(hash);
    add(kinds, name === undefined ? "other" : `blob:${name}`, entry);
    seenBlobs.add(hash);
    for await (const chunk of kv.list({ prefix: blobChunksPrefix(hash) })) {
      add(kinds, name === undefined ? "other" : `blob:${name}`, chunk);
    }
  }
  // Everything else: keys, indexes, meta, rate-limit windows, discovery memory, stray chunks.
  for (const prefix of Object.values(PREFIX)) {
    if (prefix === PREFIX.logo || prefix === PREFIX.blobManifest) continue;
    for await (const entry of kv.list({ prefix: [prefix] }, { batchSize: 500 })) {
      if (prefix === PREFIX.blobChunk && seenBlobs.has(entry.key[1] as string)) continue;
      add(kinds, "other", entry);
    }
  }
  const total: KindBytes = { entries: 0, keyBytes: 0, valueBytes: 0 };
  for (const bytes of Object.values(kinds)) {
    total.entries += bytes.entries;
    total.keyBytes += bytes.keyBytes;
    total.valueBytes += bytes.valueBytes;
  }
  return { logos, kinds, total };
}

/** A SQLite store file on disk, after a checkpoint. */
export interface SqliteFileSize {
  /** Bytes of the file, its WAL and its shared-memory file before the checkpoint. */
  beforeCheckpoint: number;
  /** Bytes of the file (and a WAL, if one is left) after `wal_checkpoint(TRUNCATE)`. */
  bytes: number;
  /** SQLite's page size. */
  pageSize: number;
  /** Pages in the file. */
  pages: number;
  /** Pages on the free list (space a `VACUUM` would give back). */
  freePages: number;
  /** Rows of the `kv` table, and the bytes of their keys and values (SQLite's own sums). */
  rows: number;
  /** Sum of `length(k)` over the `kv` table. */
  keyBytes: number;
  /** Sum of `length(v)` over the `kv` table. */
  valueBytes: number;
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
}

async function withCompanions(path: string): Promise<number> {
  return (await fileSize(path)) + (await fileSize(`${path}-wal`)) +
    (await fileSize(`${path}-shm`));
}

/**
 * Checkpoints the SQLite store at `path` (no process may have it open) and measures it. The
 * `kv` table sums come from SQLite itself, a check on {@link kvFootprint}'s encoding sizes.
 */
export async function sqliteFileSize(path: string): Promise<SqliteFileSize> {
  const beforeCheckpoint = await withCompanions(path);
  const db = new DatabaseSync(path);
  try {
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const number = (sql: string) => Number(Object.values(db.prepare(sql).get() ?? {})[0] ?? 0);
    const sums = db.prepare(
      "SELECT count(*) AS rows, coalesce(sum(length(k)), 0) AS k, coalesce(sum(length(v)), 0) AS v FROM kv",
    ).get() as { rows: number; k: number; v: number };
    return {
      beforeCheckpoint,
      bytes: await withCompanions(path) - (await fileSize(`${path}-shm`)),
      pageSize: number("PRAGMA page_size"),
      pages: number("PRAGMA page_count"),
      freePages: number("PRAGMA freelist_count"),
      rows: Number(sums.rows),
      keyBytes: Number(sums.k),
      valueBytes: Number(sums.v),
    };
  } finally {
    db.close();
  }
}
