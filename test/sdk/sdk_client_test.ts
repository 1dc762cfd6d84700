/**
 * The SDK client's own behaviour against small servers this test drives by hand (over real
 * sockets): key handling, validation before any request, error classes, retries, abort and
 * timeout. Streaming is in sdk_stream_test.ts; the same behaviours against the real app are in
 * sdk_real_server_test.ts.
 */
import assert from "node:assert/strict";
import {
  BadRequestError,
  ForbiddenError,
  LogoClient,
  LogoError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnauthorizedError,
} from "../../src/sdk/mod.ts";
import { sleep } from "../../src/sdk/retry.ts";
import { pngHead, pngHeaders, recordingFetch, SECRET, serve } from "../support/sdk_test_server.ts";

Deno.test("LogoClient refuses a key that does not start with sk_, without echoing it", () => {
  for (const key of ["pk_live_123", "abc", "", "sk_", "sk_has space", "SK_upper", "sk_x\n"]) {
    assert.throws(() => new LogoClient({ secretKey: key }), (e: unknown) => {
      assert.ok(e instanceof TypeError);
      assert.match(e.message, /^Invalid secret key: must start with sk_/);
      if (key.length > 3) assert.ok(!e.message.includes(key));
      return true;
    });
  }
  assert.throws(() => new LogoClient({ secretKey: SECRET, baseUrl: "ftp://x" }), TypeError);
  assert.throws(
    () => new LogoClient({ secretKey: SECRET, baseUrl: "https://x.test/?token=pk_1" }),
    TypeError,
  );
  assert.throws(() => new LogoClient({ secretKey: SECRET, maxRetries: -1 }), RangeError);
  assert.throws(() => new LogoClient({ secretKey: SECRET, timeout: 0 }), RangeError);
  assert.throws(() => new LogoClient({ secretKey: SECRET, maxRetryWait: -1 }), RangeError);
});

Deno.test("LogoClient keeps the secret key out of inspection and JSON", () => {
  const client = new LogoClient({ secretKey: SECRET });
  assert.ok(!Deno.inspect(client, { showHidden: true, depth: 10 }).includes(SECRET));
  assert.ok(!JSON.stringify(client).includes(SECRET));
});

Deno.test("get refuses a bad domain or option with BadRequestError before any request", async () => {
  const { calls, fetch } = recordingFetch();
  const client = new LogoClient({ secretKey: SECRET, baseUrl: "http://127.0.0.1:9", fetch });
  const cases: [string, object, RegExp][] = [
    ["https://example.com", {}, /^Invalid domain format$/],
    ["example.com/logo.png", {}, /^Invalid domain format$/],
    ["localhost", {}, /^Invalid domain format$/],
    ["example.com", { size: 1201 }, /^Invalid size/],
    ["example.com", { size: 0 }, /^Invalid size/],
    ["example.com", { theme: "sepia" }, /^Invalid theme/],
    ["example.com", { format: "gif" }, /^Invalid format/],
  ];
  for (const [domain, options, message] of cases) {
    await assert.rejects(client.get(domain, options), (e: unknown) => {
      assert.ok(e instanceof BadRequestError, String(e));
      assert.match(e.text, message);
      return true;
    });
    await assert.rejects(client.getStream(domain, options), BadRequestError);
  }
  assert.equal(calls.length, 0);
});

