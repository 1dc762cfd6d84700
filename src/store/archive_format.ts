/**
 * The backup archive's format (`deno task admin export` / `import-archive`), and the checks every
 * line of it passes before anything is written to a store.
 *
 * An archive is gzip-compressed NDJSON (gzip by the platform's `CompressionStream`, JSON by
 * `JSON.parse`: no dependency, streamed line by line, readable with `zcat FILE | head`):
 *
 * 1. `{"type":"logo-lookup-archive","version":2,"createdAt":…}` — the header;
 * 2. `{"type":"key","key":ApiKey}` per API key, revoked ones included. A key holds its publishable
 *    token (public by design: it is in every `<img>` URL) and the SHA-256 of its secret token —
 *    exactly what the store holds; no secret token is in a store, so none is in an archive;
 * 3. `{"type":"logo","logoType":"icon"|"logo","record":LogoRecord,"blobs":{hash:base64,…}}` per
 *    icon and per wordmark: which of the domain's images it is, its record (with its `source`) and
 *    the bytes of every rendition it uses, so each line is whole on its own and an importer holds
 *    one logo at a time;
 * 4. `{"type":"end","keys":N,"logos":M,"sha256":…}` — the trailer: counts (`logos` counts the
 *    logo lines, icons and wordmarks), and the SHA-256 of every byte before the trailer line. A
 *    truncated archive has no trailer; a changed byte breaks the SHA-256 (and gzip's CRC).
 *
 * Version 2 added `logoType`, for wordmarks. This code reads version 1 archives too: their logo
 * lines have no `logoType` and are icons, as every logo then was. A version-1 reader refuses a
 * version-2 archive by its header ("archive version 2 is not supported") rather than importing its
 * wordmarks as icons.
 *
 * @example
 * ```ts
 * import { parseArchiveLine } from "./archive_format.ts";
 * const line = '{"type":"logo-lookup-archive","version":1,"createdAt":0}';
 * parseArchiveLine(line, 1).type; // "header"
 * ```
 * @module
 */
import type { ApiKey } from "./key_store.ts";
import type { LogoRecord, Rendition } from "./logo_store.ts";
import { withoutInlineBytes } from "./inline_rendition.ts";
import { ArchiveError, checkKey, checkRecord, hex, object, whole } from "./archive_records.ts";
import { DEFAULT_TYPE, isLogoType, type LogoType, TYPE_RULE } from "../sdk/logo_options.ts";

export { ArchiveError };

/** The `type` of an archive's header line. */
export const ARCHIVE_TYPE = "logo-lookup-archive";
/** The format version this code writes. */
export const ARCHIVE_VERSION = 2;
/** The oldest format version this code reads (its logo lines are icons). */
export const OLDEST_ARCHIVE_VERSION = 1;
/** Longest line accepted, decompressed (a logo line holds up to three PNGs in base64). */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** One validated line of an archive. */
export type ArchiveEntry =
  | { type: "header"; version: number; createdAt: number }
  | { type: "key"; key: ApiKey }
  | { type: "logo"; logoType: LogoType; record: LogoRecord; blobs: Map<string, Uint8Array> }
  | { type: "end"; keys: number; logos: number; sha256: string };

const HEX64 = /^[0-9a-f]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The header line of a new archive. */
export function headerLine(createdAt: number): string {
  return JSON.stringify({ type: ARCHIVE_TYPE, version: ARCHIVE_VERSION, createdAt });
}

/** The line of a key. */
export function keyLine(key: ApiKey): string {
  return JSON.stringify({ type: "key", key });
}

/**
 * The line of a logo: its type (`icon` or `logo`, the wordmark), its record (without bytes inside
 * it: `inline_rendition.ts`) and the bytes of each rendition, by hash.
 */
export function logoLine(
  record: LogoRecord,
  blobs: ReadonlyMap<string, Uint8Array>,
  logoType: LogoType = DEFAULT_TYPE,
): string {
  const encoded: Record<string, string> = {};
  for (const [hash, bytes] of blobs) encoded[hash] = bytes.toBase64();
  return JSON.stringify({
    type: "logo",
    logoType,
    record: withoutInlineBytes(record),
    blobs: encoded,
  });
}

/** The trailer line. */
export function endLine(keys: number, logos: number, sha256: string): string {
  return JSON.stringify({ type: "end", keys, logos, sha256 });
}

/**
 * Parses and checks one line (`number` counts from 1, for messages). Checks shapes and values;
 * blob hashes are checked by {@link checkLogoBlobs}, which needs a digest. The header's version is
 * returned in its entry; the lines after it are read the same way in every version this reads
 * (a version-1 logo line has no `logoType`: an icon).
 *
 * @throws {ArchiveError} naming the line and the field.
 */
