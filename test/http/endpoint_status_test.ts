/**
 * Every status of `GET /{domain}` and its exact plain-text body, over a real socket.
 */
import assert from "node:assert/strict";
import { HttpError } from "../../src/http_error.ts";
import { faultyKv } from "../support/faulty_kv.ts";
import { flatImage } from "../support/images.ts";
import { failingLimiter } from "../support/failing_limiter.ts";
import { startTestApp } from "../support/server.ts";

const START = Date.UTC(2026, 0, 1, 0, 0, 10);

function manualClock(start = START) {
  const clock = { now: start, read: () => clock.now };
  return clock;
}

const RED = flatImage(200, 100, [220, 20, 20, 255]);

function assertPlainError(
  result: { status: number; headers: Headers; text: string },
  status: number,
  body: string,
) {
  assert.equal(result.status, status, `status (body: ${result.text})`);
  assert.equal(result.text, body);
  assert.equal(result.headers.get("content-type"), "text/plain; charset=utf-8");
}

Deno.test("a stored logo answers 200 with an image body", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", RED);
  const result = await server.exchange(server.logoUrl("example.com"));
  assert.equal(result.status, 200);
  assert.equal(result.headers.get("content-type"), "image/png");
  assert.deepEqual([...result.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
});

Deno.test("a missing, malformed or unknown token answers 401 Missing or invalid token", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", RED);
  for (
    const token of [
      null,
      "",
      "abc",
      "pk_",
      "pk_short",
      "PK_" + "a".repeat(24),
      "pk_" + "a".repeat(24),
    ]
  ) {
    const result = await server.exchange(server.logoUrl("example.com", { token }));
    assertPlainError(result, 401, "Missing or invalid token");
  }
});

Deno.test("a revoked key answers 401 once its cached lookup expires (within 5 s)", async () => {
  const clock = manualClock();
  await using server = await startTestApp({ clock: clock.read });
  await server.addLogo("example.com", RED);
  assert.equal((await server.exchange(server.logoUrl("example.com"))).status, 200);
  assert.equal(await server.keys.revoke(server.keyId), true);
  clock.now += 5_001;
  assertPlainError(
    await server.exchange(server.logoUrl("example.com")),
    401,
    "Missing or invalid token",
  );
});

Deno.test("a domain that is not a domain answers 400 Invalid domain format", async () => {
  await using server = await startTestApp();
  const result = await server.exchange(
    `${server.url}/https%3A%2F%2Fexample.com?token=${server.publishableKey}`,
  );
  assertPlainError(result, 400, "Invalid domain format");
});

Deno.test("a domain without a logo answers 404 Logo not found", async () => {
  await using server = await startTestApp();
  assertPlainError(
    await server.exchange(server.logoUrl("nothing-here.com")),
    404,
    "Logo not found",
  );
});

Deno.test("paths that are not a domain answer 404 Not found (/ is the page)", async () => {
  await using server = await startTestApp();
  for (const path of ["/api/v1/logos", "/.well-known/security.txt", "/static/x/y.png"]) {
    const result = await server.exchange(`${server.url}${path}?token=${server.publishableKey}`);
    assertPlainError(result, 404, "Not found");
    assert.equal(result.headers.get("cache-control"), "public, max-age=60");
  }
});

Deno.test("a method other than GET, HEAD and OPTIONS answers 405 with Allow", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", RED);
  for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
    const result = await server.exchange(server.logoUrl("example.com"), { method, body: "x" });
    assertPlainError(result, 405, "Method not allowed");
    assert.equal(result.headers.get("allow"), "GET, HEAD, OPTIONS");
    assert.equal(result.headers.get("cache-control"), "no-store");
  }
});

