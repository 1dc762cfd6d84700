import assert from "node:assert/strict";
import { HttpError } from "../src/http_error.ts";
import { guardKv, KV_RETRY_AFTER_SECONDS } from "../src/kv_unavailable.ts";

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
