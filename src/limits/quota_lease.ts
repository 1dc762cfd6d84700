/**
 * Leasing blocks of a rate-limit window's quota from Deno KV.
 *
 * One KV entry per (key, window) holds how much of the window's quota has been handed out to
 * instances so far. Leasing is a check-and-set on that entry's versionstamp: read the count,
 * decide how much to take, and commit `count + granted` only if nobody changed the entry in
 * between (otherwise read again). The count never exceeds the limit, so however many instances
 * share the KV, no more than the limit is ever handed out in a window.
 *
 * @module
 */
import { isLocked } from "../store/store_locked.ts";

/** What one lease attempt obtained. */
export interface Lease {
  /** Quota handed to the caller by this lease (0 when the window is exhausted). */
  granted: number;
  /** Quota handed out to all instances in this window, including this lease. */
  leased: number;
}

/** How many times a lease re-reads after losing a check-and-set race before giving up. */
const MAX_ATTEMPTS = 32;

/** How many times one lease retries after SQLite reported the KV file busy. */
const MAX_BUSY_RETRIES = 64;

/**
 * Runs one check-and-set attempt, retrying it after a short, growing, jittered pause while the KV
 * file is busy. Any other error is thrown at once. Retrying is safe: an attempt that failed
 * changed nothing, and one that committed but reported an error only leaves quota counted as
 * leased (never admitted twice).
 */
async function whileBusy<T>(attempt: () => Promise<T>): Promise<T> {
  for (let retry = 0;; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isLocked(error) || retry >= MAX_BUSY_RETRIES) throw error;
      const ceiling = Math.min(20, 2 ** Math.min(retry, 5));
      await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * ceiling));
    }
  }
}

/** Reads a stored count; anything but a non-negative integer counts as nothing handed out. */
function countOf(value: unknown): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/**
 * Takes a block of quota for one window from KV with one atomic commit.
 *
 * `size(available)` chooses how much to ask for, given how much of the limit is still
 * unleased; the grant is clamped to `1..available`. When nothing is available the function only
 * reads and returns `granted: 0`. `expireInMs` lets KV drop the entry some time after its window.
 *
 * A busy KV file ("database is locked") is retried after short pauses; any other KV error is
 * thrown (the caller turns it into a 503), as is an Error after {@link MAX_ATTEMPTS} lost races.
 *
 * @example
 * ```ts
 * import { rateLimitKey } from "../store/keyspace.ts";
 * const kv = await Deno.openKv(":memory:");
 * const lease = await leaseQuota(kv, rateLimitKey("key1", 60, 0), 100, (a) => a / 4, 120_000);
 * console.log(lease.granted); // 25
 * ```
 */
export async function leaseQuota(
  kv: Deno.Kv,
  key: Deno.KvKey,
  limit: number,
  size: (available: number) => number,
  expireInMs: number,
): Promise<Lease> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const lease = await whileBusy(async (): Promise<Lease | null> => {
      const entry = await kv.get<number>(key);
      const leased = countOf(entry.value);
      const available = limit - leased;
      if (available <= 0) return { granted: 0, leased };
      const granted = Math.min(available, Math.max(1, Math.floor(size(available))));
      const result = await kv.atomic()
        .check(entry)
        .set(key, leased + granted, { expireIn: expireInMs })
        .commit();
      return result.ok ? { granted, leased: leased + granted } : null;
    });
    if (lease !== null) return lease;
  }
  throw new Error(`Cannot lease quota: lost ${MAX_ATTEMPTS} check-and-set races`);
}

/**
 * Gives `amount` of unspent quota back to a window's count (never below zero), with the same
 * check-and-set loop as {@link leaseQuota}. Returns the count after the give-back.
 *
 * @example
 * ```ts
 * const kv = await Deno.openKv(":memory:");
 * const key = ["rate_limit", "key1", 60, 0];
 * await leaseQuota(kv, key, 100, () => 10, 120_000);
 * console.log(await returnQuota(kv, key, 4, 120_000)); // 6
 * ```
 */
export async function returnQuota(
  kv: Deno.Kv,
  key: Deno.KvKey,
  amount: number,
  expireInMs: number,
): Promise<number> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const left = await whileBusy(async (): Promise<number | null> => {
      const entry = await kv.get<number>(key);
      if (entry.versionstamp === null) return 0;
      const leased = Math.max(0, countOf(entry.value) - amount);
      const result = await kv.atomic()
        .check(entry)
        .set(key, leased, { expireIn: expireInMs })
        .commit();
      return result.ok ? leased : null;
    });
    if (left !== null) return left;
  }
  throw new Error(`Cannot return quota: lost ${MAX_ATTEMPTS} check-and-set races`);
}
