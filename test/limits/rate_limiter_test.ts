import assert from "node:assert/strict";
import {
  createRateLimiter,
  MAX_BLOCK,
  type RateLimitDecision,
} from "../../src/limits/rate_limiter.ts";
import { countCommits } from "../support/counting_kv.ts";

/** 2026-01-01T00:00:10Z: ten seconds into a minute window. */
const START = Date.UTC(2026, 0, 1, 0, 0, 10);

function fixedClock(start = START) {
  const clock = { now: start, read: () => clock.now };
  return clock;
}

async function takeConcurrently(
  take: () => Promise<RateLimitDecision>,
  n: number,
): Promise<RateLimitDecision[]> {
  const order: RateLimitDecision[] = [];
  await Promise.all(Array.from({ length: n }, () => take().then((d) => order.push(d))));
  return order;
}

for (const [n, limit] of [[100, 37], [20, 50], [64, 64], [500, 1], [300, 299]]) {
  Deno.test(`${n} concurrent takes against limit ${limit} admit exactly ${Math.min(n, limit)}`, async () => {
    using kv = await Deno.openKv(":memory:");
    const clock = fixedClock();
    const limiter = createRateLimiter({ kv, clock: clock.read });
    const decisions = await takeConcurrently(() => limiter.take("key_a", limit, 60), n);
    const admitted = decisions.filter((d) => d.allowed);
    assert.equal(admitted.length, Math.min(n, limit));
    assert.equal(decisions.length - admitted.length, Math.max(0, n - limit));
    // Alone on the KV, one instance knows the exact remainder: limit-1, limit-2, ... in order.
    assert.deepEqual(
      admitted.map((d) => d.remaining),
      admitted.map((_, i) => limit - 1 - i),
    );
    for (const d of decisions.filter((d) => !d.allowed)) assert.equal(d.remaining, 0);
    await limiter.close();
  });
}

Deno.test("reset is the window's end in epoch seconds and retryAfter the whole seconds until it", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = fixedClock(Date.UTC(2026, 0, 1, 0, 0, 40, 500));
  const limiter = createRateLimiter({ kv, clock: clock.read });
  const first = await limiter.take("key_a", 1, 60);
  assert.equal(first.allowed, true);
  assert.equal(first.reset, Date.UTC(2026, 0, 1, 0, 1, 0) / 1000);
  assert.equal(first.retryAfter, 20); // 19.5 s left, rounded up
  const second = await limiter.take("key_a", 1, 60);
  assert.equal(second.allowed, false);
  assert.equal(second.limit, 1);
  assert.equal(second.reset, first.reset);
  clock.now = Date.UTC(2026, 0, 1, 0, 0, 59, 900);
  const last = await limiter.take("key_a", 1, 60);
  assert.equal(last.allowed, false);
  assert.equal(last.retryAfter, 1, "never 0 even 100 ms before the reset");
  await limiter.close();
});

Deno.test("windows are aligned to the epoch, so an hour window resets on the hour", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = fixedClock(Date.UTC(2026, 0, 1, 13, 25, 0));
  const limiter = createRateLimiter({ kv, clock: clock.read });
  const decision = await limiter.take("key_a", 5, 3600);
  assert.equal(decision.reset, Date.UTC(2026, 0, 1, 14, 0, 0) / 1000);
  assert.equal(decision.retryAfter, 35 * 60);
  await limiter.close();
});

Deno.test("a new window admits again with a full quota once the clock passes the reset", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const limiter = createRateLimiter({ kv, clock: clock.read });
  const first = await takeConcurrently(() => limiter.take("key_a", 10, 60), 15);
  assert.equal(first.filter((d) => d.allowed).length, 10);
  const blocked = await limiter.take("key_a", 10, 60);
  assert.equal(blocked.allowed, false);

  clock.now = blocked.reset * 1000 - 1; // still the old window
  assert.equal((await limiter.take("key_a", 10, 60)).allowed, false);

  clock.now = blocked.reset * 1000; // the first millisecond of the next window
  const next = await takeConcurrently(() => limiter.take("key_a", 10, 60), 15);
  const admitted = next.filter((d) => d.allowed);
  assert.equal(admitted.length, 10);
  assert.equal(admitted[0].remaining, 9);
  assert.equal(admitted[0].reset, blocked.reset + 60);
  await limiter.close();
});

Deno.test("keys are limited independently", async () => {
  using kv = await Deno.openKv(":memory:");
  const limiter = createRateLimiter({ kv, clock: fixedClock().read });
  const a = await takeConcurrently(() => limiter.take("key_a", 3, 60), 5);
  const b = await takeConcurrently(() => limiter.take("key_b", 4, 60), 5);
  assert.equal(a.filter((d) => d.allowed).length, 3);
  assert.equal(b.filter((d) => d.allowed).length, 4);
  await limiter.close();
});

