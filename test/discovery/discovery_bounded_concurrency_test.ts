import assert from "node:assert/strict";
import { pool, semaphore } from "../../src/discovery/bounded_concurrency.ts";

Deno.test("semaphore: at most `size` holders; waiters enter in arrival order as others release", async () => {
  const acquire = semaphore(2);
  const first = await acquire();
  const second = await acquire();
  const entered: string[] = [];
  const third = acquire().then((release) => (entered.push("third"), release));
  const fourth = acquire().then((release) => (entered.push("fourth"), release));
  await Promise.resolve();
  assert.deepEqual(entered, []);
  first();
  (await third)();
  assert.deepEqual(entered, ["third"]);
  second();
  (await fourth)();
  assert.deepEqual(entered, ["third", "fourth"]);
});

Deno.test("pool: every item is worked on, in order, with at most `limit` in flight", async () => {
  let inFlight = 0;
  let most = 0;
  const started: number[] = [];
  await pool([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
    started.push(item);
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    inFlight--;
  });
  assert.deepEqual(started, [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(most, 3);
  await pool([], 3, () => Promise.reject(new Error("never called")));
});
