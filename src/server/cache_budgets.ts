/**
 * The byte budgets of a server process's three caches: `LOGO_VARIANT_CACHE_MB` (rendered answers;
 * default 32), `LOGO_SOURCE_CACHE_MB` (stored renditions kept to render from; default 32) and
 * `LOGO_RECORD_CACHE_MB` (logo records, each with its default image and the default answer made of
 * it; default 64), read by the settings (`src/settings/settings_table.ts`) with
 * {@link parseCacheMb}. Each instance has its own. docs/operate/capacity.md says what RSS to expect.
 *
 * @example
 * ```ts
 * import { cacheBudgets, describeCacheBudgets } from "./cache_budgets.ts";
 * import { readSettings } from "../settings/read_settings.ts";
 * const budgets = cacheBudgets(readSettings({ LOGO_SOURCE_CACHE_MB: "0" }, "serve"));
 * console.log(describeCacheBudgets(budgets));
 * // "Cache budgets: variants 32 MiB, sources 0 MiB, records 64 MiB."
 * ```
 * @module
 */
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

/** The three budgets of `settings` (the server's settings hold them under the same names). */
export function cacheBudgets(settings: CacheBudgets): CacheBudgets {
  const { variantCacheBytes, sourceCacheBytes, logoCacheBytes } = settings;
  return { variantCacheBytes, sourceCacheBytes, logoCacheBytes };
}

/** The start-up line that states the budgets. */
export function describeCacheBudgets(budgets: CacheBudgets): string {
  const mb = (bytes: number) => `${+(bytes / MiB).toFixed(2)} MiB`;
  return `Cache budgets: variants ${mb(budgets.variantCacheBytes)}, ` +
    `sources ${mb(budgets.sourceCacheBytes)}, records ${mb(budgets.logoCacheBytes)}.`;
}
