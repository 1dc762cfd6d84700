import assert from "node:assert/strict";
import { parseRetryAfter, retryDelayMs, sleep } from "../../src/sdk/retry.ts";

Deno.test("parseRetryAfter reads seconds and HTTP dates, and nothing else", () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  assert.equal(parseRetryAfter("7", now), 7);
  assert.equal(parseRetryAfter(" 0 ", now), 0);
  assert.equal(parseRetryAfter(new Date(now + 30_000).toUTCString(), now), 30);
  assert.equal(parseRetryAfter(new Date(now - 30_000).toUTCString(), now), 0);
  assert.equal(parseRetryAfter(null, now), undefined);
  assert.equal(parseRetryAfter("soon", now), undefined);
  assert.equal(parseRetryAfter("-3", now), undefined);
});

Deno.test("retryDelayMs follows Retry-After, else backs off exponentially up to 30 s", () => {
  assert.equal(retryDelayMs(3, 0), 3000);
  assert.equal(retryDelayMs(0.25, 5), 250);
  assert.deepEqual([0, 1, 2, 3, 10].map((a) => retryDelayMs(undefined, a)), [
    1000,
    2000,
    4000,
    8000,
    30_000,
  ]);
});

Deno.test("sleep rejects with the signal's reason the moment it aborts, clearing its timer", async () => {
  const controller = new AbortController();
  // An hour-long wait: if abort did not clear the timer, the test's op sanitizer would fail.
  const waiting = sleep(3_600_000, controller.signal);
  const reason = new Error("stop");
  controller.abort(reason);
  await assert.rejects(waiting, (e) => e === reason);
});

Deno.test("sleep rejects at once when the signal was already aborted", async () => {
  const reason = new DOMException("gone", "AbortError");
  await assert.rejects(sleep(3_600_000, AbortSignal.abort(reason)), (e) => e === reason);
});

Deno.test("sleep resolves after its delay, not before, and an abort after that changes nothing", async () => {
  const controller = new AbortController();
  const started = performance.now();
  let resolved = false;
  const waiting = sleep(40, controller.signal).then(() => resolved = true);
  await new Promise((tick) => setTimeout(tick, 0)); // a turn of the event loop: not yet
  assert.equal(resolved, false, "resolved before its delay");
  await waiting;
  // A timer never fires early (a loaded machine only makes it later); 1 ms for clock rounding.
  assert.ok(performance.now() - started >= 39, `resolved after ${performance.now() - started} ms`);
  controller.abort(new Error("late")); // its listener is gone: no rejection, nothing thrown
  assert.equal(resolved, true);
});
