/**
 * The resolver's record cache is bounded in bytes: records carry their default rendition's bytes
 * (`src/store/inline_rendition.ts`), so a bound in entries alone (20,000 × ~7 KB) would not be one.
 */
import assert from "node:assert/strict";
import {
  createResolver,
  RECORD_OVERHEAD_BYTES,
  recordCacheBytes,
} from "../../src/http/resolve_logo.ts";
import { STORED_ANSWER_OVERHEAD_BYTES } from "../../src/http/stored_answer.ts";
import type { LogoRecord } from "../../src/store/logo_store.ts";

function recordWithDefault(domain: string, bytes: number): LogoRecord {
  return {
    domain,
    hash: "00".repeat(32),
    type: "image/png",
    width: 128,
    height: 128,
    source: "test",
    createdAt: 0,
    updatedAt: 0,
    pipeline: 1,
    renditions: {
      default: {
        hash: "11".repeat(32),
        type: "image/png",
        width: 128,
        height: 128,
        bytes,
        data: new Uint8Array(bytes),
      },
    },
  };
}

Deno.test("recordCacheBytes counts a record's inlined bytes, its stored answer and an overhead", () => {
  assert.equal(recordCacheBytes(null), RECORD_OVERHEAD_BYTES);
  assert.equal(
    recordCacheBytes(recordWithDefault("a.example", 6_000)),
    RECORD_OVERHEAD_BYTES + 6_000 + STORED_ANSWER_OVERHEAD_BYTES,
  );
  const blobDefault = recordWithDefault("b.example", 6_000);
  delete blobDefault.renditions.default.data;
  assert.equal(recordCacheBytes(blobDefault), RECORD_OVERHEAD_BYTES, "a default kept as a blob");
});

Deno.test("the record cache keeps at most maxBytes of records; a domain asked once pushes none out", async () => {
  const gets: string[] = [];
  const perRecord = RECORD_OVERHEAD_BYTES + 10_000 + STORED_ANSWER_OVERHEAD_BYTES;
  const resolve = createResolver({
    logos: {
      get: (domain) => {
        gets.push(domain);
        return Promise.resolve(recordWithDefault(domain, 10_000));
      },
    },
    maxEntries: 1_000,
    maxBytes: 5 * perRecord,
  });
  const domains = Array.from({ length: 8 }, (_, i) => `d${i}.example`);
  for (const domain of domains) assert.equal((await resolve(domain)).domain, domain);
  assert.equal(gets.length, 8);
  // Each asked once: the three past the budget were answered, and not kept over the first five.
  for (const domain of domains.slice(0, 5)) await resolve(domain);
  assert.equal(gets.length, 8, "the first five are cached");
  await resolve(domains[5]);
  assert.deepEqual(gets.slice(8), [domains[5]], "d5 was not kept, and is read again");
  // Asked a third time, d5 is asked for more often than d1…d4 (twice each): it is kept, and
  // d1, the oldest not asked since, goes; d0, asked again meanwhile, stays.
  await resolve(domains[0]);
  await resolve(domains[5]);
  await resolve(domains[5]);
  assert.deepEqual(gets.slice(8), [domains[5], domains[5]], "kept on its third ask");
  await resolve(domains[0]);
  await resolve(domains[1]);
  assert.deepEqual(gets.slice(10), [domains[1]], "d1 made room for d5; d0 stayed");
});

Deno.test("the record cache's entries are bounded by its bytes: one RECORD_OVERHEAD_BYTES each", async () => {
  const gets: string[] = [];
  const resolve = createResolver({
    logos: {
      get: (domain) => {
        gets.push(domain);
        return Promise.resolve(null);
      },
    },
    maxBytes: 3 * RECORD_OVERHEAD_BYTES,
  });
  for (const domain of ["a.example", "b.example", "c.example", "d.example"]) {
    await resolve(domain).catch(() => undefined);
  }
  assert.deepEqual(resolve.stats(), {
    entries: 3,
    bytes: 3 * RECORD_OVERHEAD_BYTES,
    hits: 0,
    misses: 4,
  });
  await resolve("a.example").catch(() => undefined);
  assert.equal(gets.filter((d) => d === "a.example").length, 2, "the oldest went first");
});