Deno.test("two instances over one KV admit exactly the limit in total and remaining never rises for either", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const one = createRateLimiter({ kv, clock: clock.read, instanceId: "one" });
  const two = createRateLimiter({ kv, clock: clock.read, instanceId: "two" });
  const limit = 250;
  const seen = { one: [] as number[], two: [] as number[] };
  let admitted = 0;
  const requests: Promise<void>[] = [];
  for (let i = 0; i < 2 * limit; i++) {
    for (const [name, limiter] of [["one", one], ["two", two]] as const) {
      requests.push(
        limiter.take("key_a", limit, 60).then((d) => {
          seen[name].push(d.remaining);
          if (d.allowed) admitted++;
        }),
      );
    }
  }
  await Promise.all(requests);
  assert.equal(admitted, limit);
  for (const remainders of [seen.one, seen.two]) {
    for (let i = 1; i < remainders.length; i++) {
      assert.ok(remainders[i] <= remainders[i - 1], `remaining rose at ${i}: ${remainders}`);
    }
  }
  assert.equal(one.stats().admitted + two.stats().admitted, limit);
  await one.close();
  await two.close();
});

Deno.test("a lease takes a quarter of the unleased quota at most, but enough for every waiter", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const key = (id: string) => ["rate_limit", id, 60, Math.floor(START / 60_000)];
  const limiter = createRateLimiter({ kv, clock: clock.read });
  await limiter.take("big", 1000, 60);
  assert.equal((await kv.get<number>(key("big"))).value, 8, "first block");
  await limiter.take("small", 20, 60);
  assert.equal((await kv.get<number>(key("small"))).value, 5, "a quarter of 20");
  await takeConcurrently(() => limiter.take("crowd", 1000, 60), 50);
  assert.equal((await kv.get<number>(key("crowd"))).value, 50, "one lease for 50 waiters");
  await limiter.close();
});

Deno.test("an instance spending fast never hoards the tail: another instance still gets quota", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const greedy = createRateLimiter({ kv, clock: clock.read });
  for (let i = 0; i < 900; i++) assert.equal((await greedy.take("key_a", 1000, 60)).allowed, true);
  const other = createRateLimiter({ kv, clock: clock.read });
  const decisions = await takeConcurrently(() => other.take("key_a", 1000, 60), 200);
  const admitted = decisions.filter((d) => d.allowed).length;
  assert.ok(admitted > 0, "the other instance got nothing");
  assert.ok(900 + admitted <= 1000);
  await greedy.close();
  await other.close();
});

Deno.test("close gives unspent quota back so another instance can use it", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const first = createRateLimiter({ kv, clock: clock.read });
  assert.equal((await first.take("key_a", 20, 60)).allowed, true);
  await first.close();
  const second = createRateLimiter({ kv, clock: clock.read });
  const decisions = await takeConcurrently(() => second.take("key_a", 20, 60), 40);
  assert.equal(decisions.filter((d) => d.allowed).length, 19);
  await second.close();
});

Deno.test("an exhausted instance picks up quota given back by another once its recheck is due", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const holder = createRateLimiter({ kv, clock: clock.read });
  const waiter = createRateLimiter({ kv, clock: clock.read });
  assert.equal((await holder.take("key_a", 40, 60)).allowed, true); // leases 8, spends 1
  const rest = await takeConcurrently(() => waiter.take("key_a", 40, 60), 50);
  assert.equal(rest.filter((d) => d.allowed).length, 32);
  await holder.close(); // gives its 7 unspent back
  assert.equal((await waiter.take("key_a", 40, 60)).allowed, false, "recheck not yet due");
  clock.now += 1_000;
  const later = await takeConcurrently(() => waiter.take("key_a", 40, 60), 10);
  assert.equal(later.filter((d) => d.allowed).length, 7);
  for (const d of later) assert.equal(d.remaining, 0, "remaining never rises within a window");
  await waiter.close();
});

Deno.test("quota held idle for idleReturnMs goes back to KV; quota still being spent stays", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const key = (id: string) => ["rate_limit", id, 60, Math.floor(START / 60_000)];
  const holder = createRateLimiter({ kv, clock: clock.read, idleReturnMs: 2_000 });
  const other = createRateLimiter({ kv, clock: clock.read });
  assert.equal((await holder.take("key_a", 40, 60)).allowed, true); // leases 8, spends 1
  assert.equal((await holder.take("key_b", 40, 60)).allowed, true);
  clock.now += 1_999;
  assert.equal(await holder.returnIdle(), 0, "not idle long enough");
  assert.equal((await holder.take("key_b", 40, 60)).allowed, true); // key_b is still in use
  clock.now += 1;
  assert.equal(await holder.returnIdle(), 7, "key_a's 7 unspent go back, key_b's stay");
  assert.equal((await kv.get<number>(key("key_a"))).value, 1);
  assert.equal((await kv.get<number>(key("key_b"))).value, 8);
  const rest = await takeConcurrently(() => other.take("key_a", 40, 60), 50);
  assert.equal(rest.filter((d) => d.allowed).length, 39, "nothing of key_a is lost");
  assert.equal(holder.stats().returned, 7);
  await holder.close();
  assert.equal(holder.stats().returned, 13, "close gives back key_b's 6");
  await other.close();
});

