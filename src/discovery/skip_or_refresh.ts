/**
 * When discovery looks, and when what it finds replaces what is stored.
 *
 * Without `force`:
 * - a stored logo discovery did not find (added by an operator: `logo add`, `logo import`, the
 *   demo seed) is never touched: `operator`;
 * - a logo discovery found is looked for again once older than `refreshAfterMs` (30 days), and
 *   until then answered `fresh`;
 * - with no stored logo, a remembered failure (`failure_memory.ts`) is answered `known-missing`
 *   until its retry time;
 * - a find replaces a discovered logo only if it ranks at least as well ({@link replaces}).
 *
 * `force` ignores all of these.
 *
 * @module
 */
import type { FailureKind, MissingEntry } from "./failure_memory.ts";
import { NEGATIVE_TTL_MS } from "./failure_memory.ts";
import type { FoundEntry, StoredRecord } from "./found_memory.ts";

/** Age after which a discovered logo is looked for again by default: 30 days. */
export const REFRESH_AFTER_MS = 30 * NEGATIVE_TTL_MS;

/** What is known of a domain before looking. */
export interface Prior {
  /** The stored record, or null. */
  record: StoredRecord | null;
  /** The found entry, when the stored logo is the one discovery found; else null. */
  discovered: FoundEntry | null;
}

/**
 * The {@link Prior} of a domain from its stored record and found entry: the entry counts only
 * if its hash is the record's (otherwise an operator replaced the logo).
 */
export function priorOf(record: StoredRecord | null, found: FoundEntry | null): Prior {
  const discovered = record !== null && found !== null && found.hash === record.hash;
  return { record, discovered: discovered ? found : null };
}

/** Why discovery does not look: the outcome to answer without fetching. */
export type Skip =
  | { status: "operator" }
  | { status: "fresh"; source: string }
  | { status: "known-missing"; failure: FailureKind; retryAt: number; reason?: string };

/** What {@link skipReason} needs besides the prior. */
export interface SkipOptions {
  /** Epoch-ms clock. */
  clock: () => number;
  /** See {@link REFRESH_AFTER_MS}. */
  refreshAfterMs: number;
  /** Reads the remembered failure; called only when there is no stored logo. */
  readMissing: () => Promise<MissingEntry | null>;
}

/**
 * Why discovery need not look at a domain (see the module doc), or undefined to look.
 *
 * @example
 * ```ts
 * import { LogoStore } from "../store/logo_store.ts";
 * import { readMissing } from "./failure_memory.ts";
 * import { readFound } from "./found_memory.ts";
 * const kv = await Deno.openKv(":memory:");
 * const domain = "acme.test";
 * const record = await new LogoStore(kv).get(domain);
 * const found = await readFound(kv, domain);
 * const skip = await skipReason(priorOf(record, found), {
 *   clock: Date.now,
 *   refreshAfterMs: REFRESH_AFTER_MS,
 *   readMissing: () => readMissing(kv, domain),
 * });
 * ```
 */
export async function skipReason(prior: Prior, options: SkipOptions): Promise<Skip | undefined> {
  const { record, discovered } = prior;
  if (record !== null) {
    if (discovered === null) return { status: "operator" };
    if (!isDue(discovered, options.clock(), options.refreshAfterMs)) {
      return { status: "fresh", source: discovered.source };
    }
    return undefined;
  }
  const missing = await options.readMissing();
  if (missing !== null && missing.until > options.clock()) {
    const failure = missing.kind ?? "no-icon";
    const reason = missing.reason;
    return {
      status: "known-missing",
      failure,
      retryAt: missing.until,
      ...(reason ? { reason } : {}),
    };
  }
  return undefined;
}

/** Whether a discovered logo found at `found.at` is due to be looked for again at `now`. */
export function isDue(found: FoundEntry, now: number, refreshAfterMs: number): boolean {
  return now - found.at >= refreshAfterMs;
}

/**
 * Whether a find scoring `score` (see `rank.ts`) replaces what is stored: always with `force`
 * or when the stored logo is not discovery's; otherwise only if it ranks at least as well.
 */
export function replaces(prior: Prior, score: number, force: boolean): boolean {
  return force || prior.discovered === null || prior.discovered.score <= score;
}
