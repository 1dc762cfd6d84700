/**
 * The SDK against the real app over a real socket (startTestServer): what get, getMany and
 * getStream return (bytes, metadata, the error classes the real server produces), getMany's
 * concurrency bound, and that the secret key only ever travels in the Authorization header.
 * Retries and abort against the real server are in sdk_real_server_retry_test.ts.
 */
import assert from "node:assert/strict";
import { probe } from "../../imagecore/mod.ts";
import {
  BadRequestError,
  type FetchLike,
  NotFoundError,
  UnauthorizedError,
} from "../../src/sdk/mod.ts";
import { startTestServer } from "../support/server.ts";
import { assertKeyOnlyInAuthorization, clientFor, logo } from "../support/sdk_real_server.ts";

Deno.test("get returns the rendered bytes with the real server's metadata", async () => {
  const server = await startTestServer();
  try {
    await server.addLogo("example.com", logo(400, 200));
    const client = clientFor(server);
    const before = Date.now();
    const png = await client.get(" Example.COM ", { size: 300 });
    assert.equal(png.contentType, "image/png");
    const probed = probe(png.bytes);
    assert.deepEqual([probed.format, probed.width, probed.height], ["png", 300, 150]);
    assert.deepEqual([png.width, png.height], [300, 150]);
    assert.equal(png.servedDomain, "example.com");
    assert.match(png.etag ?? "", /^"[^"]+"$/);
    assert.ok(png.rateLimit, "rate-limit headers missing");
    assert.equal(png.rateLimit.remaining, png.rateLimit.limit - 1);
    assert.ok(png.rateLimit.reset.getTime() > before - 1000);

    for (const format of ["webp", "jpeg"] as const) {
      const other = await client.get("example.com", { size: 64, format, greyscale: true });
      assert.equal(other.contentType, `image/${format}`);
      assert.equal(probe(other.bytes).format, format);
      assert.deepEqual([other.width, other.height], [64, 32]);
      assert.notEqual(other.etag, png.etag);
    }
  } finally {
    await server.close();
  }
});

