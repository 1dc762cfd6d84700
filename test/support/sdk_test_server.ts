/**
 * Helpers of the SDK client tests: a hand-driven server on a real socket that records what it
 * receives, a recording `fetch`, a PNG header and the headers of a 200 answer.
 */
import type { FetchLike } from "../../src/sdk/mod.ts";

/** The secret key every test client uses. */
export const SECRET = "sk_test_0123456789abcdef";

/** A PNG header (signature + IHDR) for a width×height image, followed by `extra` filler bytes. */
export function pngHead(width: number, height: number, extra = 0): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(33 + extra).fill(7);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  return b;
}

/** One request a test server received. */
export interface Seen {
  url: string;
  authorization: string | null;
}

/** Serves `handler` on a real socket (port 0) and records every request it receives. */
export function serve(handler: (request: Request, seen: Seen[]) => Response | Promise<Response>) {
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
export function recordingFetch() {
  const calls: { url: string; headers: Headers }[] = [];
  const wrapped: FetchLike = (input, init) => {
    const request = new Request(input, init);
    calls.push({ url: request.url, headers: request.headers });
    return fetch(request);
  };
  return { calls, fetch: wrapped };
}

/** The headers of a 200 PNG answer from the server, with `extra` added. */
export const pngHeaders = (extra: Record<string, string> = {}) => ({
  "content-type": "image/png",
  etag: '"abc"',
  "x-logo-domain": "example.com",
  "x-ratelimit-limit": "100",
  "x-ratelimit-remaining": "99",
  "x-ratelimit-reset": "1800000000",
  ...extra,
});
