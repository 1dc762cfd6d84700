import assert from "node:assert/strict";
import { HttpError } from "../src/http_error.ts";
import { createRateLimiter } from "../src/rate_limiter.ts";
import { faultyKv } from "./support/faulty_kv.ts";

const START = Date.UTC(2026, 0, 1, 0, 0, 10);

function fixedClock(start = START) {
  const clock = { now: start, read: () => clock.now };
  return clock;
}

function isUnavailable(error: unknown): boolean {
  assert.ok(error instanceof HttpError, `expected an HttpError, got ${error}`);
  assert.equal(error.status, 503);
  assert.equal(error.publicMessage, "Service unavailable");
  const retryAfter = Number(error.headers["Retry-After"]);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${retryAfter}`);
  return true;
}

Deno.test("KV down before any lease: every take is a 503 with Retry-After and nothing is admitted", async () => {
  using inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  faulty.reads = "down";
  faulty.commits = "down";
  const limiter = createRateLimiter({ kv: faulty.kv, clock: fixedClock().read });
  const outcomes = await Promise.allSettled(
    Array.from({ length: 20 }, () => limiter.take("key_a", 100, 60)),
  );
  for (const outcome of outcomes) {
    assert.equal(outcome.status, "rejected");
    isUnavailable(outcome.reason);
  }
  assert.equal(limiter.stats().admitted, 0);
  assert.equal(faulty.calls, 1, "20 concurrent requests share one failed lease attempt");
  await limiter.close();
});

Deno.test("a failed commit after a good read admits nothing", async () => {
  using inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  faulty.commits = "down";
  const limiter = createRateLimiter({ kv: faulty.kv, clock: fixedClock().read });
  await assert.rejects(limiter.take("key_a", 100, 60), isUnavailable);
  assert.equal(limiter.stats().admitted, 0);
  assert.equal(
    (await inner.get(["rate_limit", "key_a", 60, Math.floor(START / 60_000)])).value,
    null,
  );
  await limiter.close();
});

Deno.test("during an outage only quota already leased is spent, then requests get 503", async () => {
  using inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  const limiter = createRateLimiter({ kv: faulty.kv, clock: fixedClock().read });
  assert.equal((await limiter.take("key_a", 100, 60)).allowed, true); // leases a block of 8
  faulty.reads = "down";
  faulty.commits = "down";
  const outcomes = await Promise.allSettled(
    Array.from({ length: 20 }, () => limiter.take("key_a", 100, 60)),
  );
  const admitted = outcomes.filter((o) => o.status === "fulfilled" && o.value.allowed).length;
  assert.equal(admitted, 7, "the 7 units left of the leased block");
  for (const o of outcomes.filter((o) => o.status === "rejected")) isUnavailable(o.reason);
  assert.equal(outcomes.filter((o) => o.status === "rejected").length, 13);
  await limiter.close();
});

Deno.test("after a failure, requests needing KV fail fast until the backoff ends, then it recovers by itself", async () => {
  using inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  const clock = fixedClock();
  const limiter = createRateLimiter({ kv: faulty.kv, clock: clock.read, backoffMs: 1_000 });
  faulty.reads = "down";
  await assert.rejects(limiter.take("key_a", 100, 60), isUnavailable);
  const calls = faulty.calls;
  faulty.reads = "up";
  clock.now += 999;
  await assert.rejects(limiter.take("key_a", 100, 60), (error) => {
    isUnavailable(error);
    assert.equal((error as HttpError).headers["Retry-After"], "1");
    return true;
  });
  assert.equal(faulty.calls, calls, "no KV call during the backoff");
  clock.now += 1;
  const decision = await limiter.take("key_a", 100, 60);
  assert.equal(decision.allowed, true);
  assert.equal(decision.remaining, 99);
  await limiter.close();
});

Deno.test("a KV that hangs gives 503 after the lease timeout; a lease that lands later is kept, not lost", async () => {
  using inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  const clock = fixedClock();
  const limiter = createRateLimiter({
    kv: faulty.kv,
    clock: clock.read,
    leaseTimeoutMs: 0,
    backoffMs: 1_000,
  });
  faulty.reads = "hang";
  await assert.rejects(limiter.take("key_a", 100, 60), isUnavailable);
  faulty.reads = "up";
  faulty.release();
  clock.now += 1_000;
  // The hung lease completes now; its quota (8) is spent before any new lease is taken.
  const decisions = await Promise.all(
    Array.from({ length: 8 }, () => limiter.take("key_a", 100, 60)),
  );
  assert.ok(decisions.every((d) => d.allowed));
  assert.equal(limiter.stats().leases, 1);
  await limiter.close();
});

Deno.test("close during an outage does not throw; the unspent quota expires with its window", async () => {
  using inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  const limiter = createRateLimiter({ kv: faulty.kv, clock: fixedClock().read });
  assert.equal((await limiter.take("key_a", 100, 60)).allowed, true);
  faulty.reads = "down";
  faulty.commits = "down";
  await limiter.close();
  const entry = await inner.get<number>(["rate_limit", "key_a", 60, Math.floor(START / 60_000)]);
  assert.equal(entry.value, 8, "still counted as leased: never more than the limit");
});
