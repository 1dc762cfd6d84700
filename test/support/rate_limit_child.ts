/**
 * A child process for test/limits/rate_limiter_multiprocess_test.ts: one limiter instance over a shared
 * KV file. Prints "ready", waits for a line on stdin (so all children start together), makes its
 * takes in concurrent batches, gives unspent quota back, and prints a JSON summary.
 *
 * Usage: deno run -A test/support/rate_limit_child.ts KV_PATH KEY_ID LIMIT WINDOW_S TAKES NOW_MS
 *
 * @module
 */
import { createRateLimiter } from "../../src/limits/rate_limiter.ts";

/** What the child prints on its last line. */
export interface ChildSummary {
  /** Takes admitted. */
  admitted: number;
  /** Takes refused with 429. */
  denied: number;
  /** Whether `remaining` never rose across this child's decisions, in completion order. */
  monotone: boolean;
  /** Successful leases (one KV commit each). */
  leases: number;
}

if (import.meta.main) {
  const [path, keyId, limit, windowSeconds, takes, now] = Deno.args;
  const kv = await Deno.openKv(path);
  const limiter = createRateLimiter({
    kv,
    clock: () => Number(now),
    instanceId: `pid ${Deno.pid}`,
  });
  console.log("ready");
  const reader = Deno.stdin.readable.getReader();
  await reader.read();
  reader.releaseLock();

  let admitted = 0;
  let denied = 0;
  let last = Infinity;
  let monotone = true;
  const batch = 50;
  for (let done = 0; done < Number(takes); done += batch) {
    const size = Math.min(batch, Number(takes) - done);
    await Promise.all(Array.from({ length: size }, async () => {
      const decision = await limiter.take(keyId, Number(limit), Number(windowSeconds));
      if (decision.remaining > last) monotone = false;
      last = decision.remaining;
      if (decision.allowed) admitted++;
      else denied++;
    }));
  }
  await limiter.close();
  kv.close();
  const summary: ChildSummary = { admitted, denied, monotone, leases: limiter.stats().leases };
  console.log(JSON.stringify(summary));
}
