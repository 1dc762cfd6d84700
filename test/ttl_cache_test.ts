import assert from "node:assert/strict";
import { TtlCache } from "../src/ttl_cache.ts";

function counting() {
  const loads: string[] = [];
  return {
    loads,
    load: (key: string) => {
      loads.push(key);
      return Promise.resolve(key.length);
    },
  };
}

Deno.test("TtlCache reuses an answer until its TTL is over", async () => {
  const clock = { now: 1_000 };
  const { loads, load } = counting();
  const cache = new TtlCache<number>({ ttlMs: 100, maxEntries: 10, clock: () => clock.now, load });
  assert.equal(await cache.get("abc"), 3);
  clock.now = 1_099;
  assert.equal(await cache.get("abc"), 3);
  assert.equal(loads.length, 1);
  clock.now = 1_100;
  await cache.get("abc");
  assert.equal(loads.length, 2);
});

Deno.test("TtlCache loads once for concurrent misses of a key", async () => {
  const { loads, load } = counting();
  const cache = new TtlCache<number>({ ttlMs: 1_000, maxEntries: 10, load });
  await Promise.all([cache.get("a"), cache.get("a"), cache.get("a"), cache.get("b")]);
  assert.deepEqual(loads, ["a", "b"]);
});

Deno.test("TtlCache drops a failed load so the next get loads again", async () => {
  let fail = true;
  const cache = new TtlCache<string>({
    ttlMs: 1_000,
    maxEntries: 10,
    load: () => fail ? Promise.reject(new Error("down")) : Promise.resolve("up"),
  });
  await assert.rejects(cache.get("k"), /down/);
  fail = false;
  assert.equal(await cache.get("k"), "up");
});

Deno.test("TtlCache holds at most maxEntries keys, oldest out first", async () => {
  const { loads, load } = counting();
  const cache = new TtlCache<number>({ ttlMs: 1_000, maxEntries: 2, load });
  for (const key of ["a", "b", "c"]) await cache.get(key);
  assert.equal(cache.size, 2);
  await cache.get("c");
  await cache.get("b");
  assert.equal(loads.length, 3);
  await cache.get("a");
  assert.equal(loads.length, 4, "a was evicted");
});

Deno.test("TtlCache.delete forgets a key; a per-call loader overrides the default", async () => {
  const { loads, load } = counting();
  const cache = new TtlCache<number>({ ttlMs: 1_000, maxEntries: 10, load });
  await cache.get("a");
  cache.delete("a");
  assert.equal(await cache.get("a", () => Promise.resolve(42)), 42);
  assert.deepEqual(loads, ["a"]);
});

Deno.test("TtlCache counts hits (a load in flight included) and misses into shared counts", async () => {
  let now = 0;
  const counts = { hits: 0, misses: 0 };
  const { load } = counting();
  const cache = new TtlCache<number>({ ttlMs: 10, maxEntries: 10, clock: () => now, load, counts });
  await Promise.all([cache.get("a"), cache.get("a")]);
  await cache.get("b");
  assert.deepEqual(counts, { hits: 1, misses: 2 });
  now = 10;
  await cache.get("a");
  assert.deepEqual(counts, { hits: 1, misses: 3 }, "an expired entry is a miss");
});

Deno.test("TtlCache with sizeOf keeps loaded answers under maxBytes, the oldest going first", async () => {
  let now = 0;
  const loads: string[] = [];
  const cache = new TtlCache<string>({
    ttlMs: 1_000,
    maxEntries: 100,
    maxBytes: 10,
    sizeOf: (value) => value.length,
    clock: () => now,
    load: (key) => {
      loads.push(key);
      return Promise.resolve(key.repeat(4)); // "a" weighs 4 bytes
    },
  });
  await cache.get("a");
  await cache.get("b");
  assert.equal(cache.bytes, 8);
  await cache.get("c"); // 12 bytes: a goes
  assert.deepEqual([cache.size, cache.bytes], [2, 8]);
  await cache.get("b");
  await cache.get("a");
  assert.deepEqual(loads, ["a", "b", "c", "a"], "b stayed, a was evicted");
  cache.delete("c");
  assert.equal(cache.bytes, 4, "delete gives the bytes back");
  now = 2_000;
  await cache.get("a"); // expired: replaced by a fresh load
  assert.deepEqual([cache.size, cache.bytes], [1, 4]);
  assert.equal(await cache.get("xxx"), "xxxxxxxxxxxx", "12 bytes alone: answered…");
  assert.deepEqual([cache.size, cache.bytes], [1, 4], "…not kept, and nothing evicted");
  await cache.get("a");
  assert.equal(loads.filter((key) => key === "a").length, 3, "a is still cached");
});

