/**
 * Writes a backup archive of a store (format: `archive_format.ts`): every API key, then every logo
 * (the icons, then the wordmarks, each line saying which) with the bytes of its renditions, gzip-compressed by the platform's `CompressionStream`. One logo
 * is held at a time, so memory stays bounded whatever the store's size.
 *
 * What an export of a store being served guarantees: each key and each logo in the archive is one
 * that was in the store, whole — a logo's record together with exactly the images it referenced
 * (if a logo changes while it is read, it is read again). It is not a point-in-time snapshot of the
 * whole store: a key revoked or a logo added or removed during the export may or may not be in it.
 * For a snapshot, stop the writers (the admin CLI; a running server writes only rate-limit windows,
 * discovery results and discovered logos), or use denokv's point-in-time recovery (`docs/operate/deploy.md`).
 *
 * @example
 * ```ts
 * import { writeArchive } from "./archive_writer.ts";
 * const kv = await Deno.openKv(":memory:");
 * const file = await Deno.open("backup.ndjson.gz", { write: true, create: true, truncate: true });
 * const { keys, logos } = await writeArchive(kv, file.writable);
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import { endLine, headerLine, keyLine, logoLine } from "./archive_format.ts";
import { BlobStore } from "./blob_store.ts";
import type { ApiKey } from "./key_store.ts";
import { API_KEYS_PREFIX, logoRecordKey, logoRecordsPrefix } from "./keyspace.ts";
import type { LogoRecord } from "./logo_store.ts";
import { LOGO_TYPES, type LogoType } from "../sdk/logo_options.ts";

/** What {@link writeArchive} wrote. */
export interface ArchiveSummary {
  /** Keys written, revoked ones included. */
  keys: number;
  /** Logos written: icons and wordmarks. */
  logos: number;
  /** The SHA-256 in the trailer (of every decompressed byte before it). */
  sha256: string;
}

/** Options of {@link writeArchive}. */
export interface WriteArchiveOptions {
  /** Epoch-ms clock for the header's `createdAt`; default `Date.now`. */
  clock?: () => number;
  /** Called after each logo is written, with its domain (progress). */
  onLogo?: (domain: string) => void;
}

/** Times a logo is read again when it changes under the export. */
const MAX_READS = 8;

/**
 * Writes the archive of `kv` to `sink` and closes it. On an error `sink` is aborted and the
 * error is thrown.
 */
export async function writeArchive(
  kv: Deno.Kv,
  sink: WritableStream<Uint8Array>,
  options: WriteArchiveOptions = {},
): Promise<ArchiveSummary> {
  const gzip = new CompressionStream("gzip");
  const piped = gzip.readable.pipeTo(sink);
  const writer = gzip.writable.getWriter();
  const hash = createHash("sha256");
  const encoder = new TextEncoder();
  const write = async (line: string, hashed = true) => {
    const bytes = encoder.encode(line + "\n");
    if (hashed) hash.update(bytes);
    await writer.ready;
    await writer.write(bytes);
  };
  try {
    await write(headerLine((options.clock ?? Date.now)()));
    let keys = 0;
    for await (const entry of kv.list<ApiKey>({ prefix: API_KEYS_PREFIX })) {
      await write(keyLine(entry.value));
      keys++;
    }
    const blobs = new BlobStore(kv);
    let logos = 0;
    // The icons, then the wordmarks (each in domain order).
    for (const type of LOGO_TYPES) {
      for await (const entry of kv.list<LogoRecord>({ prefix: logoRecordsPrefix(type) })) {
        const whole = await readWhole(kv, blobs, entry.value, type);
        if (whole === null) continue; // removed while the export ran
        await write(logoLine(whole.record, whole.blobs, type));
        logos++;
        options.onLogo?.(whole.record.domain);
      }
    }
    const sha256 = hash.digest("hex");
    await write(endLine(keys, logos, sha256), false);
    await writer.close();
    await piped;
    return { keys, logos, sha256 };
  } catch (error) {
    await writer.abort(error).catch(() => undefined);
    await piped.catch(() => undefined);
    throw error;
  }
}

/**
 * A logo's record with the bytes of every rendition, read consistently: when an image is gone
 * (the logo changed and its old image was collected), the record is read again. `null` when the
 * logo was removed meanwhile.
 *
 * @throws {Error} when the logo keeps changing, or an image of an unchanged record is missing.
 */
async function readWhole(
  kv: Deno.Kv,
  blobs: BlobStore,
  first: LogoRecord,
  type: LogoType,
): Promise<{ record: LogoRecord; blobs: Map<string, Uint8Array> } | null> {
  let record: LogoRecord | null = first;
  for (let read = 0; read < MAX_READS && record !== null; read++) {
    const bytes = new Map<string, Uint8Array>();
    for (const rendition of Object.values(record.renditions)) {
      if (bytes.has(rendition.hash)) continue;
      const blob = rendition.data ?? await blobs.read(rendition.hash);
      if (blob === null) break;
      bytes.set(rendition.hash, blob);
    }
    const complete = Object.values(record.renditions).every((r) => bytes.has(r.hash));
    if (complete) return { record, blobs: bytes };
    const again: LogoRecord | null =
      (await kv.get<LogoRecord>(logoRecordKey(type, record.domain))).value;
    if (again !== null && again.updatedAt === record.updatedAt && again.hash === record.hash) {
      throw new Error(`Cannot export the logo of ${record.domain}: an image it uses is missing`);
    }
    record = again;
  }
  if (record === null) return null;
  throw new Error(`Cannot export the logo of ${first.domain}: it kept changing; try again`);
}
