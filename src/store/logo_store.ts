/**
 * Logos in Deno KV: one record per domain, pointing at content-addressed blobs of precomputed
 * renditions (see `logo_ingest.ts` for what is precomputed and `blob_store.ts` for how the bytes
 * are stored and shared).
 *
 * A logo appears, changes or disappears in one atomic commit of its record together with the
 * reference counts of the blobs it uses; the blobs' chunks are written before that commit. A crash
 * at any point therefore leaves either the old logo or the new one visible, never a half of one,
 * and removing a logo never deletes bytes another record still uses.
 *
 * A domain has up to two images, each a record of its own with its own source and renditions: its
 * square **icon** (`type` `icon`, the default of every method) and its wide **wordmark** (`type`
 * `logo`, made by `wordmark_ingest.ts`). Both share the blobs (an image used by both is stored
 * once and counted twice) and the change marks (`logo_changes.ts`: a mark names the domain, so a
 * server drops both of its cached records when either changes).
 *
 * KV layout (see `keyspace.ts`): `["logos", domain]` → {@link LogoRecord} of the icon,
 * `["wordmarks", domain]` → that of the wordmark, each with the `default`
 * rendition's bytes inside it (`inline_rendition.ts`: a default request not in memory costs one KV
 * read); the other renditions as blobs (`blob_store.ts`). Records written before that layout, with
 * every rendition a blob, are read as they are and rewritten by the next `put`.
 *
 * @example
 * ```ts
 * import { LogoStore } from "./logo_store.ts";
 * const logos = new LogoStore(await Deno.openKv(":memory:"));
 * const png = await Deno.readFile("example.com.png");
 * const { record } = await logos.put("example.com", png, { source: "file:example.com.png" });
 * const body = await logos.readRendition(record.renditions.default); // the default 128-px PNG
 * const svg = await Deno.readFile("example.com-wordmark.svg");
 * await logos.put("example.com", svg, { source: "file:wordmark.svg", type: "logo" });
 * (await logos.get("example.com", "logo"))?.renditions.source.width; // 1200
 * ```
 * @module
 */
import { BlobStore } from "./blob_store.ts";
import { blobHashes, isCurrentLayout, layOut } from "./inline_rendition.ts";
import { logoRecordKey, logoRecordsPrefix } from "./keyspace.ts";
import { markLogoChanged } from "./logo_changes.ts";
import type { ImageWork } from "../../imagecore/image_pool.ts";
import {
  PIPELINE_VERSION,
  type PreparedRendition,
  prepareLogo,
  resanitizeSvg,
  SOURCE_MIME,
  SVG_RENDITION,
} from "./logo_ingest.ts";
import { sha256Hex } from "./sha256.ts";
import type { LogoRecord, Rendition } from "./logo_record.ts";
import { prepareWordmark } from "./wordmark_ingest.ts";
import { DEFAULT_TYPE, LOGO_TYPES, type LogoType } from "../sdk/logo_options.ts";

export type { LogoRecord, Rendition } from "./logo_record.ts";
export type { LogoType } from "../sdk/logo_options.ts";

/** What {@link LogoStore.put} stores besides the bytes. */
export interface PutMeta {
  /** Where the bytes came from: `file:…`, `https://…`, `demo`. */
  source: string;
  /** Which of the domain's images: the `icon` (default) or the wordmark (`logo`). */
  type?: LogoType;
}

/** Options of the {@link LogoStore} constructor. */
export interface LogoStoreOptions {
  /** Epoch-ms clock for `createdAt`/`updatedAt`; default `Date.now`. */
  clock?: () => number;
  /**
   * Where `put` runs imagecore: an image pool for untrusted bytes (see `logo_ingest.ts`); default
   * in this isolate.
   */
  imaging?: ImageWork;
}

/** Commits retried on contention before giving up. */
const MAX_ATTEMPTS = 32;

/** Logos in Deno KV; see the module documentation. */
export class LogoStore {
  readonly #kv: Deno.Kv;
  readonly #clock: () => number;
  readonly #blobs: BlobStore;
  readonly #imaging: ImageWork | undefined;

  /** Wraps `kv`; opens nothing and starts nothing. */
  constructor(kv: Deno.Kv, options: LogoStoreOptions = {}) {
    this.#kv = kv;
    this.#clock = options.clock ?? Date.now;
    this.#blobs = new BlobStore(kv, options);
    this.#imaging = options.imaging;
  }

