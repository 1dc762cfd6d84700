/**
 * The `default` rendition kept inside its logo record: how a record is laid out in KV.
 *
 * A default request (128 px PNG, the most common one) that is not in the server's memory used to
 * cost three KV reads — the record, the blob's manifest, its chunks — and a reassembly. Its bytes
 * now travel inside the record (`Rendition.data`), so that request costs one KV read.
 * The other renditions (`source`, and a recipe-1 record's `mid`: tens of KB, read only to render
 * other sizes) stay
 * content-addressed blobs (`blob_store.ts`).
 *
 * Rules:
 * - The default rendition is inlined when the record still fits well under KV's 64 KiB value limit
 *   ({@link INLINE_MAX_BYTES}, {@link fitsInline}); otherwise it stays a blob, as before.
 * - A record written before this layout (its default a blob although it would fit) is read as it
 *   is: {@link blobHashes} lists what it references, readers take `data` when present and the blob
 *   otherwise. The next `put` of the domain (or an archive restore that replaces it) writes the
 *   new layout ({@link isCurrentLayout}).
 * - Archives and printed records never carry `data`: {@link withoutInlineBytes} gives the public
 *   record, whose `default` is addressed by its hash like every rendition.
 *
 * @example
 * ```ts
 * import { layOut, withoutInlineBytes } from "./inline_rendition.ts";
 * import type { LogoRecord } from "./logo_record.ts";
 * declare const record: LogoRecord; // every rendition addressed by hash, no bytes
 * declare const bytes: Map<string, Uint8Array>; // the bytes of each rendition, by hash
 * const { stored, blobs } = layOut(record, bytes);
 * stored.renditions.default.data; // the default's bytes, when they fit
 * blobs.map((b) => b.hash); // the renditions kept as blobs: the source
 * withoutInlineBytes(stored); // equal to `record` again
 * ```
 * @module
 */
import type { BlobWrite } from "./blob_store.ts";
import type { LogoRecord, Rendition } from "./logo_record.ts";

/** The rendition kept inside the record. */
export const INLINE_RENDITION = "default";

/**
 * Largest serialised record (bytes inlined included) written with the default inside: 60 KiB,
 * under KV's 64 KiB value limit with room for the serialiser's framing.
 */
export const INLINE_MAX_BYTES = 60 * 1024;

/**
 * An upper bound of the serialised size of `record`'s fields besides rendition bytes: V8 writes a
 * string in one byte per Latin-1 character and two otherwise, so twice the JSON length bounds it.
 */
function metadataBound(record: LogoRecord): number {
  return 2 * JSON.stringify(withoutInlineBytes(record)).length + 256;
}

/**
 * Whether the default rendition of `record` (as described by its `bytes` field) fits inside the
 * record under {@link INLINE_MAX_BYTES}.
 */
export function fitsInline(record: LogoRecord): boolean {
  const rendition = record.renditions[INLINE_RENDITION];
  if (rendition === undefined) return false;
  return rendition.bytes + metadataBound(record) <= INLINE_MAX_BYTES;
}

/** Whether `record` is laid out as this code writes it: its default inlined unless too large. */
export function isCurrentLayout(record: LogoRecord): boolean {
  return record.renditions[INLINE_RENDITION]?.data !== undefined || !fitsInline(record);
}

/** The hashes of the blobs `record` references: every rendition not inlined, once each. */
export function blobHashes(record: LogoRecord): string[] {
  const hashes = new Set<string>();
  for (const rendition of Object.values(record.renditions)) {
    if (rendition.data === undefined) hashes.add(rendition.hash);
  }
  return [...hashes];
}

/** `record` without inlined bytes: the public record of archives and printed output. */
export function withoutInlineBytes(record: LogoRecord): LogoRecord {
  let renditions: Record<string, Rendition> | undefined;
  for (const [name, rendition] of Object.entries(record.renditions)) {
    if (rendition.data === undefined) continue;
    renditions ??= { ...record.renditions };
    const { data: _, ...rest } = rendition;
    renditions[name] = rest;
  }
  return renditions === undefined ? record : { ...record, renditions };
}

/**
 * The record to store for `record` (whose renditions are addressed by hash) and the blobs it
 * references: the default's bytes inside when {@link fitsInline}, every other rendition a blob.
 *
 * @throws {Error} when `bytes` lacks a rendition's bytes.
 */
export function layOut(
  record: LogoRecord,
  bytes: ReadonlyMap<string, Uint8Array>,
): { stored: LogoRecord; blobs: BlobWrite[] } {
  const plain = withoutInlineBytes(record);
  const bytesOf = (rendition: Rendition) => {
    const found = bytes.get(rendition.hash);
    if (found === undefined) {
      throw new Error(`Cannot store the logo of ${record.domain}: bytes of a rendition missing`);
    }
    return found;
  };
  const renditions: Record<string, Rendition> = { ...plain.renditions };
  if (fitsInline(plain)) {
    const rendition = renditions[INLINE_RENDITION];
    // A copy of exactly these bytes: KV serialises a view's whole buffer (for `renditions`, that
    // holds the source too).
    renditions[INLINE_RENDITION] = { ...rendition, data: bytesOf(rendition).slice() };
  }
  const stored = { ...plain, renditions };
  const blobs = blobHashes(stored).map((hash) => ({
    hash,
    bytes: bytesOf(Object.values(renditions).find((r) => r.hash === hash)!),
  }));
  return { stored, blobs };
}
