/**
 * The SDK client's own behaviour against small servers this test drives by hand (over real
 * sockets): key handling, validation before any request, error classes, retries, abort, timeout
 * and streaming. The same behaviours against the real app are in sdk_real_server_test.ts.
 */
import assert from "node:assert/strict";
import {
  BadRequestError,
  type FetchLike,
  ForbiddenError,
  LogoClient,
  LogoError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnauthorizedError,
} from "../src/sdk/mod.ts";
import { sleep } from "../src/sdk/retry.ts";

const SECRET = "sk_test_0123456789abcdef";

/** A PNG header (signature + IHDR) for a width×height image, followed by `extra` filler bytes. */
function pngHead(width: number, height: number, extra = 0): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(33 + extra).fill(7);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  return b;
}

interface Seen {
  url: string;
  authorization: string | null;
}

/** Serves `handler` on a real socket (port 0) and records every request it receives. */
function serve(handler: (request: Request, seen: Seen[]) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
    seen.push({ url: request.url, authorization: request.headers.get("authorization") });
    return handler(request, seen);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    close: () => server.shutdown(),
  };
}

/** An injected fetch that records each request's URL and headers, then calls the real fetch. */
function recordingFetch() {
  const calls: { url: string; headers: Headers }[] = [];
  const wrapped: FetchLike = (input, init) => {
    const request = new Request(input, init);
    calls.push({ url: request.url, headers: request.headers });
    return fetch(request);
  };
  return { calls, fetch: wrapped };
}

const pngHeaders = (extra: Record<string, string> = {}) => ({
  "content-type": "image/png",
  etag: '"abc"',
  "x-logo-domain": "example.com",
  "x-ratelimit-limit": "100",
  "x-ratelimit-remaining": "99",
  "x-ratelimit-reset": "1800000000",
  ...extra,
});

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
    ["example.com", { format: "svg" }, /^Invalid format/],
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

Deno.test("getStream hands over the first bytes before the server has sent the last", async () => {
  const first = pngHead(1200, 600, 4000);
  const last = new Uint8Array(50_000).fill(9);
  let body!: ReadableStreamDefaultController<Uint8Array>;
  const server = serve(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          body = controller;
          controller.enqueue(first);
        },
      }),
      { headers: pngHeaders() },
    )
  );
  try {
    const client = new LogoClient({ secretKey: SECRET, baseUrl: server.url });
    const logo = await client.getStream("example.com", { size: 1200 });
    assert.deepEqual([logo.width, logo.height], [1200, 600]);
    assert.equal(logo.contentType, "image/png");
    assert.equal(logo.servedDomain, "example.com");
    assert.equal(logo.rateLimit?.remaining, 99);
    const reader = logo.stream.getReader();
    // Read everything the server has sent so far: the whole first part, and it is all there is.
    const received: number[] = [];
    while (received.length < first.length) {
      const { value, done } = await reader.read();
      assert.ok(!done, "stream ended before the server finished");
      received.push(...value);
    }
    assert.deepEqual(new Uint8Array(received), first);
    // Only now does the server send the rest.
    body.enqueue(last);
    body.close();
    const rest: number[] = [];
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      rest.push(...value);
    }
    assert.deepEqual(new Uint8Array(rest), last);
  } finally {
    await server.close();
  }
});

Deno.test("getStream with an image header split over chunks still measures it and keeps every byte", async () => {
  const whole = pngHead(77, 33, 10);
  const server = serve(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < whole.length; i += 5) controller.enqueue(whole.slice(i, i + 5));
          controller.close();
        },
      }),
      { headers: pngHeaders() },
    )
  );
  try {
    const client = new LogoClient({ secretKey: SECRET, baseUrl: server.url });
    const logo = await client.getStream("example.com");
    assert.deepEqual([logo.width, logo.height], [77, 33]);
    assert.deepEqual(await new Response(logo.stream).bytes(), whole);
  } finally {
    await server.close();
  }
});

Deno.test("getStream's signal cancels the body download midway", async () => {
  const server = serve(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(pngHead(10, 10, 100)); // and never anything else
        },
      }),
      { headers: pngHeaders() },
    )
  );
  try {
    const client = new LogoClient({ secretKey: SECRET, baseUrl: server.url });
    const controller = new AbortController();
    const logo = await client.getStream("example.com", { signal: controller.signal });
    const reader = logo.stream.getReader();
    await reader.read();
    const next = reader.read();
    controller.abort();
    await assert.rejects(
      next,
      (e: unknown) => e instanceof DOMException && e.name === "AbortError",
    );
  } finally {
    await server.close();
  }
});
