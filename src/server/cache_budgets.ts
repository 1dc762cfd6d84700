/**
 * The byte budgets of a server process's three caches, read from the environment:
 * `LOGO_VARIANT_CACHE_MB` (rendered answers, and the stored default renditions read from KV;
 * default 64), `LOGO_SOURCE_CACHE_MB` (stored renditions kept to render from; default 32) and
 * `LOGO_RECORD_CACHE_MB` (logo records, each with its default image; default 32). Each instance
 * has its own. docs/operate/capacity.md says what RSS to expect from them.
 *
 * @example
 * ```ts
 * import { describeCacheBudgets, readCacheBudgets } from "./cache_budgets.ts";
 * const budgets = readCacheBudgets((name) => Deno.env.get(name));
 * console.log(describeCacheBudgets(budgets));
 * // "Cache budgets: variants 64 MiB, sources 32 MiB, records 32 MiB."
 * ```
 * @module
 */
import { DEFAULT_VARIANT_CACHE_BYTES } from "../http/variant_cache.ts";
import { DEFAULT_SOURCE_CACHE_BYTES } from "../http/render_variant.ts";
import { LOGO_CACHE_MAX_BYTES } from "../http/resolve_logo.ts";

/** The three budgets, bytes. */
export interface CacheBudgets {
  /** Rendered variants (`AppDeps.variantCacheBytes`). */
  variantCacheBytes: number;
  /** Source renditions (`AppDeps.sourceCacheBytes`). */
  sourceCacheBytes: number;
  /** Logo records (`AppDeps.logoCacheBytes`). */
  logoCacheBytes: number;
}

/** Largest budget a setting may ask for, in MiB (64 GiB). */
export const MAX_CACHE_MB = 65_536;
const MiB = 1024 * 1024;

/**
 * Reads one budget in MiB: unset or empty gives `fallback` bytes.
 *
 * @throws {RangeError} "Invalid NAME …" unless a whole number from 0 to {@link MAX_CACHE_MB}.
 */
export function parseCacheMb(name: string, value: string | undefined, fallback: number): number {
  const text = value?.trim();
  if (!text) return fallback;
  const mb = Number(text);
  if (!/^\d+$/.test(text) || mb > MAX_CACHE_MB) {
    throw new RangeError(
      `Invalid ${name} "${value}": expected a whole number of MiB from 0 (no cache) to ${MAX_CACHE_MB}`,
    );
  }
  return mb * MiB;
}

/**
 * Reads `LOGO_VARIANT_CACHE_MB`, `LOGO_SOURCE_CACHE_MB` and `LOGO_RECORD_CACHE_MB` through `env`.
 *
 * @throws {RangeError} for a value that is not a whole number of MiB in range.
 */
export function readCacheBudgets(env: (name: string) => string | undefined): CacheBudgets {
  return {
    variantCacheBytes: parseCacheMb(
      "LOGO_VARIANT_CACHE_MB",
      env("LOGO_VARIANT_CACHE_MB"),
      DEFAULT_VARIANT_CACHE_BYTES,
    ),
    sourceCacheBytes: parseCacheMb(
      "LOGO_SOURCE_CACHE_MB",
      env("LOGO_SOURCE_CACHE_MB"),
      DEFAULT_SOURCE_CACHE_BYTES,
    ),
    logoCacheBytes: parseCacheMb(
      "LOGO_RECORD_CACHE_MB",
      env("LOGO_RECORD_CACHE_MB"),
      LOGO_CACHE_MAX_BYTES,
    ),
  };
}

/** The start-up line that states the budgets. */
export function describeCacheBudgets(budgets: CacheBudgets): string {
  const mb = (bytes: number) => `${+(bytes / MiB).toFixed(2)} MiB`;
  return `Cache budgets: variants ${mb(budgets.variantCacheBytes)}, ` +
    `sources ${mb(budgets.sourceCacheBytes)}, records ${mb(budgets.logoCacheBytes)}.`;
}