  /**
   * Stores `bytes` as the icon of `domain` (already normalised by `normalizeDomain`), or as its
   * wordmark with `meta.type` `logo` (renditions by `prepareWordmark`), leaving the other
   * image as it is. Discovery stores a chosen wordmark this way:
   * `put(domain, bytes, { source: url, type: "logo" })`. Validates
   * and renders first, so bad bytes write nothing. Bytes identical to the stored source (same
   * SHA-256, same recipe) write nothing and return `changed: false`: that check reads the record
   * only, before any decoding, so a resumed import skips a stored logo for the price of a hash.
   *
   * @throws {ImageCoreError} when imagecore refuses the bytes ("Cannot decode image: …").
   * @throws {TypeError} when `domain` is not a normalised domain string.
   */
  async put(
    domain: string,
    bytes: Uint8Array,
    meta: PutMeta,
  ): Promise<{ record: LogoRecord; changed: boolean }> {
    checkDomain(domain);
    const type = checkType(meta.type ?? DEFAULT_TYPE);
    const hash = await sha256Hex(bytes);
    const current = await this.get(domain, type);
    if (isCurrent(current, hash)) return { record: current!, changed: false };
    const prepared = type === "logo"
      ? await prepareWordmark(bytes, this.#imaging)
      : await prepareLogo(bytes, this.#imaging);
    const result = await this.#commit(domain, type, prepared.renditions, (old, now) => {
      if (isCurrent(old, hash)) return null;
      return {
        domain,
        hash,
        type: prepared.type,
        width: prepared.width,
        height: prepared.height,
        source: meta.source,
        createdAt: old?.createdAt ?? now,
        updatedAt: now,
        pipeline: PIPELINE_VERSION,
        renditions: {},
      };
    });
    // Not changed: the record was current (so not null) when the commit looked.
    return { record: result.record!, changed: result.changed };
  }

  /**
   * Re-renders the icon of `domain` (or its wordmark, with `type` `logo`) from its stored `source` rendition with the current recipe
   * (`PIPELINE_VERSION`), in one atomic commit like `put`: a reader sees the old renditions or
   * the new ones. Without `all`, a record already made by the current recipe is left alone
   * (`current`), so a second run skips what the first did. A stored sanitised SVG
   * (`SVG_RENDITION`) is sanitised again from itself by the current sanitiser (and dropped if it
   * now refuses it); a record without one gets none. The record keeps its source facts
   * (`hash`, `type`, size, `source`); `updatedAt` is the time of the re-render. A record changed
   * or removed while its renditions were made is left as the change left it (`changed`,
   * `missing`).
   *
   * @throws {ImageCoreError} when imagecore refuses the stored source (a store damaged by hand).
   */
  async rerender(
    domain: string,
    options: { all?: boolean; type?: LogoType } = {},
  ): Promise<"rerendered" | "current" | "changed" | "missing"> {
    const type = checkType(options.type ?? DEFAULT_TYPE);
    const first = await this.get(domain, type);
    if (first === null) return "missing";
    if (!options.all && first.pipeline === PIPELINE_VERSION && isCurrentLayout(first)) {
      return "current";
    }
    const from = first.renditions.source;
    const sourceBytes = from === undefined ? null : await this.readRendition(from);
    if (sourceBytes === null) {
      return (await this.get(domain, type)) === null ? "missing" : "changed";
    }
    // A wordmark's stored source is already the raster its renditions come from (at most 1200
    // px wide, kept as it is): the icon's recipe re-renders it.
    const prepared = await prepareLogo(sourceBytes, this.#imaging);
    const svg = first.renditions[SVG_RENDITION];
    const svgBytes = svg === undefined ? null : await this.readRendition(svg);
    if (svg !== undefined && svgBytes === null) {
      return (await this.get(domain, type)) === null ? "missing" : "changed";
    }
    const resanitized = svgBytes === null
      ? undefined
      : await resanitizeSvg(svgBytes, this.#imaging);
    if (resanitized !== undefined) prepared.renditions[SVG_RENDITION] = resanitized;
    const result = await this.#commit(domain, type, prepared.renditions, (old, now) => {
      if (old === null || old.hash !== first.hash || old.renditions.source?.hash !== from!.hash) {
        return null;
      }
      return { ...old, updatedAt: now, pipeline: PIPELINE_VERSION, renditions: {} };
    });
    if (result.changed) return "rerendered";
    return result.record === null ? "missing" : "changed";
  }