Deno.test("get sends the key only as Authorization: Bearer and reads bytes and metadata", async () => {
  const body = pngHead(300, 150, 100);
  const server = serve(() => new Response(body, { headers: pngHeaders() }));
  try {
    const { calls, fetch } = recordingFetch();
    const client = new LogoClient({ secretKey: SECRET, baseUrl: server.url, fetch });
    const logo = await client.get(" Example.COM. ", { size: 300, greyscale: true });
    assert.deepEqual(logo.bytes, body);
    assert.equal(logo.contentType, "image/png");
    assert.equal(logo.width, 300);
    assert.equal(logo.height, 150);
    assert.equal(logo.servedDomain, "example.com");
    assert.equal(logo.etag, '"abc"');
    assert.deepEqual(logo.rateLimit, {
      limit: 100,
      remaining: 99,
      reset: new Date(1_800_000_000_000),
    });
    assert.equal(server.seen.length, 1);
    assert.equal(new URL(server.seen[0].url).pathname, "/example.com");
    assert.equal(new URL(server.seen[0].url).search, "?size=300&greyscale=true");
    assert.equal(server.seen[0].authorization, `Bearer ${SECRET}`);
    for (const call of calls) assert.ok(!call.url.includes(SECRET), call.url);
  } finally {
    await server.close();
  }
});

Deno.test("get prefers X-Logo-Width/Height headers over the image bytes when a server sends them", async () => {
  const server = serve(() =>
    new Response(pngHead(1, 1), {
      headers: pngHeaders({ "x-logo-width": "640", "x-logo-height": "320" }),
    })
  );
  try {
    const client = new LogoClient({ secretKey: SECRET, baseUrl: server.url });
    const logo = await client.get("example.com");
    assert.deepEqual([logo.width, logo.height], [640, 320]);
  } finally {
    await server.close();
  }
});

Deno.test("each error status becomes its own class carrying the status and the server's text", async () => {
  const answers: Record<string, [number, string, Record<string, string>]> = {
    "bad.com": [400, "Invalid size: must be a whole number", {}],
    "unauth.com": [401, "Missing or invalid token", {}],
    "forbidden.com": [403, "Attribution required", {}],
    "missing.com": [404, "Logo not found", {}],
    "limited.com": [429, "Rate limit exceeded", {
      "retry-after": "42",
      "x-ratelimit-reset": "1800000042",
    }],
    "broken.com": [500, "Internal server error", {}],
    "gateway.com": [502, "Bad gateway", {}],
    "gone.com": [405, "Method not allowed", {}],
  };
  const server = serve((request) => {
    const [status, text, headers] = answers[new URL(request.url).pathname.slice(1)];
    return new Response(text, { status, headers: { "content-type": "text/plain", ...headers } });
  });
  try {
    const client = new LogoClient({ secretKey: SECRET, baseUrl: server.url, maxRetries: 0 });
    const expected: Record<string, new (...args: never[]) => LogoError> = {
      "bad.com": BadRequestError,
      "unauth.com": UnauthorizedError,
      "forbidden.com": ForbiddenError,
      "missing.com": NotFoundError,
      "limited.com": RateLimitError,
      "broken.com": ServerError,
      "gateway.com": ServerError,
      "gone.com": LogoError,
    };
    for (const [domain, [status, text]] of Object.entries(answers)) {
      const error = await client.get(domain).catch((e) => e);
      assert.ok(error instanceof expected[domain], `${domain}: ${error}`);
      assert.ok(error instanceof LogoError);
      assert.equal(error.status, status);
      assert.equal(error.text, text);
      assert.equal(error.message, text);
    }
    const limited = await client.get("limited.com").catch((e) => e);
    assert.equal(limited.retryAfter, 42);
    assert.deepEqual(limited.reset, new Date(1_800_000_042_000));
  } finally {
    await server.close();
  }
});