Deno.test("a timer gives held quota back without any further take", async () => {
  using kv = await Deno.openKv(":memory:");
  const key = ["rate_limit", "key_a", 60, Math.floor(START / 60_000)];
  const holder = createRateLimiter({ kv, clock: fixedClock().read, idleReturnMs: 0 });
  assert.equal((await holder.take("key_a", 40, 60)).allowed, true); // leases 8, spends 1
  const watch = kv.watch<[number]>([key]).getReader();
  const deadline = setTimeout(() => watch.cancel(), 10_000); // a missing give-back fails, not hangs
  for (;;) {
    const { done, value } = await watch.read();
    if (done || value[0].value === 1) break;
  }
  clearTimeout(deadline);
  await watch.cancel();
  assert.equal((await kv.get<number>(key)).value, 1, "the 7 unspent went back");
  await holder.close();
});

Deno.test("the hot path commits to KV at most once per 20 admitted requests", async () => {
  using kv = await Deno.openKv(":memory:");
  const counter = countCommits(kv);
  const clock = fixedClock();
  const limiter = createRateLimiter({ kv, clock: clock.read });
  let admitted = 0;
  for (let round = 0; round < 200; round++) {
    const decisions = await takeConcurrently(() => limiter.take("key_a", 1_000_000, 3600), 50);
    admitted += decisions.filter((d) => d.allowed).length;
    clock.now += 5; // 10 000 requests/s
  }
  assert.equal(admitted, 10_000);
  const perRequest = counter.commits / admitted;
  assert.ok(perRequest <= 0.05, `${counter.commits} commits for ${admitted} requests`);
  assert.equal(counter.commits, limiter.stats().leases);
  await limiter.close();
});

Deno.test("blocks never exceed MAX_BLOCK however big the limit", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const limiter = createRateLimiter({ kv, clock: clock.read });
  const key = ["rate_limit", "key_a", 60, Math.floor(START / 60_000)];
  let previous = 0;
  let largest = 0;
  for (let i = 0; i < 400_000; i++) {
    const leases = limiter.stats().leases;
    await limiter.take("key_a", Number.MAX_SAFE_INTEGER, 60);
    if (limiter.stats().leases !== leases) {
      const leased = (await kv.get<number>(key)).value ?? 0;
      largest = Math.max(largest, leased - previous);
      previous = leased;
    }
  }
  assert.equal(largest, MAX_BLOCK);
  await limiter.close();
});

Deno.test("a limit of 0 refuses without touching KV", async () => {
  using kv = await Deno.openKv(":memory:");
  const counter = countCommits(kv);
  const limiter = createRateLimiter({ kv, clock: fixedClock().read });
  const decision = await limiter.take("key_a", 0, 60);
  assert.equal(decision.allowed, false);
  assert.equal(decision.remaining, 0);
  assert.equal(counter.commits, 0);
  assert.equal(limiter.stats().leaseAttempts, 0);
  await limiter.close();
});

Deno.test("a changed limit starts a fresh count that never exceeds the new limit", async () => {
  using kv = await Deno.openKv(":memory:");
  const limiter = createRateLimiter({ kv, clock: fixedClock().read });
  const before = await takeConcurrently(() => limiter.take("key_a", 100, 60), 10);
  assert.equal(before.filter((d) => d.allowed).length, 10);
  // Lowered to 12: the 10 already admitted plus the quota leased but unspent still count.
  const after = await takeConcurrently(() => limiter.take("key_a", 12, 60), 10);
  assert.ok(after.filter((d) => d.allowed).length <= 2);
  await limiter.close();
});

Deno.test("invalid arguments are programmer errors (RangeError), not 4xx", async () => {
  using kv = await Deno.openKv(":memory:");
  const limiter = createRateLimiter({ kv });
  await assert.rejects(limiter.take("", 10, 60), RangeError);
  await assert.rejects(limiter.take("key_a", -1, 60), RangeError);
  await assert.rejects(limiter.take("key_a", 1.5, 60), RangeError);
  await assert.rejects(limiter.take("key_a", 10, 0), RangeError);
  await assert.rejects(limiter.take("key_a", 10, 0.5), RangeError);
  await limiter.close();
});

Deno.test("after close, take answers 503 instead of admitting unaccounted requests", async () => {
  using kv = await Deno.openKv(":memory:");
  const limiter = createRateLimiter({ kv });
  await limiter.close();
  await assert.rejects(limiter.take("key_a", 10, 60), (e: unknown) => {
    assert.equal((e as { status: number }).status, 503);
    return true;
  });
});
