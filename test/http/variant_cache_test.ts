import assert from "node:assert/strict";
import { type Variant, VariantCache } from "../../src/http/variant_cache.ts";

function variant(size: number): Variant {
  return { bytes: new Uint8Array(size), contentType: "image/png" };
}

Deno.test("VariantCache evicts the least recently used entry to stay under its byte budget", () => {
  // Each entry costs its bytes plus 128 of bookkeeping: 3 entries of 872 fit in 3000.
  const cache = new VariantCache({ maxBytes: 3_000, maxEntryBytes: 3_000 });
  cache.set("a", variant(872));
  cache.set("b", variant(872));
  cache.set("c", variant(872));
  assert.ok(cache.get("a")); // a is now the most recent
  cache.set("d", variant(872));
  assert.equal(cache.get("b"), undefined, "b was the least recently used");
  assert.ok(cache.get("a"));
  assert.ok(cache.get("c"));
  assert.ok(cache.get("d"));
  const stats = cache.stats();
  assert.equal(stats.entries, 3);
  assert.equal(stats.bytes, 3_000);
  assert.equal(stats.evictions, 1);
});

Deno.test("VariantCache does not keep an entry larger than its per-entry limit", () => {
  const cache = new VariantCache({ maxBytes: 10_000 });
  cache.set("small", variant(100));
  cache.set("huge", variant(5_000)); // over a quarter of the budget
  assert.equal(cache.get("huge"), undefined);
  assert.ok(cache.get("small"));
});

Deno.test("VariantCache replacing a key accounts its bytes once", () => {
  const cache = new VariantCache({ maxBytes: 10_000 });
  cache.set("a", variant(1_000));
  cache.set("a", variant(500));
  assert.equal(cache.stats().bytes, 628);
  assert.equal(cache.stats().entries, 1);
});

Deno.test("VariantCache.getOrCreate shares one production among concurrent callers", async () => {
  const cache = new VariantCache();
  let calls = 0;
  let finish!: (v: Variant) => void;
  let started!: () => void;
  const productionStarted = new Promise<void>((resolve) => started = resolve);
  const produce = () => {
    calls++;
    started();
    return new Promise<Variant>((resolve) => finish = resolve);
  };
  const waiting = Array.from({ length: 10 }, () => cache.getOrCreate("k", produce));
  await productionStarted;
  finish(variant(10));
  const results = await Promise.all(waiting);
  assert.equal(calls, 1);
  assert.ok(results.every((r) => r === results[0]));
  assert.equal(await cache.getOrCreate("k", produce), results[0]);
  assert.equal(calls, 1);
});

Deno.test("VariantCache does not remember a failed production", async () => {
  const cache = new VariantCache();
  let calls = 0;
  const failing = () => {
    calls++;
    return Promise.reject(new Error("render failed"));
  };
  const results = await Promise.allSettled([
    cache.getOrCreate("k", failing),
    cache.getOrCreate("k", failing),
  ]);
  assert.ok(results.every((r) => r.status === "rejected"));
  assert.equal(calls, 1);
  const value = await cache.getOrCreate("k", () => Promise.resolve(variant(1)));
  assert.equal(value.bytes.length, 1);
});

Deno.test("VariantCache gives each used entry one second chance, then evicts the oldest", () => {
  const cache = new VariantCache({ maxBytes: 3_000, maxEntryBytes: 3_000 });
  for (const key of ["a", "b", "c"]) cache.set(key, variant(872));
  for (const key of ["a", "b", "c"]) assert.ok(cache.get(key)); // all used
  cache.set("d", variant(872)); // a, b, c each move once, unmarked; then a goes
  assert.equal(cache.has("a"), false, "every entry was used: the oldest goes");
  cache.set("e", variant(872)); // b is unmarked now: it goes, not c or d
  assert.equal(cache.has("b"), false);
  assert.ok(cache.has("c") && cache.has("d") && cache.has("e"));
  assert.equal(cache.stats().evictions, 2);
});

Deno.test("VariantCache with admission does not let one-off entries push popular ones out", async () => {
  // 3 entries of 872 + 128 fit in 3000.
  const cache = new VariantCache({ maxBytes: 3_000, maxEntryBytes: 3_000, admission: true });
  const produced: string[] = [];
  const ask = (key: string) =>
    cache.getOrCreate(key, () => {
      produced.push(key);
      return Promise.resolve(variant(872));
    });
  for (const key of ["a", "b", "c", "a", "b", "c"]) await ask(key);
  for (const key of ["d", "e", "f"]) assert.equal((await ask(key)).bytes.byteLength, 872);
  for (const key of ["a", "b", "c"]) await ask(key);
  assert.deepEqual(produced, ["a", "b", "c", "d", "e", "f"]);
  assert.equal(cache.stats().evictions, 0);
  // a, b and c were asked for 3 times each: d gets in when asked for a fourth time, not before.
  await ask("d");
  await ask("d");
  assert.equal(produced.filter((key) => key === "d").length, 3);
  assert.equal(cache.stats().evictions, 0, "a tie keeps the held entry");
  await ask("d");
  await ask("d");
  assert.equal(produced.filter((key) => key === "d").length, 4);
  assert.equal(cache.stats().evictions, 1);
  assert.equal(cache.stats().bytes, 3_000);
  // Without admission the one-off entries evict the popular ones.
  const plain = new VariantCache({ maxBytes: 3_000, maxEntryBytes: 3_000 });
  for (const key of ["a", "b", "c", "a", "b", "c", "d", "e", "f"]) {
    await plain.getOrCreate(key, () => Promise.resolve(variant(872)));
  }
  assert.equal(plain.get("a"), undefined);
});
