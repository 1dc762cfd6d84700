/**
 * One type of a domain's images as a store of its own: {@link logosOfType} binds a `LogoStore`'s
 * `get`, `put` and `remove` to `icon` or `logo` (the wordmark), with the call shapes of an
 * icon-only store. Code written for icons — discovery's `LogoSink` (`src/discovery/logo_sink.ts`)
 * — stores wordmarks unchanged when given `logosOfType(logos, "logo")`.
 *
 * @example
 * ```ts
 * import { LogoStore } from "./logo_store.ts";
 * import { logosOfType } from "./typed_logo_store.ts";
 * const wordmarks = logosOfType(new LogoStore(await Deno.openKv(":memory:")), "logo");
 * const svg = await Deno.readFile("acme-wordmark.svg");
 * await wordmarks.put("acme.com", svg, { source: "https://acme.com/logo.svg" });
 * (await wordmarks.get("acme.com"))?.renditions.source.width; // 1200
 * ```
 * @module
 */
import { isLogoType, type LogoType, TYPE_RULE } from "../sdk/logo_options.ts";
import type { LogoRecord, LogoStore } from "./logo_store.ts";

/** A `LogoStore` bound to one type: see the module documentation. */
export interface TypedLogoStore {
  /** The type every call reads or writes. */
  readonly type: LogoType;
  /** The record of `domain` of this type, or `null` (`LogoStore.get`). */
  get(domain: string): Promise<LogoRecord | null>;
  /** Stores `bytes` as `domain`'s image of this type (`LogoStore.put`). */
  put(
    domain: string,
    bytes: Uint8Array,
    meta: { source: string },
  ): Promise<{ record: LogoRecord; changed: boolean }>;
  /** Removes `domain`'s image of this type (`LogoStore.remove`). */
  remove(domain: string): Promise<boolean>;
}

/**
 * `logos` seen through `type`.
 *
 * @throws {TypeError} when `type` is not `icon` or `logo`.
 */
export function logosOfType(logos: LogoStore, type: LogoType): TypedLogoStore {
  if (!isLogoType(type)) throw new TypeError(`Unknown logo type "${type}": ${TYPE_RULE}`);
  return {
    type,
    get: (domain) => logos.get(domain, type),
    put: (domain, bytes, meta) => logos.put(domain, bytes, { ...meta, type }),
    remove: (domain) => logos.remove(domain, type),
  };
}
