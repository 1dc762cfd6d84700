/**
 * The part of `LogoStore` discovery writes through: one type of a domain's images, as
 * `logosOfType(logos, "icon")` or `logosOfType(logos, "logo")` (`src/store/typed_logo_store.ts`)
 * gives it. Discovery stores the icon through one and the wordmark through another, with the same
 * code.
 *
 * @example
 * ```ts
 * import { LogoStore } from "../store/logo_store.ts";
 * import { logosOfType } from "../store/typed_logo_store.ts";
 * const logos = new LogoStore(await Deno.openKv(":memory:"));
 * const icons: LogoSink = logos; // a LogoStore is its icons' sink
 * const wordmarks: LogoSink = logosOfType(logos, "logo");
 * ```
 * @module
 */

/** See the module documentation. */
export interface LogoSink {
  /** The stored record of `domain`, or null. */
  get(domain: string): Promise<{ hash: string; source: string; updatedAt: number } | null>;
  /** Stores `bytes` as the image of `domain`; `changed: false` when they were already stored. */
  put(
    domain: string,
    bytes: Uint8Array,
    meta: { source: string },
  ): Promise<{ record: { hash: string }; changed: boolean }>;
}
