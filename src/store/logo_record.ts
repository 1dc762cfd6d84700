/**
 * What Deno KV holds for a domain's logo: its record ({@link LogoRecord}, at `["logos", domain]`,
 * see `keyspace.ts`) and the precomputed renditions it points at ({@link Rendition}). Declared
 * apart from `logo_store.ts`, which writes and reads them and re-exports them, so that the
 * modules that lay a record out (`inline_rendition.ts`) need not import the store.
 *
 * @example
 * ```ts
 * import type { LogoRecord } from "./logo_record.ts";
 * declare const record: LogoRecord;
 * const { width, height, bytes } = record.renditions.default;
 * ```
 * @module
 */

/** A precomputed image: inside its record (`data`) or a blob. */
export interface Rendition {
  /** SHA-256 hex of the bytes: its blob address (unless `data` holds them) and its ETag. */
  hash: string;
  /** MIME type (`image/png`). */
  type: string;
  /** Width in px. */
  width: number;
  /** Height in px. */
  height: number;
  /** Length in bytes. */
  bytes: number;
  /**
   * The bytes themselves when the record holds them (the `default` rendition, when it fits:
   * `inline_rendition.ts`); absent when they are the blob at `hash`. Read either way with
   * `LogoStore.readRendition` (`logo_store.ts`).
   */
  data?: Uint8Array;
}

/** What is stored for a domain. */
export interface LogoRecord {
  /** The normalised domain. */
  domain: string;
  /** SHA-256 hex of the source bytes as given. */
  hash: string;
  /** MIME type of the source, detected from its bytes. */
  type: string;
  /** Source width in px. */
  width: number;
  /** Source height in px. */
  height: number;
  /** Where it came from: `file:…`, `https://…`, `demo`. */
  source: string;
  /** When the domain first got a logo (epoch ms). */
  createdAt: number;
  /** When the logo, or its renditions (`logo rerender`), last changed (epoch ms). */
  updatedAt: number;
  /** Rendition recipe version (`PIPELINE_VERSION` of `logo_ingest.ts`). */
  pipeline: number;
  /**
   * Precomputed PNGs: `default` is the exact 128-px answer to a request with no options; `source`
   * is the normalised source (at most 1200 px wide, never upscaled). Records of recipe 1 also
   * have a 256-px `mid` (see `logo_ingest.ts`).
   */
  renditions: Record<string, Rendition>;
}