Deno.test("TtlCache drops every expired entry on the next get, not only the key asked for", async () => {
  const clock = { now: 1_000 };
  const { load } = counting();
  const cache = new TtlCache<number>({ ttlMs: 100, maxEntries: 10, clock: () => clock.now, load });
  for (const key of ["a", "b", "c"]) await cache.get(key);
  clock.now = 1_050;
  await cache.get("d");
  assert.equal(cache.size, 4);
  clock.now = 1_100; // a, b and c expire; d lives until 1_150
  await cache.get("d");
  assert.equal(cache.size, 1);
});

Deno.test("TtlCache with confirmedAt keeps an answer while confirmed, up to maxAgeMs", async () => {
  const clock = { now: 1_000, confirmed: -Infinity };
  const { loads, load } = counting();
  const cache = new TtlCache<number>({
    ttlMs: 100,
    maxEntries: 10,
    clock: () => clock.now,
    load,
    confirmedAt: () => clock.confirmed,
    maxAgeMs: 1_000,
  });
  await cache.get("abc");
  // Confirmed at 1,050: live until 1,150, though loaded at 1,000 with a TTL of 100.
  clock.confirmed = 1_050;
  clock.now = 1_149;
  await cache.get("abc");
  assert.equal(loads.length, 1);
  // The confirmations stop: the answer goes one TTL after the last.
  clock.now = 1_150;
  await cache.get("abc");
  assert.equal(loads.length, 2, "unconfirmed for a TTL: loaded again");
  // Confirmed all along, it still goes at maxAgeMs after its load.
  clock.confirmed = 2_149;
  clock.now = 2_149;
  await cache.get("abc");
  assert.equal(loads.length, 2);
  clock.confirmed = 2_150;
  clock.now = 2_150;
  await cache.get("abc");
  assert.equal(loads.length, 3, "maxAgeMs after its load");
});

Deno.test("TtlCache.clear forgets every key and every byte", async () => {
  const { loads, load } = counting();
  const cache = new TtlCache<number>({
    ttlMs: 1_000,
    maxEntries: 10,
    load,
    sizeOf: (n) => n,
    maxBytes: 100,
  });
  await Promise.all([cache.get("a"), cache.get("bb")]);
  assert.equal(cache.bytes, 3);
  cache.clear();
  assert.equal(cache.size, 0);
  assert.equal(cache.bytes, 0);
  await cache.get("a");
  assert.deepEqual(loads, ["a", "bb", "a"]);
  assert.equal(cache.bytes, 1);
});

Deno.test("TtlCache with secondChance keeps a key hit since its load over an older unused one", async () => {
  const { loads, load } = counting();
  const cache = new TtlCache<number>({ ttlMs: 1_000, maxEntries: 3, load, secondChance: true });
  for (const key of ["a", "b", "c"]) await cache.get(key);
  await cache.get("a"); // a hit: a is kept at the next eviction, b (unused, next oldest) goes
  await cache.get("d");
  assert.deepEqual(loads, ["a", "b", "c", "d"]);
  await cache.get("a");
  await cache.get("c");
  assert.equal(loads.length, 4, "a and c still held");
  await cache.get("b");
  assert.equal(loads.length, 5, "b was evicted");
  // Without secondChance the same sequence evicts the oldest loaded, a, although it was hit.
  const fifo = counting();
  const plain = new TtlCache<number>({ ttlMs: 1_000, maxEntries: 3, load: fifo.load });
  for (const key of ["a", "b", "c"]) await plain.get(key);
  await plain.get("a");
  await plain.get("d");
  await plain.get("a");
  assert.deepEqual(fifo.loads, ["a", "b", "c", "d", "a"]);
});

