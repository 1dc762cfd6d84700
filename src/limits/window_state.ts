/**
 * The rate limiter's local view of one key in its current window: the quota leased and not yet
 * spent, the `remaining` shown so far, the size of the next block, and the synchronous spending
 * that decides most requests without touching KV.
 *
 * @module
 */

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

/** First block size leased for a key. */
export const INITIAL_BLOCK = 8;
/** Largest block one lease takes, whatever the limit. */
export const MAX_BLOCK = 65_536;
/** A block spent faster than this makes the next one twice as big. */
export const FAST_LEASE_MS = 1_000;
/** A lease never takes more than 1/SHARE_DIVISOR of the quota still unleased. */
export const SHARE_DIVISOR = 4;
/** While a window is exhausted, how often an instance re-reads KV for given-back quota. */
export const RECHECK_MS = 1_000;
/** Quota an instance holds unspent this long after its last admitted request goes back to KV. */
export const IDLE_RETURN_MS = 5_000;

/** Local state of one key in its current window. */
export interface WindowState {
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
  /** When this instance last admitted a request of the window (0 before the first). */
  lastSpendAt: number;
}

/**
 * The state of `keyId` at the start of window `index`, carrying over the block size and last lease
 * time of `previous` (the key's state in an earlier window or under other settings).
 *
 * @example
 * ```ts
 * const s = newWindowState("key_1", 100, 60, 0, undefined);
 * console.log(s.endMs, s.block); // 60000 8
 * ```
 */
export function newWindowState(
  keyId: string,
  limit: number,
  windowSeconds: number,
  index: number,
  previous: WindowState | undefined,
): WindowState {
  return {
    keyId,
    limit,
    windowSeconds,
    index,
    endMs: (index + 1) * (windowSeconds * 1000),
    local: 0,
    leased: 0,
    shown: limit,
    exhausted: false,
    recheckAt: 0,
    waiting: 0,
    inflight: null,
    block: previous?.block ?? INITIAL_BLOCK,
    lastLeaseAt: previous?.lastLeaseAt ?? 0,
    lastSpendAt: 0,
  };
}

/**
 * Grows the block (doubling, up to {@link MAX_BLOCK}) when the last one was spent within
 * {@link FAST_LEASE_MS}, and halves it (down to {@link INITIAL_BLOCK}) when it took over four
 * times that.
 *
 * @example
 * ```ts
 * const s = newWindowState("key_1", 100, 60, 0, undefined);
 * s.lastLeaseAt = 1_000;
 * adjustBlock(s, 1_500);
 * console.log(s.block); // 16
 * ```
 */
export function adjustBlock(s: WindowState, now: number): void {
  if (s.lastLeaseAt > 0) {
    const since = now - s.lastLeaseAt;
    if (since < FAST_LEASE_MS) s.block = Math.min(MAX_BLOCK, s.block * 2);
    else if (since > 4 * FAST_LEASE_MS) s.block = Math.max(INITIAL_BLOCK, s.block >> 1);
  }
}

/**
 * Checks the arguments of a take; a bad one is a programmer error, thrown as a `RangeError`.
 *
 * @example
 * ```ts
 * checkArguments("key_1", 1000, 3600); // fine
 * ```
 */
export function checkArguments(keyId: string, limit: number, windowSeconds: number): void {
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

/**
 * Whole seconds from `now` until `endMs`, at least 1 (`Retry-After`).
 *
 * @example
 * ```ts
 * console.log(secondsUntil(10_500, 9_000)); // 2
 * ```
 */
export function secondsUntil(endMs: number, now: number): number {
  return Math.max(1, Math.ceil((endMs - now) / 1000));
}

/**
 * The synchronous part of a take: a decision from the quota this instance holds, or `undefined`
 * when a lease is needed.
 *
 * @example
 * ```ts
 * const s = newWindowState("key_1", 0, 60, 0, undefined);
 * console.log(spendLocal(s, 0)?.allowed); // false: a limit of 0 admits nothing
 * ```
 */
export function spendLocal(s: WindowState, now: number): RateLimitDecision | undefined {
  if (s.local > 0) {
    s.local--;
    s.lastSpendAt = now;
    const remaining = Math.max(0, Math.min(s.shown, s.limit - s.leased + s.local));
    s.shown = remaining;
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
