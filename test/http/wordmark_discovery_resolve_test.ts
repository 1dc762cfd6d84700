/**
 * The resolve step asks discovery for a wordmark (`src/http/resolve_logo.ts`): a `type=logo`
 * request for a domain with an icon and no wordmark calls `discover` for the registrable domain
 * once per `WORDMARK_LOOK_TTL_MS` in a process, whatever the subdomains and however many requests
 * at once; a wordmark it stores is served; `type=icon` never asks.
 */
import assert from "node:assert/strict";
import { createResolver, WORDMARK_LOOK_TTL_MS } from "../../src/http/resolve_logo.ts";
import type { LogoRecord, LogoType } from "../../src/store/logo_store.ts";

function record(domain: string, source: string): LogoRecord {
  return {
    domain,
    hash: "0".repeat(64),
    type: "image/png",
    width: 10,
    height: 10,
    source,
    createdAt: 0,
    updatedAt: 0,
    pipeline: 2,
    renditions: {},
  };
}

function setUp(found?: (domain: string) => void) {
  const now = { value: 0 };
  const stored = new Map<string, LogoRecord>([["icon acme.test", record("acme.test", "icon")]]);
  const calls: string[] = [];
  const resolve = createResolver({
    logos: {
      get: (domain: string, type: LogoType = "icon") =>
        Promise.resolve(stored.get(`${type} ${domain}`) ?? null),
    },
    clock: () => now.value,
    ttlMs: 0, // every lookup reads the store: only the memo can spare a discovery call
    discover: (domain) => {
      calls.push(domain);
      found?.(domain);
      return Promise.resolve();
    },
  });
  return { now, stored, calls, resolve };
}

Deno.test("type=logo with an icon and no wordmark: one discovery call per registrable domain an hour", async () => {
  const { now, calls, resolve } = setUp();
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => resolve(`r${i}.acme.test`, "logo")),
  );
  assert.deepEqual(answers.map((a) => [a.type, a.domain]), Array(10).fill(["icon", "acme.test"]));
  await resolve("acme.test", "logo");
  assert.deepEqual(calls, ["acme.test"]);
  now.value += WORDMARK_LOOK_TTL_MS - 1;
  await resolve("www.acme.test", "logo");
  assert.deepEqual(calls, ["acme.test"], "remembered for the hour");
  now.value += 1;
  await resolve("www.acme.test", "logo");
  assert.deepEqual(calls, ["acme.test", "acme.test"], "asked again after it");
  await resolve("www.acme.test");
  assert.equal(calls.length, 2, "type=icon never asks");
});

Deno.test("type=logo: the wordmark discovery stores is served by the request that asked", async () => {
  const { calls, resolve, stored } = setUp((domain) => {
    stored.set(`logo ${domain}`, record(domain, "https://acme.test/wordmark.svg"));
  });
  const answer = await resolve("docs.acme.test", "logo");
  assert.deepEqual([answer.type, answer.domain, answer.record.source], [
    "logo",
    "acme.test",
    "https://acme.test/wordmark.svg",
  ]);
  assert.deepEqual(calls, ["acme.test"]);
});

Deno.test("type=logo on a miss: one discovery, and the wordmark it stores wins over its icon", async () => {
  const { calls, resolve, stored } = setUp((domain) => {
    stored.set(`icon ${domain}`, record(domain, "icon"));
    stored.set(`logo ${domain}`, record(domain, "wordmark"));
  });
  const answer = await resolve("beta.test", "logo");
  assert.deepEqual([answer.type, answer.record.source], ["logo", "wordmark"]);
  assert.deepEqual(calls, ["beta.test"]);
});
