import assert from "node:assert/strict";
import { createAuthenticator, type KeyLookup } from "../../src/http/authenticate.ts";
import { HttpError } from "../../src/http_error.ts";
import type { ApiKey } from "../../src/store/key_store.ts";
import { sha256Hex } from "../../src/store/sha256.ts";

const PK = "pk_" + "A".repeat(24);
const SK = "sk_" + "B".repeat(24);

async function fakeKeys() {
  const key: ApiKey = {
    id: "key_1",
    publishableKey: PK,
    secretKeyHash: await sha256Hex(SK),
    plan: "free",
    limit: 10,
    window: 60,
    allow: [],
    attribution: false,
    revoked: false,
    createdAt: 0,
  };
  const lookups: string[] = [];
  const state = { down: false };
  const keys: KeyLookup = {
    byPublishableKey(token) {
      lookups.push(token);
      if (state.down) return Promise.reject(new Error("KV unreachable"));
      return Promise.resolve(token === PK ? key : null);
    },
    bySecretKey(token) {
      lookups.push(token);
      if (state.down) return Promise.reject(new Error("KV unreachable"));
      return Promise.resolve(token === SK ? key : null);
    },
  };
  return { key, keys, lookups, state };
}

function isUnauthorized(error: unknown): boolean {
  return error instanceof HttpError && error.status === 401 &&
    error.publicMessage === "Missing or invalid token";
}

Deno.test("authenticate reuses a lookup for its TTL, then reads again", async () => {
  const { keys, lookups } = await fakeKeys();
  const clock = { now: 0 };
  const authenticate = createAuthenticator({ keys, clock: () => clock.now, ttlMs: 5_000 });
  const input = { token: PK, authorization: null };
  assert.equal((await authenticate(input)).kind, "publishable");
  clock.now = 4_999;
  await authenticate(input);
  assert.equal(lookups.length, 1);
  clock.now = 5_000;
  await authenticate(input);
  assert.equal(lookups.length, 2);
});

Deno.test("authenticate shares one lookup among concurrent requests for a token", async () => {
  const { keys, lookups } = await fakeKeys();
  const authenticate = createAuthenticator({ keys });
  await Promise.all(
    Array.from({ length: 10 }, () => authenticate({ token: PK, authorization: null })),
  );
  assert.equal(lookups.length, 1);
});

Deno.test("authenticate refuses a secret key in the query without looking it up", async () => {
  const { keys, lookups } = await fakeKeys();
  const authenticate = createAuthenticator({ keys });
  await assert.rejects(authenticate({ token: SK, authorization: null }), isUnauthorized);
  await assert.rejects(
    authenticate({ token: SK, authorization: `Bearer ${SK}` }),
    isUnauthorized,
  );
  assert.equal(lookups.length, 0);
});

Deno.test("authenticate accepts a secret key in the Authorization header", async () => {
  const { keys, key } = await fakeKeys();
  const authenticate = createAuthenticator({ keys });
  const credential = await authenticate({ token: null, authorization: `Bearer ${SK}` });
  assert.equal(credential.kind, "secret");
  assert.equal(credential.key, key);
});

Deno.test("authenticate does not look up malformed tokens", async () => {
  const { keys, lookups } = await fakeKeys();
  const authenticate = createAuthenticator({ keys });
  for (const token of [null, "", "pk_x", "PK_" + "A".repeat(24), PK + "A", "x".repeat(10_000)]) {
    await assert.rejects(authenticate({ token, authorization: null }), isUnauthorized);
  }
  assert.equal(lookups.length, 0);
});

Deno.test("authenticate answers 503 when KV fails and does not remember the failure", async () => {
  const { keys, lookups, state } = await fakeKeys();
  const authenticate = createAuthenticator({ keys, log: () => {} });
  state.down = true;
  await assert.rejects(
    authenticate({ token: PK, authorization: null }),
    (error) => error instanceof HttpError && error.status === 503,
  );
  state.down = false;
  assert.equal((await authenticate({ token: PK, authorization: null })).kind, "publishable");
  assert.equal(lookups.length, 2);
});

Deno.test("authenticate's cache holds at most maxEntries tokens, oldest out first", async () => {
  const { keys, lookups } = await fakeKeys();
  const authenticate = createAuthenticator({ keys, maxEntries: 2 });
  const unknown = (c: string) => "pk_" + c.repeat(24);
  for (const c of ["C", "D", "E"]) {
    await assert.rejects(authenticate({ token: unknown(c), authorization: null }), isUnauthorized);
  }
  assert.equal(lookups.length, 3);
  await assert.rejects(authenticate({ token: unknown("E"), authorization: null }), isUnauthorized);
  assert.equal(lookups.length, 3, "E is cached");
  await assert.rejects(authenticate({ token: unknown("C"), authorization: null }), isUnauthorized);
  assert.equal(lookups.length, 4, "C was evicted");
});
