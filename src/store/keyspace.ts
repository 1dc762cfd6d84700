/**
 * The Deno KV keyspace: every key the service reads or writes is built here, and nowhere else.
 *
 * The layout is on disk in every existing store, so it never changes silently: each key shape is
 * pinned by `test/store/keyspace_test.ts`. A new record gets a new prefix here, a row in this table
 * and a line in that test. Modules are named by their path under `src/`.
 *
 * | Key | Value | Written by | Read by | Expiry |
 * | --- | --- | --- | --- | --- |
 * | `["keys", id]` | `ApiKey` | `store/key_store.ts` (create, revoke, attribution) | `store/key_store.ts`, `store/store_meta.ts` (is it empty?) | never |
 * | `["key_by_pk", sha256(pk)]` | key id | `store/key_store.ts` (create; deleted on revoke) | `store/key_store.ts` (`byPublishableKey`) | never |
 * | `["key_by_sk", sha256(sk)]` | key id | `store/key_store.ts` (create; deleted on revoke) | `store/key_store.ts` (`bySecretKey`) | never |
 * | `["logos", domain]` | `LogoRecord`, with the `default` rendition's bytes inside when they fit (`store/inline_rendition.ts`) | `store/logo_store.ts` (put, remove), `store/logo_restore.ts` | `store/logo_store.ts`, `store/store_meta.ts` | never |
 * | `["wordmarks", domain]` | `LogoRecord` of the domain's wordmark (`type=logo`), laid out like an icon's | `store/logo_store.ts` (put, remove with `type: "logo"`), `store/logo_restore.ts` | `store/logo_store.ts` | never |
 * | `["blobs", sha256]` | `BlobManifest` of a rendition not inside its record (`source`, a recipe-1 `mid`, a `default` too large) | `store/blob_store.ts` | `store/blob_store.ts` | never (collected at zero references) |
 * | `["blob_chunks", sha256, i]` | bytes (at most 60 KiB) | `store/blob_store.ts` | `store/blob_store.ts` | never (collected with the blob) |
 * | `["rate_limit", keyId, windowSeconds, windowIndex]` | quota handed out in that window (number) | `quota_lease.ts` for `rate_limiter.ts` | `quota_lease.ts` | one window length after the window ends |
 * | `["discovery", "found", domain]` | `FoundEntry` | `discovery/found_memory.ts` | `discovery/found_memory.ts` | never (the refresh sweep deletes it once the logo is no longer discovery's) |
 * | `["discovery", "missing", domain]` | `MissingEntry` | `discovery/failure_memory.ts` (deleted by `discovery/found_memory.ts`) | `discovery/failure_memory.ts` | `negativeTtlMs` (a day), or the retry delay if longer |
 * | `["discovery", "wordmark", domain]` | `WordmarkEntry`: the wordmark discovery stored (its hash), or that it found none and until when | `discovery/wordmark_memory.ts` | `discovery/wordmark_memory.ts` | never (the refresh sweep deletes it once the wordmark is no longer discovery's) |
 * | `["changes", "logos"]` | how many logo writes were committed (`Deno.KvU64`, summed) | `store/logo_changes.ts`, in the commit of every logo write | `store/logo_change_feed.ts` (once a second per process) | never |
 * | `["changes", "log", ms, domain]` | `true`: `domain`'s icon or wordmark was written at about `ms` (the writer's clock) | `store/logo_changes.ts`, in the same commit | `store/logo_change_feed.ts` | 10 minutes |
 * | `["meta", "demo"]` | the demo key and domains | `seed.ts` | `seed.ts` | never |
 * | `["meta", "initialized"]` | `InitializedMarker` | `seed.ts`, `store/store_meta.ts` | `store/store_meta.ts`, `readiness.ts` | never |
 * | `["meta", "import"]` | `ImportMarker` (an archive import under way or interrupted) | `store/archive_import.ts` | `store/archive_import.ts` | deleted when the import finishes |
 *
 * A prefix alone (`["keys"]`, `["logos"]`, `["wordmarks"]`, `["blobs"]`, `["blob_chunks", sha256]`,
 * `["discovery", "found"]`, `["discovery", "wordmark"]`) is used with `kv.list`.
 *
 * A domain's icon (`type=icon`) is at `["logos", domain]`, as it was before wordmarks existed, so
 * stores need no migration; its wordmark (`type=logo`) has a prefix of its own rather than a
 * longer key under `["logos"]`, so a `kv.list` of `["logos"]` (and any older version of this code)
 * sees icons only. {@link logoRecordKey} and {@link logoRecordsPrefix} pick one by type.
 *
 * @example
 * ```ts
 * import { logoKey, LOGOS_PREFIX } from "./keyspace.ts";
 * const kv = await Deno.openKv(":memory:");
 * await kv.get(logoKey("example.com")); // ["logos", "example.com"]
 * for await (const entry of kv.list({ prefix: LOGOS_PREFIX })) console.log(entry.key);
 * kv.close();
 * ```
 * @module
 */

/** The first part of every key, by record; see the module doc for the full layout. */
export const PREFIX = Object.freeze(
  {
    apiKey: "keys",
    publishableIndex: "key_by_pk",
    secretIndex: "key_by_sk",
    logo: "logos",
    wordmark: "wordmarks",
    blobManifest: "blobs",
    blobChunk: "blob_chunks",
    rateLimit: "rate_limit",
    discovery: "discovery",
    meta: "meta",
    changes: "changes",
  } as const,
);

/** `["keys"]`: every API key record, for `kv.list`. */
export const API_KEYS_PREFIX: Deno.KvKey = Object.freeze([PREFIX.apiKey]);