Deno.test("TtlCache with secondChance gives no second chance to an expired entry", async () => {
  const clock = { now: 0 };
  const { loads, load } = counting();
  const cache = new TtlCache<number>({
    ttlMs: 100,
    maxEntries: 3,
    clock: () => clock.now,
    load,
    secondChance: true,
  });
  await cache.get("a"); // loaded at 0
  clock.now = 60;
  await cache.get("bb");
  await cache.get("a");
  clock.now = 70;
  await cache.get("ccc");
  clock.now = 80;
  await cache.get("dddd"); // a (used) moves to the young end, bb (unused) goes: ccc, a, dddd
  clock.now = 90;
  await cache.get("a");
  await cache.get("ccc");
  clock.now = 110; // a expired; ccc, the oldest, is live
  await cache.get("eeeee"); // ccc (used) moves; a is used but expired: it goes, not dddd
  await cache.get("dddd");
  await cache.get("ccc");
  assert.deepEqual(loads, ["a", "bb", "ccc", "dddd", "eeeee"]);
  assert.equal(cache.size, 3);
});

Deno.test("TtlCache with secondChance and sizeOf stays under maxBytes", async () => {
  const { load } = counting();
  const cache = new TtlCache<number>({
    ttlMs: 1_000,
    maxEntries: 100,
    load,
    sizeOf: (n) => n,
    maxBytes: 10,
    secondChance: true,
  });
  for (const key of ["aaaa", "bbbb"]) await cache.get(key);
  await cache.get("aaaa");
  await cache.get("bbbb");
  await cache.get("cccc"); // 12 bytes > 10: one of the two used entries goes after their chance
  assert.ok(cache.bytes <= 10, `bytes ${cache.bytes}`);
  assert.equal(cache.size, 2);
});

Deno.test("TtlCache with admission keeps a popular key over one asked for once", async () => {
  const { loads, load } = counting();
  // Each answer counts its key's length; 3 bytes hold three one-letter keys.
  const options = { ttlMs: 1_000, maxEntries: 100, maxBytes: 3, sizeOf: (n: number) => n, load };
  const cache = new TtlCache<number>({ ...options, secondChance: true, admission: true });
  for (const key of ["a", "b", "c"]) await cache.get(key);
  for (const key of ["a", "b", "c"]) await cache.get(key); // each asked twice
  // A stream of keys asked for once each: every one is answered, none is kept.
  for (const key of ["d", "e", "f", "g"]) assert.equal(await cache.get(key), 1);
  for (const key of ["a", "b", "c"]) await cache.get(key);
  assert.deepEqual(loads, ["a", "b", "c", "d", "e", "f", "g"], "a, b and c were never evicted");
  assert.equal(cache.size, 3);
  assert.equal(cache.bytes, 3);
  // a, b and c were asked for 3 times each: d is kept once asked for a fourth time, not before.
  await cache.get("d");
  await cache.get("d");
  assert.equal(loads.filter((key) => key === "d").length, 3, "asked 3 times: a tie, not kept");
  await cache.get("d");
  await cache.get("d");
  assert.equal(loads.filter((key) => key === "d").length, 4, "d was kept on its fourth load");
  assert.equal(cache.bytes, 3);
  // Without admission the same one-off stream pushes the popular keys out.
  const plain = counting();
  const lru = new TtlCache<number>({ ...options, load: plain.load, secondChance: true });
  for (const key of ["a", "b", "c", "a", "b", "c", "d", "e", "f", "g", "a"]) await lru.get(key);
  assert.equal(plain.loads.filter((key) => key === "a").length, 2);
});