Deno.test("get asks for up to 1200 px, which only a secret key may", async () => {
  const server = await startTestServer();
  try {
    await server.addLogo("example.com", logo(1600, 400));
    const client = clientFor(server);
    const big = await client.get("example.com", { size: 1200 });
    assert.deepEqual([big.width, big.height], [1200, 300]);
    assert.deepEqual([probe(big.bytes).width, probe(big.bytes).height], [1200, 300]);
    // The same size with the publishable key in the URL is refused by the server.
    const viaUrl = await fetch(
      `${server.url}/example.com?size=1200&token=${server.publishableKey}`,
    );
    assert.equal(viaUrl.status, 400);
    await viaUrl.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("servedDomain shows the server's parent fallback; fallbackToParent: false refuses it", async () => {
  const server = await startTestServer();
  try {
    await server.addLogo("example.com", logo(100, 100));
    const client = clientFor(server);
    const parent = await client.get("docs.example.com");
    assert.equal(parent.servedDomain, "example.com");
    const error = await client.get("docs.example.com", { fallbackToParent: false }).catch((e) => e);
    assert.ok(error instanceof NotFoundError, String(error));
    assert.equal(error.text, "Logo not found");
    const exact = await client.get("example.com", { fallbackToParent: false });
    assert.equal(exact.servedDomain, "example.com");
  } finally {
    await server.close();
  }
});

Deno.test("the real server's 400, 401 and 404 arrive as their error classes with its text", async () => {
  const server = await startTestServer();
  try {
    const client = clientFor(server);
    const missing = await client.get("nothing-here.example.org").catch((e) => e);
    assert.ok(missing instanceof NotFoundError, String(missing));
    assert.deepEqual([missing.status, missing.text], [404, "Logo not found"]);

    // The SDK sends a bare public suffix (it carries no suffix list); the server refuses it.
    const suffix = await client.get("co.uk").catch((e) => e);
    assert.ok(suffix instanceof BadRequestError, String(suffix));
    assert.deepEqual([suffix.status, suffix.text], [400, "Invalid domain format"]);

    const stranger = clientFor(server, { secretKey: "sk_not_a_real_key_0000000000" });
    const unauthorized = await stranger.get("example.com").catch((e) => e);
    assert.ok(unauthorized instanceof UnauthorizedError, String(unauthorized));
    assert.deepEqual([unauthorized.status, unauthorized.text], [401, "Missing or invalid token"]);

    // The SDK never sends a bad size itself, so tamper with the request on its way out to see
    // that the server's own 400 comes back as a BadRequestError with the server's reason.
    const tampered = clientFor(server, {
      wrap: (r) => {
        const url = new URL(r.url);
        url.searchParams.set("size", "huge");
        return new Request(url, r);
      },
    });
    const bad = await tampered.get("example.com").catch((e) => e);
    assert.ok(bad instanceof BadRequestError, String(bad));
    assert.equal(bad.status, 400);
    assert.match(bad.text, /^Invalid size/);
  } finally {
    await server.close();
  }
});

Deno.test("getMany keeps at most `concurrency` requests in flight and answers every domain once", async () => {
  const server = await startTestServer();
  try {
    const domains = Array.from({ length: 10 }, (_, i) => `brand${i}.com`);
    for (const d of domains.slice(0, 7)) await server.addLogo(d, logo(40, 20));
    // Hold every answer until the test lets it go, counting requests in flight meanwhile.
    const gates: PromiseWithResolvers<void>[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    let started = Promise.withResolvers<void>();
    const gated: FetchLike = async (input, init) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const gate = Promise.withResolvers<void>();
      gates.push(gate);
      started.resolve();
      try {
        const response = await fetch(input, init);
        await gate.promise;
        return response;
      } finally {
        inFlight--;
      }
    };
    const client = clientFor(server, { fetch: gated });
    const results: { domain: string; success: boolean }[] = [];
    const consuming = (async () => {
      for await (const r of client.getMany(domains, { concurrency: 3, size: 32 })) results.push(r);
    })();
    for (let released = 0; released < domains.length; released++) {
      // Wait until as many requests are held as the bound allows, then release the oldest.
      const expected = Math.min(3, domains.length - released);
      while (gates.length - released < expected) {
        started = Promise.withResolvers<void>();
        await started.promise;
      }
      gates[released].resolve();
    }
    await consuming;
    assert.equal(maxInFlight, 3);
    assert.deepEqual(results.map((r) => r.domain).sort(), [...domains].sort());
    assert.equal(results.filter((r) => r.success).length, 7);
  } finally {
    await server.close();
  }
});

Deno.test("getMany reports each failure in its result and carries on with the rest", async () => {
  const server = await startTestServer();
  try {
    await server.addLogo("example.com", logo(64, 64));
    const client = clientFor(server);
    const input = ["example.com", "https://example.com/", "unknown-brand.net", "docs.example.com"];
    const byDomain = new Map<string, unknown>();
    for await (const r of client.getMany(input, { size: 16 })) {
      assert.ok(!byDomain.has(r.domain), `${r.domain} answered twice`);
      byDomain.set(r.domain, r);
      if (r.success) {
        assert.equal(r.servedDomain, "example.com");
        assert.deepEqual([r.width, r.height, probe(r.bytes).width], [16, 16, 16]);
      }
    }
    assert.equal(byDomain.size, 4);
    const bad = byDomain.get("https://example.com/") as { success: false; error: unknown };
    assert.equal(bad.success, false);
    assert.ok(bad.error instanceof BadRequestError);
    const missing = byDomain.get("unknown-brand.net") as { success: false; error: unknown };
    assert.ok(missing.error instanceof NotFoundError);
    assert.equal((byDomain.get("docs.example.com") as { success: boolean }).success, true);
  } finally {
    await server.close();
  }
});

Deno.test("getStream delivers the same bytes as get, with the same metadata", async () => {
  const server = await startTestServer();
  try {
    await server.addLogo("example.com", logo(1200, 900, [250, 120, 10]));
    const client = clientFor(server);
    const options = { size: 1200, format: "png" } as const;
    const streamed = await client.getStream("example.com", options);
    const bytes = await new Response(streamed.stream).bytes();
    const whole = await client.get("example.com", options);
    assert.deepEqual(bytes, whole.bytes);
    assert.deepEqual([streamed.width, streamed.height], [1200, 900]);
    assert.equal(streamed.contentType, "image/png");
    assert.equal(streamed.etag, whole.etag);
    assert.equal(streamed.servedDomain, "example.com");
    assert.equal(streamed.rateLimit?.remaining, whole.rateLimit!.remaining + 1);
  } finally {
    await server.close();
  }
});

Deno.test("no request in this file carried the secret key anywhere but Authorization: Bearer", () => {
  assertKeyOnlyInAuthorization(20);
});