Deno.test("503 is retried after Retry-After up to maxRetries, then thrown as ServerError", async () => {
  let answered = 0;
  const server = serve(() => {
    answered++;
    return new Response("Service unavailable", { status: 503, headers: { "retry-after": "2" } });
  });
  try {
    const waits: number[] = [];
    const client = new LogoClient({
      secretKey: SECRET,
      baseUrl: server.url,
      maxRetries: 3,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    const error = await client.get("example.com").catch((e) => e);
    assert.ok(error instanceof ServerError);
    assert.equal(error.status, 503);
    assert.equal(error.retryAfter, 2);
    assert.equal(answered, 4);
    assert.deepEqual(waits, [2000, 2000, 2000]);
  } finally {
    await server.close();
  }
});

Deno.test("a 503 then a 200 gives the logo after one wait; other 5xx are not retried", async () => {
  let answered = 0;
  const server = serve((request) => {
    answered++;
    if (new URL(request.url).pathname === "/broken.com") {
      return new Response("Internal server error", { status: 500 });
    }
    return answered === 1
      ? new Response("Service unavailable", { status: 503 })
      : new Response(pngHead(2, 2), { headers: pngHeaders() });
  });
  try {
    const waits: number[] = [];
    const client = new LogoClient({
      secretKey: SECRET,
      baseUrl: server.url,
      sleep: (ms) => (waits.push(ms), Promise.resolve()),
    });
    const logo = await client.get("example.com");
    assert.equal(logo.width, 2);
    assert.deepEqual(waits, [1000]); // no Retry-After: the first backoff step
    await assert.rejects(client.get("broken.com"), ServerError);
    assert.equal(answered, 3);
  } finally {
    await server.close();
  }
});

Deno.test("a Retry-After longer than maxRetryWait is thrown at once instead of waited for", async () => {
  const server = serve(() =>
    new Response("Rate limit exceeded", { status: 429, headers: { "retry-after": "3600" } })
  );
  try {
    const waits: number[] = [];
    const client = new LogoClient({
      secretKey: SECRET,
      baseUrl: server.url,
      maxRetryWait: 3_599_999,
      sleep: (ms) => (waits.push(ms), Promise.resolve()),
    });
    const error = await client.get("example.com").catch((e) => e);
    assert.ok(error instanceof RateLimitError);
    assert.equal(error.retryAfter, 3600);
    assert.deepEqual(waits, []);
    assert.equal(server.seen.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("aborting cancels a request the server has not answered yet, at once", async () => {
  const arrived = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  const server = serve(async () => {
    arrived.resolve();
    await release.promise;
    return new Response("late");
  });
  try {
    const client = new LogoClient({ secretKey: SECRET, baseUrl: server.url });
    const controller = new AbortController();
    const pending = client.get("example.com", { signal: controller.signal });
    await arrived.promise;
    const reason = new DOMException("user gave up", "AbortError");
    controller.abort(reason);
    await assert.rejects(pending, (e) => e === reason);
    // An already-aborted signal sends nothing.
    const before = server.seen.length;
    await assert.rejects(
      client.get("example.com", { signal: controller.signal }),
      (e) => e === reason,
    );
    assert.equal(server.seen.length, before);
  } finally {
    release.resolve();
    await server.close();
  }
});

Deno.test("aborting during a retry wait rejects at once, with no request after it", async () => {
  const server = serve(() =>
    new Response("Rate limit exceeded", { status: 429, headers: { "retry-after": "3600" } })
  );
  try {
    const waiting = Promise.withResolvers<number>();
    const client = new LogoClient({
      secretKey: SECRET,
      baseUrl: server.url,
      maxRetryWait: Infinity,
      // The real timer-based sleep (an hour here), with a note of when it starts.
      sleep: (ms, signal) => {
        waiting.resolve(ms);
        return sleep(ms, signal);
      },
    });
    const controller = new AbortController();
    const pending = client.get("example.com", { signal: controller.signal });
    assert.equal(await waiting.promise, 3_600_000);
    controller.abort();
    await assert.rejects(
      pending,
      (e: unknown) => e instanceof DOMException && e.name === "AbortError",
    );
    assert.equal(server.seen.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("timeout rejects an attempt that gets no answer with a TimeoutError", async () => {
  const release = Promise.withResolvers<void>();
  const server = serve(async () => {
    await release.promise;
    return new Response("late");
  });
  try {
    const client = new LogoClient({ secretKey: SECRET, baseUrl: server.url, timeout: 20 });
    await assert.rejects(
      client.get("example.com"),
      (e: unknown) => e instanceof DOMException && e.name === "TimeoutError",
    );
  } finally {
    release.resolve();
    await server.close();
  }
});
