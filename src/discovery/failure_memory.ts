/**
 * What discovery remembers about a domain where it found no logo, and for how long.
 *
 * Two kinds of failure are told apart:
 *
 * - `no-icon`: the site answered and has no usable icon (or refused us for good: an address that
 *   is not public, too many redirects…). Remembered for `negativeTtlMs` (a day).
 * - `unreachable`: a network-level failure (DNS, refused or reset connection, TLS, timeout) kept
 *   discovery from getting an answer. Not a verdict on the site: discovery looks again after a
 *   short delay that doubles with each consecutive failure, from {@link RETRY_BASE_MS} (1 min)
 *   up to {@link RETRY_MAX_MS} (1 h). The count is kept for a day after the last failure.
 *
 * KV (see `store/keyspace.ts`): `["discovery", "missing", domain]` → {@link MissingEntry}, with
 * `expireIn` a day (or the retry delay, if longer).
 *
 * @module
 */
import { discoveryMissingKey } from "../store/keyspace.ts";
import { SafeFetchError } from "./safe_fetch.ts";

/** Why discovery found no logo; see the module doc. */
export type FailureKind = "no-icon" | "unreachable";

/** `["discovery", "missing", domain]`: no logo was found. */
export interface MissingEntry {
  /** When discovery gave up (epoch ms). */
  at: number;
  /** Until when misses are answered from this entry without looking again (epoch ms). */
  until: number;
  /** Which kind of failure (entries written before kinds existed count as `no-icon`). */
  kind?: FailureKind;
  /** Consecutive `unreachable` failures, this one included; 0 for `no-icon`. */
  failures?: number;
  /** Why, in one line, without query strings. */
  reason?: string;
}

/** First retry delay after a network-level failure: 1 minute. */
export const RETRY_BASE_MS = 60_000;
/** Longest retry delay after repeated network-level failures: 1 hour. */
export const RETRY_MAX_MS = 60 * 60_000;
/** How long "no usable icon" is remembered by default: a day. */
export const NEGATIVE_TTL_MS = 24 * 60 * 60_000;

/** Delays of {@link rememberFailure}. */
export interface FailureDelays {
  /** How long `no-icon` is remembered; default {@link NEGATIVE_TTL_MS}. */
  negativeTtlMs?: number;
  /** First `unreachable` delay; default {@link RETRY_BASE_MS}. */
  retryBaseMs?: number;
  /** Longest `unreachable` delay; default {@link RETRY_MAX_MS}. */
  retryMaxMs?: number;
}

/**
 * Whether `error` is a network-level failure (DNS, connection, TLS, timeout) rather than an
 * answer or a refusal of ours.
 *
 * @example
 * ```ts
 * import { SafeFetchError } from "./safe_fetch.ts";
 * isNetworkFailure(new SafeFetchError("dns", "https://a.test/", "Cannot resolve a.test")); // true
 * ```
 */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof SafeFetchError &&
    (error.code === "dns" || error.code === "network" || error.code === "tls" ||
      error.code === "timeout");
}

/**
 * The delay before looking again after the `failures`-th consecutive network-level failure:
 * `base · 2^(failures−1)`, at most `max`.
 *
 * @example
 * ```ts
 * retryDelay(1); // 60_000
 * retryDelay(3); // 240_000
 * ```
 */
export function retryDelay(failures: number, base = RETRY_BASE_MS, max = RETRY_MAX_MS): number {
  const doublings = Math.min(Math.max(failures, 1) - 1, 30);
  return Math.min(max, base * 2 ** doublings);
}

/** Removes query strings and fragments from every URL in `text` (they may carry secrets). */
export function withoutQueries(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#]*)[?#][^\s;,]*/gi, "$1");
}

/** The remembered failure of `domain`, or null (never failed, or forgotten after a day). */
export async function readMissing(kv: Deno.Kv, domain: string): Promise<MissingEntry | null> {
  return (await kv.get<MissingEntry>(discoveryMissingKey(domain))).value;
}

/**
 * Records that discovery of `domain` failed at `now`, and returns the entry written.
 *
 * @example
 * ```ts
 * const kv = await Deno.openKv(":memory:");
 * const entry = await rememberFailure(kv, "a.test", "unreachable", Date.now(), "Cannot resolve");
 * console.log(entry.until - entry.at); // 60000, then 120000 after a second failure…
 * ```
 */
export async function rememberFailure(
  kv: Deno.Kv,
  domain: string,
  kind: FailureKind,
  now: number,
  reason: string,
  delays: FailureDelays = {},
): Promise<MissingEntry> {
  const dayMs = delays.negativeTtlMs ?? NEGATIVE_TTL_MS;
  let entry: MissingEntry;
  if (kind === "no-icon") {
    entry = { at: now, until: now + dayMs, kind, failures: 0, reason: withoutQueries(reason) };
  } else {
    const previous = await readMissing(kv, domain);
    const failures = previous?.kind === "unreachable" ? (previous.failures ?? 0) + 1 : 1;
    const delay = retryDelay(failures, delays.retryBaseMs, delays.retryMaxMs);
    entry = { at: now, until: now + delay, kind, failures, reason: withoutQueries(reason) };
  }
  await kv.set(discoveryMissingKey(domain), entry, {
    expireIn: Math.max(dayMs, entry.until - now),
  });
  return entry;
}

/**
 * The one log line of a failed discovery.
 *
 * @example
 * ```ts
 * const entry = { at: 0, until: 60_000, kind: "unreachable" as const, failures: 1, reason: "x" };
 * describeFailure("a.test", entry); // "Discovery could not reach a.test (x); retrying in 1 min"
 * ```
 */
export function describeFailure(domain: string, entry: MissingEntry): string {
  const wait = formatDuration(entry.until - entry.at);
  if (entry.kind === "unreachable") {
    const attempt = (entry.failures ?? 1) > 1 ? `, failure ${entry.failures} in a row` : "";
    return `Discovery could not reach ${domain} (${entry.reason}); retrying in ${wait}${attempt}`;
  }
  return `Discovery found no logo for ${domain} (${entry.reason}); not looking again for ${wait}`;
}

function formatDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 1000)} s`;
}
