/**
 * Content-addressed, chunked, reference-counted blobs in Deno KV: the bytes behind logo records.
 *
 * A blob is addressed by the SHA-256 of its bytes and stored as chunks of {@link CHUNK_SIZE}
 * bytes (under KV's 64 KiB value limit) plus a manifest holding its size, chunk count, reference
 * count and state. Identical bytes are stored once, however many records use them.
 *
 * Crash safety rests on three rules:
 * 1. Before its chunks are written, a new (or half-deleted) blob's manifest is committed as
 *    `pending`; the chunks follow (batched under KV's per-commit size limit). Nothing reads a blob that is not `live`,
 *    so a crash leaves invisible garbage — tracked by its manifest — never a visible half.
 * 2. A record and the manifests it references change in ONE atomic commit
 *    ({@link BlobStore.reference}), checked against the manifest versions the writer saw, so a
 *    blob turns `live` only with its chunks complete, and reference counts always equal the number
 *    of records using a blob.
 * 3. Collection starts only at zero references (or on a `pending` blob abandoned for
 *    {@link PENDING_TIMEOUT_MS}) and marks the manifest `deleting` first; every deletion batch
 *    rewrites the manifest, so a writer that re-wrote chunks of that blob meanwhile fails its check
 *    and retries rather than committing a reference to deleted chunks.
 *
 * KV layout (see `keyspace.ts`): `["blobs", hash]` → {@link BlobManifest};
 * `["blob_chunks", hash, i]` → bytes.
 *
 * @module
 */
import {
  BLOB_MANIFESTS_PREFIX,
  blobChunkKey,
  blobChunksPrefix,
  blobManifestKey,
} from "./keyspace.ts";

/** Bytes per chunk: 60 KiB, safely under Deno KV's 64 KiB value limit. */
export const CHUNK_SIZE = 60 * 1024;
/** Bytes of chunks per commit: well under Deno KV's 800 KiB total mutation size per commit. */
const BATCH_BYTES = 10 * CHUNK_SIZE;
/** A `pending` blob this old was abandoned by a crashed writer: `sweep` may collect it. */
export const PENDING_TIMEOUT_MS = 10 * 60 * 1000;

/** What KV keeps about a blob besides its chunks. */
export interface BlobManifest {
  /** Length in bytes. */
  size: number;
  /** Number of chunks: ceil(size / CHUNK_SIZE), at least 1. */
  chunks: number;
  /** Number of records that reference the blob. */
  refs: number;
  /**
   * `pending`: chunks being written, not referenced; `live`: complete, may be referenced;
   * `deleting`: unreferenced, chunks being deleted.
   */
  state: "pending" | "live" | "deleting";
  /** When the blob last turned `pending` (epoch ms). */
  since?: number;
}

/** One blob to reference from a record commit: its address and its bytes (written if missing). */
export interface BlobWrite {
  /** SHA-256 hex of `bytes`. */
  hash: string;
  /** The content. */
  bytes: Uint8Array;
}

/** Prepared blob side of a record commit; see {@link BlobStore.reference}. */
export interface BlobReferences {
  /** Adds the manifest checks and reference-count changes to the record's atomic operation. */
  apply(op: Deno.AtomicOperation): void;
  /** Blobs left at zero references once the commit succeeds: pass them to `collect`. */
  orphaned: string[];
}

/** Options of the {@link BlobStore} constructor. */
export interface BlobStoreOptions {
  /** Epoch-ms clock for `pending` timestamps; default `Date.now`. */
  clock?: () => number;
}

function chunkCount(size: number): number {
  return Math.max(1, Math.ceil(size / CHUNK_SIZE));
}

/** Reference-counted chunked blobs; see the module documentation. */
export class BlobStore {
  readonly #kv: Deno.Kv;
  readonly #clock: () => number;

  /** Wraps `kv`. */
  constructor(kv: Deno.Kv, options: BlobStoreOptions = {}) {
    this.#kv = kv;
    this.#clock = options.clock ?? Date.now;
  }

  /**
   * Reassembles a blob. Returns `null` when it is not live or not complete (which no referenced
   * blob ever is).
   */
  async read(hash: string): Promise<Uint8Array | null> {
    const [manifest, chunks] = await Promise.all([
      this.#kv.get<BlobManifest>(blobManifestKey(hash)),
      Array.fromAsync(this.#kv.list<Uint8Array>({ prefix: blobChunksPrefix(hash) })),
    ]);
    const m = manifest.value;
    if (m === null || m.state !== "live" || chunks.length !== m.chunks) return null;
    if (chunks.length === 1) {
      // One chunk is the blob: KV hands each value over in a buffer of its own, so it is returned
      // as it is, where a copy left the chunk as garbage (bench/results/2026-12-02-lookup-garbage.md).
      const [only] = chunks;
      const whole = only.key[2] === 0 && only.value instanceof Uint8Array &&
        only.value.length === m.size;
      return whole ? only.value : null;
    }
    const out = new Uint8Array(m.size);
    let offset = 0;
    for (const [i, entry] of chunks.entries()) {
      if (entry.key[2] !== i || offset + entry.value.length > m.size) return null;
      out.set(entry.value, offset);
      offset += entry.value.length;
    }
    return offset === m.size ? out : null;
  }

  /** The manifest of a blob, with its versionstamp. */
  manifest(hash: string): Promise<Deno.KvEntryMaybe<BlobManifest>> {
    return this.#kv.get<BlobManifest>(blobManifestKey(hash));
  }

  /** Writes a blob's chunks (idempotent: same address, same bytes) in commits under KV's limits. */
  async #writeChunks(hash: string, bytes: Uint8Array): Promise<void> {
    const count = chunkCount(bytes.length);
    let op = this.#kv.atomic();
    let pending = 0;
    for (let i = 0; i < count; i++) {
      const chunk = bytes.subarray(i * CHUNK_SIZE, Math.min(bytes.length, (i + 1) * CHUNK_SIZE));
      // A copy, so KV stores this chunk and not the whole underlying buffer.
      op.set(blobChunkKey(hash, i), chunk.slice());
      pending += chunk.length;
      if (pending + CHUNK_SIZE > BATCH_BYTES || i === count - 1) {
        await op.commit();
        op = this.#kv.atomic();
        pending = 0;
      }
    }
  }

