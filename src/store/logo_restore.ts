/**
 * Writes a logo exactly as a backup archive holds it — its record and its renditions' bytes, no
 * re-rendering — with the crash safety of `logo_store.ts`: the images are written first (invisible
 * `pending` blobs, see `blob_store.ts`), then the record and the images' reference counts change in
 * one atomic commit. A crash at any point leaves the old logo or the restored one, never a half.
 * The record is stored in the current layout (`inline_rendition.ts`: the default's bytes inside it
 * when they fit), whatever layout the archive's store had; an archive never holds inlined bytes.
 *
 * @example
 * ```ts
 * import { restoreLogo } from "./logo_restore.ts";
 * import type { LogoRecord } from "./logo_store.ts";
 * const kv = await Deno.openKv(":memory:");
 * declare const record: LogoRecord;
 * declare const blobs: Map<string, Uint8Array>;
 * await restoreLogo(kv, record, blobs, { replace: false }); // "added", "unchanged" or "conflict"
 * ```
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import { BlobStore } from "./blob_store.ts";
import { blobHashes, layOut, withoutInlineBytes } from "./inline_rendition.ts";
import { logoRecordKey } from "./keyspace.ts";
import { markLogoChanged } from "./logo_changes.ts";
import type { LogoRecord, LogoType } from "./logo_store.ts";

/** What {@link restoreLogo} did. */
export type RestoreOutcome = "added" | "replaced" | "unchanged" | "conflict";

/** Options of {@link restoreLogo}. */
export interface RestoreLogoOptions {
  /** Replace a different logo stored for the domain; else leave it and answer `conflict`. */
  replace: boolean;
  /** Which of the domain's images `record` is: its `icon` (default) or its wordmark (`logo`). */
  type?: LogoType;
  /** Epoch-ms clock for `pending` blob timestamps and the change mark; default `Date.now`. */
  clock?: () => number;
}

/** Commits retried on contention before giving up. */
const MAX_ATTEMPTS = 32;

/**
 * What restoring `record` would do to the store now, without writing: `added`, `replaced`,
 * `unchanged` or `conflict` (a different logo is stored for the domain and `replace` is off).
 */
export async function planLogoRestore(
  kv: Deno.Kv,
  record: LogoRecord,
  options: Pick<RestoreLogoOptions, "replace" | "type">,
): Promise<RestoreOutcome> {
  const key = logoRecordKey(options.type ?? "icon", record.domain);
  const old = (await kv.get<LogoRecord>(key)).value;
  if (old === null) return "added";
  if (isDeepStrictEqual(withoutInlineBytes(old), withoutInlineBytes(record))) return "unchanged";
  return options.replace ? "replaced" : "conflict";
}

/**
 * Stores `record` with the bytes of its renditions (`blobs`, by hash; checked by the caller). A
 * record equal to the stored one (bytes inlined or not) writes nothing (`unchanged`); a different
 * stored record is kept (`conflict`) unless `replace`.
 *
 * @throws {Error} when other writers keep changing the domain's logo.
 */
export async function restoreLogo(
  kv: Deno.Kv,
  record: LogoRecord,
  blobs: ReadonlyMap<string, Uint8Array>,
  options: RestoreLogoOptions,
): Promise<RestoreOutcome> {
  const store = new BlobStore(kv, { clock: options.clock });
  const plain = withoutInlineBytes(record);
  const { stored, blobs: wanted } = layOut(plain, blobs);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await kv.get<LogoRecord>(logoRecordKey(options.type ?? "icon", record.domain));
    const old = entry.value;
    if (old !== null && isDeepStrictEqual(withoutInlineBytes(old), plain)) return "unchanged";
    if (old !== null && !options.replace) return "conflict";
    const oldHashes = new Set(old === null ? [] : blobHashes(old));
    const added = wanted.filter((b) => !oldHashes.has(b.hash));
    const removed = [...oldHashes].filter((h) => !wanted.some((b) => b.hash === h));
    const refs = await store.reference(added, removed);
    if (refs === null) continue;
    const op = kv.atomic().check(entry).set(entry.key, stored);
    markLogoChanged(op, record.domain, (options.clock ?? Date.now)());
    refs.apply(op);
    if (!(await op.commit()).ok) continue;
    for (const hash of refs.orphaned) {
      // Committed: an image left unreferenced is invisible, and `logo gc` collects it if this fails.
      await store.collect(hash).catch(() => undefined);
    }
    return old === null ? "added" : "replaced";
  }
  throw new Error(
    `Cannot restore the logo of ${record.domain}: too many concurrent changes, try again`,
  );
}
