/**
 * Rate-limit plans: the one place that says how many requests a key may make per window.
 *
 * A key stores its own `limit` and `window` when it is created (from its plan, or from explicit
 * `--limit`/`--window` overrides), so changing a plan here affects keys created afterwards only.
 *
 * @example
 * ```ts
 * import { resolvePlan } from "./plans.ts";
 * const { limit, window } = resolvePlan("pro"); // 1000 requests per 60 s
 * ```
 * @module
 */

/** A rate-limit plan: `limit` requests per `window` seconds. */
export interface Plan {
  /** Requests allowed per window. */
  readonly limit: number;
  /** Window length in seconds. */
  readonly window: number;
}

/**
 * The plans, by name. `free` is the default. Windows are short enough that a burst (a page with
 * fifty `<img>` logos) fits easily while a runaway script is stopped within the window.
 */
export const PLANS: Readonly<Record<string, Plan>> = Object.freeze({
  /** Trying it out, personal projects: 1,000 requests an hour. */
  free: Object.freeze({ limit: 1_000, window: 3_600 }),
  /** Small production sites: 10,000 requests an hour. */
  starter: Object.freeze({ limit: 10_000, window: 3_600 }),
  /** Busy sites and backends: 1,000 requests a minute (60,000 an hour). */
  pro: Object.freeze({ limit: 1_000, window: 60 }),
  /** Large deployments: 10,000 requests a minute. */
  enterprise: Object.freeze({ limit: 10_000, window: 60 }),
});

/** The plan a key gets when none is named. */
export const DEFAULT_PLAN = "free";

/** The name stored on a key whose limit and window were given explicitly without a plan. */
export const CUSTOM_PLAN = "custom";

/** Bounds of an explicit limit: at least 1 request, at most one billion per window. */
export const LIMIT_BOUNDS: Readonly<{ min: number; max: number }> = Object.freeze({
  min: 1,
  max: 1_000_000_000,
});

/** Bounds of an explicit window: 1 second to 31 days. */
export const WINDOW_BOUNDS: Readonly<{ min: number; max: number }> = Object.freeze({
  min: 1,
  max: 31 * 24 * 3_600,
});

/** Names of the configured plans, in declaration order. */
export function planNames(): string[] {
  return Object.keys(PLANS);
}

/**
 * Returns the plan called `name`.
 *
 * @throws {RangeError} "Unknown plan "x" (plans: free, starter, pro, enterprise)".
 */
export function resolvePlan(name: string = DEFAULT_PLAN): Plan {
  if (!Object.hasOwn(PLANS, name)) {
    throw new RangeError(`Unknown plan "${name}" (plans: ${planNames().join(", ")})`);
  }
  return PLANS[name];
}
