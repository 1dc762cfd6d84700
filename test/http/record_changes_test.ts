/**
 * The resolver with a change feed (`src/store/logo_change_feed.ts`): a record stays cached past
 * its TTL while the feed confirms it, goes when the feed names its domain or says changes were
 * missed, falls back to the TTL when the feed stops confirming, and never outlives
 * `LOGO_CACHE_MAX_AGE_MS`.
 */
import assert from "node:assert/strict";
import { createResolver, LOGO_CACHE_MAX_AGE_MS } from "../../src/http/resolve_logo.ts";
import type { LogoChangeListener } from "../../src/store/logo_change_feed.ts";
import type { LogoRecord } from "../../src/store/logo_store.ts";

const TTL = 5_000;

/** A feed driven by the test, and a resolver whose store counts its reads. */
function setUp() {
  const state = { now: 1_000_000, confirmed: -Infinity };
  const listeners = new Set<LogoChangeListener>();
  const feed = {
    subscribe(listener: LogoChangeListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    confirmedAt: () => state.confirmed,
  };
  const reads: string[] = [];
  const stored = new Map<string, number>([["a.example", 1], ["b.example", 1]]);
  const resolve = createResolver({
    logos: {
      get(domain) {
        reads.push(domain);
        const version = stored.get(domain);
        return Promise.resolve(version === undefined ? null : record(domain, version));
      },
    },
    clock: () => state.now,
    ttlMs: TTL,
    changes: feed,
  });
  return { state, listeners, resolve, reads, stored };
}

function record(domain: string, version: number): LogoRecord {
  return {
    domain,
    hash: String(version).padStart(64, "0"),
    type: "image/png",
    width: 10,
    height: 10,
    source: "test",
    createdAt: 0,
    updatedAt: version,
    pipeline: 2,
    renditions: {},
  };
}

Deno.test("a confirmed record outlives its TTL; a named domain is read again, the others not", async () => {
  const { state, listeners, resolve, reads, stored } = setUp();
  await resolve("a.example");
  await resolve("b.example");
  state.now += 10 * TTL;
  state.confirmed = state.now - 1;
  assert.equal((await resolve("a.example")).record.updatedAt, 1);
  assert.deepEqual(reads, ["a.example", "b.example"], "no read while confirmed");

  stored.set("a.example", 2);
  for (const listener of listeners) listener.changed(["a.example"]);
  assert.equal((await resolve("a.example")).record.updatedAt, 2);
  await resolve("b.example");
  assert.deepEqual(reads, ["a.example", "b.example", "a.example"]);
});

Deno.test("an absence is forgotten when its domain is named: an added logo is served", async () => {
  const { state, listeners, resolve, reads, stored } = setUp();
  await assert.rejects(resolve("new.example"), /Logo not found/);
  state.confirmed = state.now;
  await assert.rejects(resolve("new.example"), /Logo not found/);
  assert.equal(reads.length, 1);
  stored.set("new.example", 1);
  for (const listener of listeners) listener.changed(["new.example"]);
  assert.equal((await resolve("new.example")).domain, "new.example");
});

Deno.test("missed changes drop every record", async () => {
  const { state, listeners, resolve, reads } = setUp();
  await resolve("a.example");
  await resolve("b.example");
  state.confirmed = state.now;
  for (const listener of listeners) listener.cleared();
  await resolve("a.example");
  await resolve("b.example");
  assert.deepEqual(reads, ["a.example", "b.example", "a.example", "b.example"]);
});

Deno.test("without confirmations a record lives its TTL; confirmed, at most the max age", async () => {
  const { state, resolve, reads } = setUp();
  const loadedAt = state.now;
  await resolve("a.example");
  state.now = loadedAt + TTL - 1;
  await resolve("a.example");
  state.now = loadedAt + TTL;
  await resolve("a.example");
  assert.equal(reads.length, 2, "never confirmed: read again after the TTL");

  const reloadedAt = state.now;
  state.now = reloadedAt + LOGO_CACHE_MAX_AGE_MS - 1;
  state.confirmed = state.now;
  await resolve("a.example");
  assert.equal(reads.length, 2);
  state.now = reloadedAt + LOGO_CACHE_MAX_AGE_MS;
  state.confirmed = state.now;
  await resolve("a.example");
  assert.equal(reads.length, 3, "read again at the max age");
});

Deno.test("close stops listening to the feed", async () => {
  const { listeners, resolve } = setUp();
  assert.equal(listeners.size, 1);
  resolve.close();
  assert.equal(listeners.size, 0);
  await Promise.resolve();
});
