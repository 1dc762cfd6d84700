/**
 * Secret keys: `Authorization: Bearer sk_…` raises the size cap to 1200; a secret key in the query
 * string is refused with 401 and never logged.
 */
import assert from "node:assert/strict";
import { probe } from "../../imagecore/mod.ts";
import { flatImage } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";

const WIDE = flatImage(1400, 700, [30, 30, 30, 255]);

Deno.test("a secret key in the Authorization header may ask for up to 1200 px", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", WIDE);
  const auth = { authorization: `Bearer ${server.secretKey}` };
  for (const size of [801, 1000, 1200]) {
    const result = await server.exchange(`${server.url}/example.com?size=${size}`, {
      headers: auth,
    });
    assert.equal(result.status, 200, `size=${size}: ${result.text}`);
    const { width, height } = probe(result.bytes);
    assert.equal(width, size);
    assert.equal(height, Math.round((size * 700) / 1400));
  }
  const over = await server.exchange(`${server.url}/example.com?size=1201`, { headers: auth });
  assert.equal(over.status, 400);
  assert.equal(over.text, "Invalid size: must be a whole number of pixels from 1 to 1200");
});

Deno.test("a publishable key is capped at 800 px", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", WIDE);
  const ok = await server.exchange(server.logoUrl("example.com", { size: "800" }));
  assert.equal(ok.status, 200);
  assert.equal(probe(ok.bytes).width, 800);
  const over = await server.exchange(server.logoUrl("example.com", { size: "1200" }));
  assert.equal(over.status, 400);
  assert.equal(over.text, "Invalid size: must be a whole number of pixels from 1 to 800");
});

Deno.test("a secret key in the query string is refused with 401 and never logged", async () => {
  const logged: unknown[] = [];
  const consoleMethods = ["log", "error", "warn", "info", "debug"] as const;
  const originals = consoleMethods.map((name) => console[name]);
  for (const name of consoleMethods) console[name] = (...args: unknown[]) => logged.push(args);
  try {
    await using server = await startTestApp({
      app: { log: (...args) => logged.push(args) },
    });
    await server.addLogo("example.com", WIDE);
    const url = server.logoUrl("example.com", { token: server.secretKey });
    const withHeader = { authorization: `Bearer ${server.secretKey}` };
    // Refused alone, and even alongside a valid Authorization header.
    for (const init of [{}, { headers: withHeader }]) {
      const result = await server.exchange(url, init);
      assert.equal(result.status, 401);
      assert.equal(result.text, "Missing or invalid token");
    }
    assert.ok(!JSON.stringify(logged).includes(server.secretKey), "the secret key was logged");
  } finally {
    consoleMethods.forEach((name, i) => console[name] = originals[i] as never);
  }
});

Deno.test("a malformed, unknown or revoked secret key answers 401", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", WIDE);
  const other = await server.keys.create({});
  await server.keys.revoke(other.key.id);
  for (
    const authorization of [
      "",
      "Bearer",
      "Basic dXNlcjpwYXNz",
      `Bearer ${server.publishableKey}`,
      `Token ${server.secretKey}`,
      `Bearer sk_${"x".repeat(24)}`,
      `Bearer ${other.secretKey}`,
      `Bearer ${server.secretKey}x`,
    ]
  ) {
    const result = await server.exchange(`${server.url}/example.com`, {
      headers: { authorization },
    });
    assert.equal(result.status, 401, authorization);
    assert.equal(result.text, "Missing or invalid token");
  }
  const lower = await server.exchange(`${server.url}/example.com`, {
    headers: { authorization: `bearer ${server.secretKey}` },
  });
  assert.equal(lower.status, 200, "the scheme name is case-insensitive");
});

Deno.test("a secret key is not bound by the allowlist or attribution of its key", async () => {
  await using server = await startTestApp({
    allow: ["https://app.example.org"],
    attribution: true,
  });
  await server.addLogo("example.com", WIDE);
  const publishable = await server.exchange(server.logoUrl("example.com"));
  assert.equal(publishable.status, 403);
  const secret = await server.exchange(`${server.url}/example.com`, {
    headers: { authorization: `Bearer ${server.secretKey}` },
  });
  assert.equal(secret.status, 200);
  assert.equal(secret.headers.get("access-control-allow-origin"), "*");
});

Deno.test("secret and publishable requests share the key's rate limit", async () => {
  await using server = await startTestApp({ limit: 2, window: 3600 });
  await server.addLogo("example.com", WIDE);
  assert.equal((await server.exchange(server.logoUrl("example.com"))).status, 200);
  const auth = { authorization: `Bearer ${server.secretKey}` };
  const second = await server.exchange(`${server.url}/example.com`, { headers: auth });
  assert.equal(second.headers.get("x-ratelimit-remaining"), "0");
  assert.equal((await server.exchange(`${server.url}/example.com`, { headers: auth })).status, 429);
});