  /**
   * Prepares the blob side of a record commit: makes every `added` blob complete (a blob that is
   * not live is marked `pending`, then its chunks are written) and reads the manifests of the
   * `removed` ones. Add the result to the atomic operation that writes the record with `apply`,
   * then commit; on a failed commit, start over from `reference`. Resolves to `null` when another
   * writer changed one of these blobs meanwhile: start over too.
   */
  async reference(
    added: readonly BlobWrite[],
    removed: readonly string[],
  ): Promise<BlobReferences | null> {
    const keys = [...added.map((b) => blobManifestKey(b.hash)), ...removed.map(blobManifestKey)];
    const entries = keys.length === 0
      ? []
      : await this.#kv.getMany<BlobManifest[]>(keys, { consistency: "strong" });
    const removedEntries = entries.slice(added.length);
    /** What the record commit checks for each added blob, and its reference count before. */
    const checks: { key: Deno.KvKey; versionstamp: string | null; refs: number }[] = [];
    for (const [i, entry] of entries.slice(0, added.length).entries()) {
      const { hash, bytes } = added[i];
      if (entry.value?.state === "live") {
        checks.push({ key: entry.key, versionstamp: entry.versionstamp, refs: entry.value.refs });
        continue;
      }
      if (entry.value?.state === "pending") {
        // Another writer (or a crashed one) is storing the same bytes: write them too, without
        // taking the blob over, and let whichever record commit comes first make it live.
        await this.#writeChunks(hash, bytes);
        checks.push({ key: entry.key, versionstamp: entry.versionstamp, refs: 0 });
        continue;
      }
      const pending: BlobManifest = {
        size: bytes.length,
        chunks: chunkCount(bytes.length),
        refs: 0,
        state: "pending",
        since: this.#clock(),
      };
      const marked = await this.#kv.atomic().check(entry).set(entry.key, pending).commit();
      if (!marked.ok) return null;
      await this.#writeChunks(hash, bytes);
      checks.push({ key: entry.key, versionstamp: marked.versionstamp, refs: 0 });
    }
    const orphaned: string[] = [];
    for (const entry of removedEntries) {
      if (entry.value !== null && entry.value.refs <= 1) orphaned.push(entry.key[1] as string);
    }
    return {
      orphaned,
      apply(op) {
        for (const [i, check] of checks.entries()) {
          const size = added[i].bytes.length;
          op.check(check).set(
            check.key,
            {
              size,
              chunks: chunkCount(size),
              refs: check.refs + 1,
              state: "live",
            } satisfies BlobManifest,
          );
        }
        for (const entry of removedEntries) {
          op.check(entry);
          if (entry.value !== null) {
            op.set(entry.key, { ...entry.value, refs: Math.max(0, entry.value.refs - 1) });
          }
        }
      },
    };
  }

  /**
   * Deletes a blob nobody references: `live` at zero references, half `deleting`, or — with
   * `abandonedPending` — `pending` for longer than {@link PENDING_TIMEOUT_MS}. A no-op otherwise.
   * Safe against a concurrent writer of the same bytes (rule 3 of the module documentation).
   * Returns whether the blob is gone.
   */
  async collect(hash: string, options: { abandonedPending?: boolean } = {}): Promise<boolean> {
    outer: for (;;) {
      const entry = await this.manifest(hash);
      const m = entry.value;
      if (m === null) return true;
      if (m.state === "live" && m.refs > 0) return false;
      if (m.state === "pending") {
        const abandoned = this.#clock() - (m.since ?? 0) >= PENDING_TIMEOUT_MS;
        if (!options.abandonedPending || !abandoned) return false;
      }
      const deleting: BlobManifest = { size: m.size, chunks: m.chunks, refs: 0, state: "deleting" };
      let current = await this.#kv.atomic().check(entry).set(entry.key, deleting).commit();
      if (!current.ok) continue;
      const chunkKeys: Deno.KvKey[] = [];
      for await (const chunk of this.#kv.list({ prefix: blobChunksPrefix(hash) })) {
        chunkKeys.push(chunk.key);
      }
      for (let i = 0; i < chunkKeys.length; i += 10) {
        // Each batch rewrites the manifest: a concurrent writer's commit then fails its check.
        const op = this.#kv.atomic()
          .check({ key: entry.key, versionstamp: current.versionstamp })
          .set(entry.key, deleting);
        for (const key of chunkKeys.slice(i, i + 10)) op.delete(key);
        const result = await op.commit();
        if (!result.ok) continue outer;
        current = result;
      }
      const done = await this.#kv.atomic()
        .check({ key: entry.key, versionstamp: current.versionstamp })
        .delete(entry.key)
        .commit();
      if (done.ok) return true;
    }
  }

  /**
   * Collects every unreferenced blob: left at zero references, half deleted by a crash, or
   * abandoned `pending` by a crashed writer. Returns how many were deleted.
   */
  async sweep(): Promise<number> {
    let count = 0;
    for await (const entry of this.#kv.list<BlobManifest>({ prefix: BLOB_MANIFESTS_PREFIX })) {
      if (entry.value.state === "live" && entry.value.refs > 0) continue;
      if (await this.collect(entry.key[1] as string, { abandonedPending: true })) count++;
    }
    return count;
  }
}