Deno.test("over the key's limit answers 429 Rate limit exceeded with Retry-After and reset", async () => {
  const clock = manualClock(); // 10 s into a minute
  await using server = await startTestApp({ limit: 2, window: 60, clock: clock.read });
  await server.addLogo("example.com", RED);
  const windowEnd = Date.UTC(2026, 0, 1, 0, 1, 0) / 1000;
  for (let i = 0; i < 2; i++) {
    const ok = await server.exchange(server.logoUrl("example.com"));
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get("x-ratelimit-reset"), String(windowEnd));
  }
  const result = await server.exchange(server.logoUrl("example.com"));
  assertPlainError(result, 429, "Rate limit exceeded");
  assert.equal(result.headers.get("retry-after"), "50");
  assert.equal(result.headers.get("x-ratelimit-reset"), String(windowEnd));
  assert.equal(result.headers.get("x-ratelimit-remaining"), "0");
  assert.equal(result.headers.get("x-ratelimit-limit"), "2");
  assert.equal(result.headers.get("cache-control"), "no-store");

  clock.now = windowEnd * 1000; // the next window
  assert.equal((await server.exchange(server.logoUrl("example.com"))).status, 200);
});

Deno.test("a key with an allowlist answers 403 Domain not allowed to another origin", async () => {
  await using server = await startTestApp({ allow: ["https://app.example.org"] });
  await server.addLogo("example.com", RED);
  const result = await server.exchange(server.logoUrl("example.com"), {
    headers: { origin: "https://evil.example.net" },
  });
  assertPlainError(result, 403, "Domain not allowed");
  assert.equal(result.headers.get("cache-control"), "no-store");
});

Deno.test("a key requiring attribution answers 403 Attribution required until it is recorded", async () => {
  const clock = manualClock();
  await using server = await startTestApp({ attribution: true, clock: clock.read });
  await server.addLogo("example.com", RED);
  const refused = await server.exchange(server.logoUrl("example.com"));
  assertPlainError(refused, 403, "Attribution required");
  assert.equal(refused.headers.get("cache-control"), "no-store");
  assert.equal(refused.headers.get("x-ratelimit-remaining"), null, "a 403 is not counted");

  assert.equal(
    await server.keys.recordAttribution(server.keyId, "https://app.example.org/about"),
    true,
  );
  clock.now += 5_001; // past the key cache's lifetime
  assert.equal((await server.exchange(server.logoUrl("example.com"))).status, 200);
});

Deno.test("KV failing answers 503 Service unavailable with Retry-After, then recovers", async () => {
  using inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  const logged: string[] = [];
  await using server = await startTestApp({
    kv: faulty.kv,
    app: { log: (message) => logged.push(message) },
  });
  await server.addLogo("example.com", RED);
  faulty.reads = "down";
  faulty.commits = "down";
  const result = await server.exchange(server.logoUrl("example.com"));
  assertPlainError(result, 503, "Service unavailable");
  const retryAfter = Number(result.headers.get("retry-after"));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${retryAfter}`);
  assert.equal(result.headers.get("cache-control"), "no-store");
  assert.ok(logged.length > 0, "the KV failure is logged");

  faulty.reads = "up";
  faulty.commits = "up";
  assert.equal((await server.exchange(server.logoUrl("example.com"))).status, 200);
});

Deno.test("an unexpected error answers 500 Internal server error, logged, details hidden", async () => {
  const logged: unknown[] = [];
  const limiter = failingLimiter(new Error("detail that must not leak"));
  await using server = await startTestApp({
    app: { limiter, log: (_message, error) => logged.push(error) },
  });
  const result = await server.exchange(server.logoUrl("example.com"));
  assertPlainError(result, 500, "Internal server error");
  assert.equal(result.headers.get("cache-control"), "no-store");
  assert.equal(logged.length, 1);
  assert.equal((logged[0] as Error).message, "detail that must not leak");
});

Deno.test("an HttpError from a step answers with its own status, body and headers", async () => {
  const limiter = failingLimiter(new HttpError(503, "Service unavailable", { "Retry-After": "7" }));
  await using server = await startTestApp({ app: { limiter } });
  const result = await server.exchange(server.logoUrl("example.com"));
  assertPlainError(result, 503, "Service unavailable");
  assert.equal(result.headers.get("retry-after"), "7");
});
