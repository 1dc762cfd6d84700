import assert from "node:assert/strict";
import { HttpError } from "../src/http_error.ts";
import { guardKv, KV_RETRY_AFTER_SECONDS, kvUnavailable } from "../src/kv_unavailable.ts";
import { createRateLimiter } from "../src/limits/rate_limiter.ts";
import { faultyKv } from "./support/faulty_kv.ts";

function isUnavailable(error: unknown): boolean {
  return error instanceof HttpError && error.status === 503 &&
    error.publicMessage === "Service unavailable" &&
    error.headers["Retry-After"] === String(KV_RETRY_AFTER_SECONDS);
}

Deno.test("guardKv passes a result through", async () => {
  assert.equal(await guardKv(() => Promise.resolve(42)), 42);
});

Deno.test("guardKv turns a KV error into 503 with Retry-After and logs the cause", async () => {
  const logged: unknown[] = [];
  const cause = new TypeError("Database closed");
  await assert.rejects(
    guardKv(() => Promise.reject(cause), { log: (_m, e) => logged.push(e) }),
    isUnavailable,
  );
  assert.deepEqual(logged, [cause]);
});

Deno.test("guardKv turns a KV call that never answers into 503 after its timeout", async () => {
  const never = new Promise<never>(() => {});
  await assert.rejects(guardKv(() => never, { timeoutMs: 5, log: () => {} }), isUnavailable);
});

Deno.test("guardKv lets an HttpError through unchanged", async () => {
  const error = new HttpError(404, "Logo not found");
  await assert.rejects(guardKv(() => Promise.reject(error)), (e) => e === error);
});

Deno.test("the rate limiter's 503 is kvUnavailable's, with the seconds left of its back-off", async () => {
  using inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  faulty.commits = "down";
  const now = Date.UTC(2026, 0, 1);
  const limiter = createRateLimiter({ kv: faulty.kv, clock: () => now, backoffMs: 2_500 });
  const error = await limiter.take("key_a", 100, 60).then(
    () => assert.fail("admitted while KV is down"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof HttpError);
  assert.deepEqual(
    { status: error.status, message: error.publicMessage, headers: error.headers },
    { status: 503, message: "Service unavailable", headers: { "Retry-After": "3" } },
  );
  const guarded = kvUnavailable(3);
  assert.deepEqual(
    { status: guarded.status, message: guarded.publicMessage, headers: guarded.headers },
    { status: 503, message: "Service unavailable", headers: { "Retry-After": "3" } },
  );
  assert.equal(kvUnavailable().headers["Retry-After"], String(KV_RETRY_AFTER_SECONDS));
  await limiter.close();
});