/** `["keys", id]`: the API key record with id `id`. */
export function apiKeyKey(id: string): Deno.KvKey {
  return [PREFIX.apiKey, id];
}

/** `["key_by_pk", sha256Hex]`: the id of the key whose publishable token hashes to `sha256Hex`. */
export function publishableIndexKey(sha256Hex: string): Deno.KvKey {
  return [PREFIX.publishableIndex, sha256Hex];
}

/** `["key_by_sk", sha256Hex]`: the id of the key whose secret token hashes to `sha256Hex`. */
export function secretIndexKey(sha256Hex: string): Deno.KvKey {
  return [PREFIX.secretIndex, sha256Hex];
}

/** `["logos"]`: every logo record, for `kv.list`. */
export const LOGOS_PREFIX: Deno.KvKey = Object.freeze([PREFIX.logo]);

/** `["logos", domain]`: the logo record of `domain`. */
export function logoKey(domain: string): Deno.KvKey {
  return [PREFIX.logo, domain];
}

/** `["wordmarks"]`: every wordmark record, for `kv.list`. */
export const WORDMARKS_PREFIX: Deno.KvKey = Object.freeze([PREFIX.wordmark]);

/** `["wordmarks", domain]`: the wordmark record (`type=logo`) of `domain`. */
export function wordmarkKey(domain: string): Deno.KvKey {
  return [PREFIX.wordmark, domain];
}

/**
 * The record key of `domain`'s image of type `type`: {@link logoKey} for `icon`,
 * {@link wordmarkKey} for `logo`.
 */
export function logoRecordKey(type: "icon" | "logo", domain: string): Deno.KvKey {
  return type === "logo" ? wordmarkKey(domain) : logoKey(domain);
}

/** Every record of type `type`, for `kv.list`: {@link LOGOS_PREFIX} or {@link WORDMARKS_PREFIX}. */
export function logoRecordsPrefix(type: "icon" | "logo"): Deno.KvKey {
  return type === "logo" ? WORDMARKS_PREFIX : LOGOS_PREFIX;
}

/** `["blobs"]`: every blob manifest, for `kv.list`. */
export const BLOB_MANIFESTS_PREFIX: Deno.KvKey = Object.freeze([PREFIX.blobManifest]);

/** `["blobs", hash]`: the manifest of the blob whose SHA-256 hex is `hash`. */
export function blobManifestKey(hash: string): Deno.KvKey {
  return [PREFIX.blobManifest, hash];
}

/** `["blob_chunks", hash]`: the prefix of a blob's chunks, for `kv.list`. */
export function blobChunksPrefix(hash: string): Deno.KvKey {
  return [PREFIX.blobChunk, hash];
}

/** `["blob_chunks", hash, index]`: chunk `index` (from 0) of a blob. */
export function blobChunkKey(hash: string, index: number): Deno.KvKey {
  return [PREFIX.blobChunk, hash, index];
}

/**
 * `["rate_limit", keyId, windowSeconds, windowIndex]`: the quota handed out to instances in window
 * `windowIndex` (epoch-aligned, `windowSeconds` long) of API key `keyId`.
 */
export function rateLimitKey(
  keyId: string,
  windowSeconds: number,
  windowIndex: number,
): Deno.KvKey {
  return [PREFIX.rateLimit, keyId, windowSeconds, windowIndex];
}

/** `["discovery", "found"]`: every discovery-found record, for `kv.list`. */
export const DISCOVERY_FOUND_PREFIX: Deno.KvKey = Object.freeze([PREFIX.discovery, "found"]);

/** `["discovery", "found", domain]`: the last discovery that found the stored logo of `domain`. */
export function discoveryFoundKey(domain: string): Deno.KvKey {
  return [PREFIX.discovery, "found", domain];
}

/** `["discovery", "wordmark"]`: every wordmark discovery record, for `kv.list`. */
export const DISCOVERY_WORDMARK_PREFIX: Deno.KvKey = Object.freeze([PREFIX.discovery, "wordmark"]);

/**
 * `["discovery", "wordmark", domain]`: the last discovery that looked for the wordmark of `domain`
 * (what it stored, or that it found none).
 */
export function discoveryWordmarkKey(domain: string): Deno.KvKey {
  return [PREFIX.discovery, "wordmark", domain];
}

/** `["discovery", "missing", domain]`: discovery found no logo for `domain`, and until when. */
export function discoveryMissingKey(domain: string): Deno.KvKey {
  return [PREFIX.discovery, "missing", domain];
}

/** `["meta", "demo"]`: the demo key and domains created by the first-run seeding. */
export const DEMO_KEY: Deno.KvKey = Object.freeze([PREFIX.meta, "demo"]);

/** `["meta", "initialized"]`: present once the store has held data (see `store_meta.ts`). */
export const INITIALIZED_KEY: Deno.KvKey = Object.freeze([PREFIX.meta, "initialized"]);

/** `["meta", "import"]`: an archive import under way, or interrupted (see `archive_import.ts`). */
export const IMPORT_KEY: Deno.KvKey = Object.freeze([PREFIX.meta, "import"]);

/** `["changes", "logos"]`: the count of logo writes ever committed, bumped by each (`logo_changes.ts`). */
export const LOGO_CHANGE_COUNT_KEY: Deno.KvKey = Object.freeze([PREFIX.changes, "logos"]);

/** `["changes", "log"]`: every entry of the logo change log, for `kv.list`. */
export const LOGO_CHANGE_LOG_PREFIX: Deno.KvKey = Object.freeze([PREFIX.changes, "log"]);

/** `["changes", "log", ms, domain]`: `domain`'s logo was written at about epoch-ms `ms`. */
export function logoChangeKey(ms: number, domain: string): Deno.KvKey {
  return [PREFIX.changes, "log", ms, domain];
}
