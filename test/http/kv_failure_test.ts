import assert from "node:assert/strict";
import { HttpError } from "../../src/http_error.ts";
import { createRateLimiter } from "../../src/limits/rate_limiter.ts";
import { faultyKv } from "../support/faulty_kv.ts";
import { flatImage } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";

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
  assert.equal(limiter.stats().admitted, 0);
  faulty.reads = "up";
  faulty.release();
  // close() waits for the late lease: it lands (8 counted in KV), is credited to this instance
  // and, unspent, given back — so the count returns to 0 instead of leaking 8.
  await limiter.close();
  assert.equal(limiter.stats().leases, 1);
  const entry = await inner.get<number>(["rate_limit", "key_a", 60, Math.floor(START / 60_000)]);
  assert.equal(entry.value, 0);
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

Deno.test("end to end: during a KV outage the endpoint answers 503 in plain text with Retry-After, then recovers", async () => {
  using inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  const clock = { now: START };
  await using server = await startTestApp({
    kv: faulty.kv,
    clock: () => clock.now,
    limit: 1000,
    window: 3600,
  });
  await server.addLogo("example.com", flatImage(64, 64, [10, 120, 200, 255]));
  const get = async () => {
    const response = await server.fetch(server.logoUrl("example.com"));
    return { response, body: response.status === 200 ? null : await response.text() };
  };
  const first = await get();
  assert.equal(first.response.status, 200);
  await first.response.body?.cancel();

  faulty.reads = "down";
  faulty.commits = "down";
  const statuses: number[] = [];
  let unavailable: { response: Response; body: string | null } | undefined;
  for (let i = 0; i < 12; i++) {
    const answer = await get();
    statuses.push(answer.response.status);
    if (answer.response.status === 200) await answer.response.body?.cancel();
    else unavailable ??= answer;
  }
  // The rest of the leased block (8 - 1) is served from memory; then every request is a 503.
  assert.deepEqual(statuses, [...Array(7).fill(200), ...Array(5).fill(503)]);
  assert.ok(unavailable);
  assert.equal(unavailable.body, "Service unavailable");
  assert.match(unavailable.response.headers.get("content-type") ?? "", /^text\/plain/);
  assert.ok(Number(unavailable.response.headers.get("retry-after")) >= 1);

  faulty.reads = "up";
  faulty.commits = "up";
  clock.now += 1_000;
  const recovered = await get();
  assert.equal(recovered.response.status, 200);
  await recovered.response.body?.cancel();
});
