/**
 * Exact per-key rate limits over Deno KV without a KV commit per request.
 *
 * Windows are fixed and aligned to the epoch: window `i` of a `w`-second limit covers
 * `[i·w, (i+1)·w)` seconds. For each (key, window) KV holds how much quota has been handed out
 * to instances ({@link leaseQuota}). An instance leases a block with one check-and-set commit,
 * then spends it locally and synchronously, so concurrent requests in one instance can never
 * overspend and the hot path touches no KV at all. Requests that find the local block empty
 * share ONE in-flight lease. Blocks grow (doubling, up to {@link MAX_BLOCK}) while an instance
 * spends them quickly and never exceed a quarter of what is still unleased, so near the limit
 * blocks shrink to single requests and no instance hoards the tail. Unspent quota goes back to
 * KV once the instance has admitted nothing of it for {@link IDLE_RETURN_MS} (a timer), and on
 * {@link RateLimiter.close}, so quota an instance holds for requests that never came is not lost
 * to the others for the rest of the window.
 *
 * Because the global count never exceeds the limit and an instance admits only what it leased,
 * any number of instances over one KV admit at most `limit` requests per window.
 *
 * @module
 */
import type { HttpError } from "../http_error.ts";
import { kvUnavailable } from "../kv_unavailable.ts";
import { leaseQuota, returnQuota } from "./quota_lease.ts";
import { rateLimitKey } from "../store/keyspace.ts";
import {
  adjustBlock,
  checkArguments,
  IDLE_RETURN_MS,
  MAX_BLOCK,
  newWindowState,
  type RateLimitDecision,
  RECHECK_MS,
  secondsUntil,
  SHARE_DIVISOR,
  spendLocal,
  type WindowState,
} from "./window_state.ts";

export { IDLE_RETURN_MS, MAX_BLOCK, type RateLimitDecision };

/** Counters of one limiter since it was created. */
export interface RateLimiterStats {
  /** This instance's id (random unless given). */
  instanceId: string;
  /** Requests admitted. */
  admitted: number;
  /** Requests refused because the window's quota is spent. */
  denied: number;
  /** Lease attempts that reached KV (each is one read and at most one commit). */
  leaseAttempts: number;
  /** Leases that obtained quota (one commit each). */
  leases: number;
  /** Requests answered 503 because KV failed or was too slow. */
  unavailable: number;
  /** Quota given back to KV unspent (idle or on close). */
  returned: number;
}

/** A per-key rate limiter; see the module documentation for how it stays exact. */
export interface RateLimiter {
  /**
   * Counts one request against `keyId`'s `limit` per `windowSeconds`-second window.
   * Throws `HttpError(503)` when KV is needed and fails; programmer errors (a negative limit,
   * a non-integer window) throw a `RangeError`.
   */
  take(keyId: string, limit: number, windowSeconds: number): Promise<RateLimitDecision>;
  /** Waits for in-flight leases, gives unspent quota back to KV and refuses further takes. */
  close(): Promise<void>;
  /**
   * Gives back to KV the quota of every window this instance has admitted nothing from for
   * `idleReturnMs`; resolves with the amount given back. A timer calls it while quota is held;
   * tests with an injected clock call it directly.
   */
  returnIdle(): Promise<number>;
  /** Counters since creation, for tests and benchmarks. */
  stats(): RateLimiterStats;
}

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Where window counts live; shared by every instance of the service. */
  kv: Deno.Kv;
  /** Milliseconds since the epoch; default `Date.now`. */
  clock?: () => number;
  /** Names this instance in {@link RateLimiterStats}; default a random UUID. */
  instanceId?: string;
  /** How long a request waits for a lease before it gets a 503; default 2000 ms. */
  leaseTimeoutMs?: number;
  /** After a KV failure, how long requests needing KV get 503 without trying; default 1000 ms. */
  backoffMs?: number;
  /** How long held quota may go unspent before it is given back; default {@link IDLE_RETURN_MS}. */
  idleReturnMs?: number;
}

