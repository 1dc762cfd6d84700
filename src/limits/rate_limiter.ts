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
 * blocks shrink to single requests and no instance hoards the tail. Unspent quota is given back
 * by {@link RateLimiter.close} and otherwise expires with its window.
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

/** The outcome of {@link RateLimiter.take}, ready to become `X-RateLimit-*` headers. */
export interface RateLimitDecision {
  /** Whether the request is admitted. */
  allowed: boolean;
  /** The key's limit per window. */
  limit: number;
  /** Requests still admissible in this window as far as this instance knows; never rises. */
  remaining: number;
  /** Epoch seconds at which the window ends (`X-RateLimit-Reset`). */
  reset: number;
  /** Whole seconds until {@link reset}, at least 1 (`Retry-After`). */
  retryAfter: number;
}

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
}

/** First block size leased for a key. */
const INITIAL_BLOCK = 8;
/** Largest block one lease takes, whatever the limit. */
export const MAX_BLOCK = 65_536;
/** A block spent faster than this makes the next one twice as big. */
const FAST_LEASE_MS = 1_000;
/** A lease never takes more than 1/SHARE_DIVISOR of the quota still unleased. */
const SHARE_DIVISOR = 4;
/** While a window is exhausted, how often an instance re-reads KV for given-back quota. */
const RECHECK_MS = 1_000;

/** Local state of one key in its current window. */
interface WindowState {
  readonly keyId: string;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly index: number;
  readonly endMs: number;
  /** Leased by this instance and not yet spent. */
  local: number;
  /** Global count as of this instance's last lease. */
  leased: number;
  /** Lowest `remaining` reported so far, so it never rises. */
  shown: number;
  exhausted: boolean;
  recheckAt: number;
  waiting: number;
  inflight: Promise<boolean> | null;
  block: number;
  lastLeaseAt: number;
}

function checkArguments(keyId: string, limit: number, windowSeconds: number): void {
  if (typeof keyId !== "string" || keyId.length === 0) {
    throw new RangeError("Cannot rate limit: key id must be a non-empty string");
  }
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`Cannot rate limit: limit must be a non-negative integer, got ${limit}`);
  }
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds <= 0) {
    throw new RangeError(
      `Cannot rate limit: window must be a positive whole number of seconds, got ${windowSeconds}`,
    );
  }
}

function secondsUntil(endMs: number, now: number): number {
  return Math.max(1, Math.ceil((endMs - now) / 1000));
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
  const stats: RateLimiterStats = {
    instanceId: options.instanceId ?? crypto.randomUUID(),
    admitted: 0,
    denied: 0,
    leaseAttempts: 0,
    leases: 0,
    unavailable: 0,
  };
  const states = new Map<string, WindowState>();
  let pruneAt = 1024;
  let unavailableUntil = 0;
  let closed = false;

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
    const next: WindowState = {
      keyId,
      limit,
      windowSeconds,
      index,
      endMs: (index + 1) * windowMs,
      local: 0,
      leased: 0,
      shown: limit,
      exhausted: false,
      recheckAt: 0,
      waiting: 0,
      inflight: null,
      block: current?.block ?? INITIAL_BLOCK,
      lastLeaseAt: current?.lastLeaseAt ?? 0,
    };
    states.set(keyId, next);
    return next;
  }

  /** The synchronous part of a take: a decision, or undefined when a lease is needed. */
  function spend(s: WindowState, now: number): RateLimitDecision | undefined {
    if (s.local > 0) {
      s.local--;
      const remaining = Math.max(0, Math.min(s.shown, s.limit - s.leased + s.local));
      s.shown = remaining;
      stats.admitted++;
      return {
        allowed: true,
        limit: s.limit,
        remaining,
        reset: s.endMs / 1000,
        retryAfter: secondsUntil(s.endMs, now),
      };
    }
    if (s.limit === 0 || (s.exhausted && now < s.recheckAt)) {
      s.shown = 0;
      stats.denied++;
      return {
        allowed: false,
        limit: s.limit,
        remaining: 0,
        reset: s.endMs / 1000,
        retryAfter: secondsUntil(s.endMs, now),
      };
    }
    return undefined;
  }

  /** Starts the one lease of `s`; resolves true once it settled well, false if KV failed. */
  function startLease(s: WindowState): Promise<boolean> {
    const now = clock();
    if (s.lastLeaseAt > 0) {
      const since = now - s.lastLeaseAt;
      if (since < FAST_LEASE_MS) s.block = Math.min(MAX_BLOCK, s.block * 2);
      else if (since > 4 * FAST_LEASE_MS) s.block = Math.max(INITIAL_BLOCK, s.block >> 1);
    }
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
      const decision = spend(s, now);
      if (decision !== undefined) return decision;
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
    await Promise.all([...states.values()].map((s) => s.inflight));
    const now = clock();
    const giveBacks: Promise<unknown>[] = [];
    for (const s of states.values()) {
      if (s.local > 0 && now < s.endMs) {
        const amount = s.local;
        s.local = 0;
        // Best effort: if KV is down the quota simply expires with its window.
        giveBacks.push(returnQuota(kv, kvKey(s), amount, expireInMs(s, now)).catch(() => {}));
      }
    }
    await Promise.all(giveBacks);
    states.clear();
  }

  return { take, close, stats: () => ({ ...stats }) };
}
