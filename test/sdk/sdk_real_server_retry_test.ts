/**
 * The SDK's retries against the real app over a real socket (startTestServer): the real 503 (KV
 * down) and 429, retried after Retry-After or surfaced as their error classes, and abort while
 * waiting to retry.
 */
import assert from "node:assert/strict";
import { RateLimitError, ServerError } from "../../src/sdk/mod.ts";
import { sleep } from "../../src/sdk/retry.ts";
import { faultyKv } from "../support/faulty_kv.ts";
import { startTestServer } from "../support/server.ts";
import {
  assertKeyOnlyInAuthorization,
  clientFor,
  logo,
  requests,
} from "../support/sdk_real_server.ts";

Deno.test("the real server's 503 (KV down) is retried after Retry-After, then a ServerError", async () => {
  const inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  const logged: string[] = [];
  const server = await startTestServer({
    kv: faulty.kv,
    app: { log: (message: string) => logged.push(message) },
  });
  try {
    await server.addLogo("example.com", logo(50, 50));
    faulty.reads = "down";
    faulty.commits = "down";
    const waits: number[] = [];
    const client = clientFor(server, {
      maxRetries: 2,
      sleep: (ms) => (waits.push(ms), Promise.resolve()),
    });
    const sent = requests.length;
    const error = await client.get("example.com").catch((e) => e);
    assert.ok(error instanceof ServerError, String(error));
    assert.deepEqual([error.status, error.text], [503, "Service unavailable"]);
    assert.ok(error.retryAfter !== undefined && error.retryAfter >= 1);
    assert.deepEqual(waits, [error.retryAfter * 1000, error.retryAfter * 1000]);
    assert.equal(requests.length - sent, 3);
    assert.equal(logged.length, 3, "the server reported each KV failure");
    // KV back: the same client gets the logo.
    faulty.reads = "up";
    faulty.commits = "up";
    assert.equal((await client.get("example.com")).servedDomain, "example.com");
  } finally {
    faulty.reads = "up";
    faulty.commits = "up";
    await server.close();
    inner.close();
  }
});

Deno.test("a real 429 is retried after its Retry-After and then succeeds", async () => {
  let now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const server = await startTestServer({ limit: 1, window: 60, clock: () => now });
  try {
    await server.addLogo("example.com", logo(50, 50));
    const waits: number[] = [];
    const client = clientFor(server, {
      // The wait moves the server's clock instead of the wall clock.
      sleep: (ms) => {
        waits.push(ms);
        now += ms;
        return Promise.resolve();
      },
    });
    const first = await client.get("example.com");
    assert.equal(first.rateLimit?.remaining, 0);
    const sent = requests.length;
    const second = await client.get("example.com");
    assert.equal(requests.length - sent, 2, "one 429, then one retry");
    assert.equal(waits.length, 1);
    assert.ok(waits[0] >= 1000 && waits[0] <= 60_000, `waited ${waits[0]} ms`);
    assert.equal(second.rateLimit?.limit, 1);
    assert.ok(second.rateLimit!.reset > first.rateLimit!.reset);
  } finally {
    await server.close();
  }
});

Deno.test("a real 429 past maxRetries is a RateLimitError with retryAfter and reset", async () => {
  const server = await startTestServer({ limit: 1, window: 60 });
  try {
    await server.addLogo("example.com", logo(50, 50));
    const client = clientFor(server, { maxRetries: 0 });
    await client.get("example.com");
    const error = await client.get("example.com").catch((e) => e);
    assert.ok(error instanceof RateLimitError, String(error));
    assert.equal(error.text, "Rate limit exceeded");
    assert.ok(error.retryAfter !== undefined && error.retryAfter >= 1 && error.retryAfter <= 60);
    assert.ok(error.reset instanceof Date);
  } finally {
    await server.close();
  }
});

Deno.test("aborting while waiting to retry a real 429 rejects at once and sends nothing more", async () => {
  const server = await startTestServer({ limit: 1, window: 3600 });
  try {
    await server.addLogo("example.com", logo(50, 50));
    const waiting = Promise.withResolvers<number>();
    const client = clientFor(server, {
      maxRetryWait: Infinity,
      sleep: (ms, signal) => {
        waiting.resolve(ms);
        return sleep(ms, signal); // the real timer: up to an hour
      },
    });
    await client.get("example.com");
    const sent = requests.length;
    const controller = new AbortController();
    const pending = client.get("example.com", { signal: controller.signal });
    assert.ok((await waiting.promise) >= 1000);
    controller.abort();
    await assert.rejects(
      pending,
      (e: unknown) => e instanceof DOMException && e.name === "AbortError",
    );
    assert.equal(requests.length - sent, 1);
  } finally {
    await server.close();
  }
});

Deno.test("no request in this file, retries included, carried the secret key anywhere but Authorization: Bearer", () => {
  assertKeyOnlyInAuthorization(5);
});