  /**
   * Commits `prepared` renditions as the record `build` makes from the current one (its
   * `renditions` are filled in here), with the blobs' reference counts, in one atomic commit
   * retried on contention. `build` returning `null` commits nothing.
   */
  async #commit(
    domain: string,
    type: LogoType,
    prepared: Record<string, PreparedRendition>,
    build: (old: LogoRecord | null, now: number) => LogoRecord | null,
  ): Promise<{ record: LogoRecord | null; changed: boolean }> {
    const renditions: Record<string, Rendition> = {};
    const bytesByHash = new Map<string, Uint8Array>();
    for (const [name, r] of Object.entries(prepared)) {
      renditions[name] = {
        hash: r.hash,
        type: r.type,
        width: r.width,
        height: r.height,
        bytes: r.bytes.length,
      };
      bytesByHash.set(r.hash, r.bytes);
    }
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await this.#kv.get<LogoRecord>(logoRecordKey(type, domain));
      const old = entry.value;
      const built = build(old, this.#clock());
      if (built === null) return { record: old, changed: false };
      const { stored: record, blobs } = layOut({ ...built, renditions }, bytesByHash);
      const oldHashes = new Set(old === null ? [] : blobHashes(old));
      const added = blobs.filter((b) => !oldHashes.has(b.hash));
      const removed = [...oldHashes].filter((h) => !blobs.some((b) => b.hash === h));
      const refs = await this.#blobs.reference(added, removed);
      if (refs === null) continue;
      const op = this.#kv.atomic().check(entry).set(entry.key, record);
      markLogoChanged(op, domain, this.#clock());
      refs.apply(op);
      if ((await op.commit()).ok) {
        await this.#collect(refs.orphaned);
        return { record, changed: true };
      }
    }
    throw new Error(`Cannot store logo for ${domain}: too many concurrent changes, try again`);
  }

  /** The record of `domain`'s icon (or, with `type` `logo`, its wordmark), or `null`. */
  async get(domain: string, type: LogoType = DEFAULT_TYPE): Promise<LogoRecord | null> {
    return (await this.#kv.get<LogoRecord>(logoRecordKey(checkType(type), domain))).value;
  }

  /**
   * The bytes of a blob, reassembled from its chunks, or `null` when no live blob has this hash
   * (for instance because its record was just removed).
   */
  readBlob(hash: string): Promise<Uint8Array | null> {
    return this.#blobs.read(hash);
  }

  /**
   * The bytes of a rendition of a record: those inside the record (no KV read), else its blob's
   * ({@link readBlob}, `null` when gone).
   */
  readRendition(rendition: Rendition): Promise<Uint8Array | null> {
    return rendition.data !== undefined
      ? Promise.resolve(rendition.data)
      : this.readBlob(rendition.hash);
  }

  /**
   * Removes the icon of `domain` (or, with `type` `logo`, its wordmark; the other stays) and
   * deletes the blobs no other record uses. Returns `false` when the domain had no such image.
   */
  async remove(domain: string, type: LogoType = DEFAULT_TYPE): Promise<boolean> {
    checkType(type);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await this.#kv.get<LogoRecord>(logoRecordKey(type, domain));
      if (entry.value === null) return false;
      const refs = await this.#blobs.reference([], blobHashes(entry.value));
      if (refs === null) continue;
      const op = this.#kv.atomic().check(entry).delete(entry.key);
      markLogoChanged(op, domain, this.#clock());
      refs.apply(op);
      if ((await op.commit()).ok) {
        await this.#collect(refs.orphaned);
        return true;
      }
    }
    throw new Error(`Cannot remove logo for ${domain}: too many concurrent changes, try again`);
  }

  /** Every icon record (or, with `type` `logo`, every wordmark record), in domain order. */
  async *list(type: LogoType = DEFAULT_TYPE): AsyncIterable<LogoRecord> {
    const prefix = logoRecordsPrefix(checkType(type));
    for await (const entry of this.#kv.list<LogoRecord>({ prefix })) yield entry.value;
  }

  /** Whether no icon and no wordmark is stored. */
  async isEmpty(): Promise<boolean> {
    for (const type of LOGO_TYPES) {
      const prefix = logoRecordsPrefix(type);
      for await (const _ of this.#kv.list({ prefix }, { limit: 1 })) return false;
    }
    return true;
  }

  /**
   * Deletes blobs no record references: left unreferenced or half deleted by a crash, or abandoned
   * half written (after `PENDING_TIMEOUT_MS`) by a writer that crashed. Returns how many.
   */
  sweep(): Promise<number> {
    return this.#blobs.sweep();
  }

  async #collect(hashes: string[]): Promise<void> {
    for (const hash of hashes) {
      try {
        await this.#blobs.collect(hash);
      } catch {
        // The record change is committed; an unreferenced blob is invisible and `sweep` collects it.
      }
    }
  }
}

/**
 * Whether `record` holds the source of SHA-256 `hash`, rendered by the current recipe in the
 * current layout — for an SVG source, with its sanitised SVG: a record `logo rerender` brought to
 * the current recipe from its PNG has none, and the file put again must give it one.
 */
function isCurrent(record: LogoRecord | null, hash: string): boolean {
  return record !== null && record.hash === hash && record.pipeline === PIPELINE_VERSION &&
    isCurrentLayout(record) &&
    (record.type !== SOURCE_MIME.svg || record.renditions[SVG_RENDITION] !== undefined);
}

/** `type`, checked: a caller's typo must not land a wordmark among the icons. */
function checkType(type: LogoType): LogoType {
  if (!LOGO_TYPES.includes(type)) {
    throw new TypeError(`Unknown logo type "${type}": must be icon or logo`);
  }
  return type;
}

function checkDomain(domain: string): void {
  if (typeof domain !== "string" || domain === "" || domain !== domain.trim().toLowerCase()) {
    throw new TypeError(`Cannot store logo: "${domain}" is not a normalised domain`);
  }
}