/**
 * Creates a rate limiter over `kv`. No KV access happens until the first {@link RateLimiter.take}.
 *
 * @example
 * ```ts
 * const kv = await Deno.openKv(":memory:");
 * const limiter = createRateLimiter({ kv });
 * const decision = await limiter.take("key_1", 1000, 3600);
 * if (!decision.allowed) console.log(`retry in ${decision.retryAfter} s`);
 * await limiter.close();
 * ```
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { kv } = options;
  const clock = options.clock ?? Date.now;
  const leaseTimeoutMs = options.leaseTimeoutMs ?? 2_000;
  const backoffMs = options.backoffMs ?? 1_000;
  const idleReturnMs = options.idleReturnMs ?? IDLE_RETURN_MS;
  const stats: RateLimiterStats = {
    instanceId: options.instanceId ?? crypto.randomUUID(),
    admitted: 0,
    denied: 0,
    leaseAttempts: 0,
    leases: 0,
    unavailable: 0,
    returned: 0,
  };
  const states = new Map<string, WindowState>();
  let pruneAt = 1024;
  let unavailableUntil = 0;
  let closed = false;
  let sweepTimer: ReturnType<typeof setTimeout> | undefined;
  const returning = new Set<Promise<unknown>>();

  function unavailable(now: number): HttpError {
    stats.unavailable++;
    const seconds = secondsUntil(Math.max(unavailableUntil, now), now);
    return kvUnavailable(seconds);
  }

  function kvKey(s: WindowState): Deno.KvKey {
    return rateLimitKey(s.keyId, s.windowSeconds, s.index);
  }

  function expireInMs(s: WindowState, now: number): number {
    return Math.max(1_000, s.endMs - now + s.windowSeconds * 1000);
  }

  /** Drops states of ended windows that hold nothing, once the map has grown. */
  function prune(now: number): void {
    for (const [keyId, s] of states) {
      if (s.endMs <= now && s.inflight === null) states.delete(keyId);
    }
    pruneAt = Math.max(1024, states.size * 2);
  }

  function stateFor(keyId: string, limit: number, windowSeconds: number, now: number) {
    const windowMs = windowSeconds * 1000;
    const index = Math.floor(now / windowMs);
    const current = states.get(keyId);
    if (
      current !== undefined && current.index === index && current.limit === limit &&
      current.windowSeconds === windowSeconds
    ) {
      return current;
    }
    // A new window, or the key's limit or window changed: start afresh. Quota leased under the
    // old settings stays counted in KV (conservative) and expires with its window.
    if (current === undefined && states.size >= pruneAt) prune(now);
    const next = newWindowState(keyId, limit, windowSeconds, index, current);
    states.set(keyId, next);
    return next;
  }

  /** Starts the one lease of `s`; resolves true once it settled well, false if KV failed. */
  function startLease(s: WindowState): Promise<boolean> {
    const now = clock();
    adjustBlock(s, now);
    const size = (available: number) =>
      Math.max(s.waiting, Math.min(s.block, Math.ceil(available / SHARE_DIVISOR)));
    stats.leaseAttempts++;
    const inflight = leaseQuota(kv, kvKey(s), s.limit, size, expireInMs(s, now)).then(
      (lease) => {
        if (lease.granted > 0) stats.leases++;
        s.leased = lease.leased;
        s.local += lease.granted;
        s.exhausted = lease.granted === 0;
        s.recheckAt = clock() + RECHECK_MS;
        s.lastLeaseAt = now;
        unavailableUntil = 0;
        s.inflight = null;
        if (lease.granted > 0) scheduleSweep();
        return true;
      },
      () => {
        unavailableUntil = clock() + backoffMs;
        s.inflight = null;
        return false;
      },
    );
    s.inflight = inflight;
    return inflight;
  }

  /**
   * Gives `s`'s held quota back to KV. A give-back that fails is not retried and the quota not
   * kept: it may have committed, and spending it again could exceed the limit.
   */
  function giveBack(s: WindowState, now: number): Promise<number> {
    const amount = s.local;
    s.local = 0;
    const done = returnQuota(kv, kvKey(s), amount, expireInMs(s, now)).then(
      (left) => {
        stats.returned += amount;
        s.leased = left;
        return amount;
      },
      () => 0,
    );
    returning.add(done);
    return done.finally(() => returning.delete(done));
  }

  async function returnIdle(): Promise<number> {
    const now = clock();
    const idle = [...states.values()].filter((s) =>
      s.local > 0 && s.inflight === null && s.waiting === 0 && now < s.endMs &&
      now - Math.max(s.lastSpendAt, s.lastLeaseAt) >= idleReturnMs
    );
    const amounts = await Promise.all(idle.map((s) => giveBack(s, now)));
    return amounts.reduce((sum, amount) => sum + amount, 0);
  }

  /** Runs {@link returnIdle} when the first held quota falls idle, again while any is held. */
  function scheduleSweep(): void {
    if (sweepTimer !== undefined || closed) return;
    const now = clock();
    let due = Infinity;
    for (const s of states.values()) {
      // Quota of a window that has ended is worth nothing: it is neither given back nor waited for.
      if (s.local === 0 || now >= s.endMs) continue;
      due = Math.min(due, Math.max(s.lastSpendAt, s.lastLeaseAt) + idleReturnMs);
    }
    if (due === Infinity) return;
    // At least 100 ms apart, so a window held by a lease in flight is not polled in a loop.
    sweepTimer = setTimeout(async () => {
      await returnIdle();
      sweepTimer = undefined;
      scheduleSweep();
    }, Math.max(100, due - now));
    Deno.unrefTimer(sweepTimer);
  }

  /** Waits for a lease at most `leaseTimeoutMs`; false when it failed or took too long. */
  function awaitLease(lease: Promise<boolean>): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => {
        unavailableUntil = Math.max(unavailableUntil, clock() + backoffMs);
        resolve(false);
      }, leaseTimeoutMs);
    });
    return Promise.race([lease, timeout]).finally(() => clearTimeout(timer));
  }

  async function take(
    keyId: string,
    limit: number,
    windowSeconds: number,
  ): Promise<RateLimitDecision> {
    checkArguments(keyId, limit, windowSeconds);
    let now = clock();
    if (closed) throw unavailable(now);
    let s = stateFor(keyId, limit, windowSeconds, now);
    for (;;) {
      const decision = spendLocal(s, now);
      if (decision !== undefined) {
        if (decision.allowed) stats.admitted++;
        else stats.denied++;
        return decision;
      }
      if (now < unavailableUntil) throw unavailable(now);
      s.waiting++;
      let ok: boolean;
      try {
        ok = await awaitLease(s.inflight ?? startLease(s));
      } finally {
        s.waiting--;
      }
      now = clock();
      if (!ok) throw unavailable(now);
      if (closed) throw unavailable(now);
      s = stateFor(keyId, limit, windowSeconds, now);
    }
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    clearTimeout(sweepTimer);
    await Promise.all([...states.values()].map((s) => s.inflight));
    const now = clock();
    // Best effort: if KV is down the quota simply expires with its window.
    for (const s of states.values()) if (s.local > 0 && now < s.endMs) giveBack(s, now);
    await Promise.all(returning);
    states.clear();
  }

  return { take, close, returnIdle, stats: () => ({ ...stats }) };
}