export function parseArchiveLine(line: string, number: number): ArchiveEntry {
  const at = `line ${number}`;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ArchiveError(`${at} is not JSON (not an archive made by admin export?)`);
  }
  const v = object(value, at);
  if (number === 1) {
    if (v.type !== ARCHIVE_TYPE) {
      throw new ArchiveError("not a Logo Lookup archive (no archive header on line 1)");
    }
    const version = v.version;
    if (
      typeof version !== "number" || !Number.isInteger(version) ||
      version < OLDEST_ARCHIVE_VERSION || version > ARCHIVE_VERSION
    ) {
      throw new ArchiveError(
        `archive version ${JSON.stringify(v.version)} is not supported (this version reads ` +
          `${OLDEST_ARCHIVE_VERSION} to ${ARCHIVE_VERSION})`,
      );
    }
    return {
      type: "header",
      version,
      createdAt: whole(v.createdAt, at, "createdAt"),
    };
  }
  switch (v.type) {
    case "key":
      return { type: "key", key: checkKey(object(v.key, `${at}: key`), `${at}: key`) };
    case "logo":
      return parseLogo(v, at);
    case "end": {
      const sha256 = hex(v.sha256, at, "sha256");
      return {
        type: "end",
        keys: whole(v.keys, at, "keys"),
        logos: whole(v.logos, at, "logos"),
        sha256,
      };
    }
    default:
      throw new ArchiveError(`${at}: unknown entry type ${JSON.stringify(v.type)}`);
  }
}

function parseLogo(v: Record<string, unknown>, at: string): ArchiveEntry {
  const logoType = v.logoType ?? DEFAULT_TYPE;
  if (!isLogoType(logoType)) {
    throw new ArchiveError(`${at}: logoType ${JSON.stringify(logoType)} ${TYPE_RULE}`);
  }
  const record = checkRecord(object(v.record, `${at}: record`), `${at}: record`);
  const encoded = object(v.blobs, `${at}: blobs`);
  const blobs = new Map<string, Uint8Array>();
  for (const [hash, data] of Object.entries(encoded)) {
    if (!HEX64.test(hash) || typeof data !== "string" || !BASE64.test(data)) {
      throw new ArchiveError(`${at}: blob ${hash.slice(0, 16)}… is not base64 under a SHA-256`);
    }
    try {
      blobs.set(hash, Uint8Array.fromBase64(data));
    } catch {
      throw new ArchiveError(`${at}: blob ${hash.slice(0, 16)}… is not valid base64`);
    }
  }
  for (const [name, rendition] of Object.entries(record.renditions)) {
    const bytes = blobs.get(rendition.hash);
    if (bytes === undefined) throw new ArchiveError(`${at}: rendition ${name} has no blob`);
    if (bytes.length !== rendition.bytes) {
      throw new ArchiveError(
        `${at}: rendition ${name} is ${bytes.length} bytes, not ${rendition.bytes}`,
      );
    }
    if (rendition.type === SVG_TYPE) checkSvgStart(bytes, `${at}: rendition ${name}`);
    else checkPng(bytes, rendition, `${at}: rendition ${name}`);
  }
  const used = new Set(Object.values(record.renditions).map((r) => r.hash));
  for (const hash of blobs.keys()) {
    if (!used.has(hash)) throw new ArchiveError(`${at}: blob ${hash} is used by no rendition`);
  }
  return { type: "logo", logoType, record, blobs };
}

/**
 * Checks that every blob of a logo entry hashes to its address, with `digest` (SHA-256 hex).
 *
 * @throws {ArchiveError} for a blob whose bytes changed.
 */
export async function checkLogoBlobs(
  entry: { record: LogoRecord; blobs: ReadonlyMap<string, Uint8Array> },
  number: number,
  digest: (bytes: Uint8Array) => Promise<string>,
): Promise<void> {
  for (const [hash, bytes] of entry.blobs) {
    if (await digest(bytes) !== hash) {
      throw new ArchiveError(
        `line ${number}: an image of ${entry.record.domain} does not match its SHA-256 (corrupt)`,
      );
    }
  }
}

/** A PNG whose header (IHDR) says the rendition's width and height. */
/** The type of a sanitised SVG rendition (`SVG_RENDITION` of `logo_ingest.ts`). */
const SVG_TYPE = "image/svg+xml";
/** How every sanitised SVG opens (imagecore's `svg/sanitize.rs`). */
const SVG_START = new TextEncoder().encode('<svg viewBox="');

/** The reader's cheap check of a sanitised SVG; the import checks all of it (`archive_images.ts`). */
function checkSvgStart(bytes: Uint8Array, at: string): void {
  if (!SVG_START.every((b, i) => bytes[i] === b)) {
    throw new ArchiveError(`${at} is not a sanitised SVG`);
  }
}

function checkPng(bytes: Uint8Array, rendition: Rendition, at: string): void {
  const isPng = bytes.length >= 24 && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
  if (!isPng || rendition.type !== "image/png") throw new ArchiveError(`${at} is not a PNG`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(16) !== rendition.width || view.getUint32(20) !== rendition.height) {
    throw new ArchiveError(`${at}: its PNG is not ${rendition.width}×${rendition.height}`);
  }
}
