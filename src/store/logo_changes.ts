/**
 * The change signal of logos, written side: every commit that adds, replaces or removes a logo
 * record also bumps one counter (`["changes", "logos"]`, a `Deno.KvU64` summed, so concurrent
 * writers never conflict on it) and adds one entry to a short-lived change log
 * (`["changes", "log", ms, domain]`, expiring after {@link CHANGE_LOG_TTL_MS}).
 *
 * Servers read them once a second (`logo_change_feed.ts`) instead of re-reading every cached
 * record every few seconds: the counter says whether anything changed, the log says which domains,
 * and a counter that moved further than the log explains means entries were missed, so everything
 * is dropped. They are in the record's own atomic commit, so a logo is never visible without its
 * change being counted.
 *
 * @example
 * ```ts
 * import { markLogoChanged } from "./logo_changes.ts";
 * import { logoKey } from "./keyspace.ts";
 * const kv = await Deno.openKv(":memory:");
 * const op = kv.atomic().delete(logoKey("example.com"));
 * await markLogoChanged(op, "example.com", Date.now()).commit();
 * kv.close();
 * ```
 * @module
 */
import { LOGO_CHANGE_COUNT_KEY, logoChangeKey } from "./keyspace.ts";

/** How long a change log entry lives: far longer than any reader waits between two reads. */
export const CHANGE_LOG_TTL_MS = 10 * 60_000;

/**
 * Adds to `op` the change mark of `domain`'s logo, written at epoch-ms `now` (the writer's clock):
 * the counter's bump and the log entry. Returns `op`.
 */
export function markLogoChanged(
  op: Deno.AtomicOperation,
  domain: string,
  now: number,
): Deno.AtomicOperation {
  return op
    .sum(LOGO_CHANGE_COUNT_KEY, 1n)
    .set(logoChangeKey(Math.max(0, Math.floor(now)), domain), true, {
      expireIn: CHANGE_LOG_TTL_MS,
    });
}
