/**
 * Helpers of the SDK tests against the real app (startTestServer): a client whose every request
 * is recorded, with the key it held, and a flat-colour PNG logo.
 */
import assert from "node:assert/strict";
import { encodeRgba } from "../../imagecore/mod.ts";
import { type FetchLike, LogoClient, type LogoClientOptions } from "../../src/sdk/mod.ts";
import type { startTestServer } from "./server.ts";

/**
 * Every request any client of the importing test file made, with the key that client held (each
 * test file runs in its own isolate, so each has its own list).
 */
export const requests: { url: string; authorization: string | null; key: string }[] = [];

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** A client for `server` whose every request is recorded in `requests`. */
export function clientFor(
  server: TestServer,
  options: Partial<LogoClientOptions> & { wrap?: (r: Request) => Request } = {},
) {
  const { wrap = (r: Request) => r, ...rest } = options;
  const secretKey = rest.secretKey ?? server.secretKey;
  const recorded: FetchLike = (input, init) => {
    const request = wrap(new Request(input, init));
    requests.push({
      url: request.url,
      authorization: request.headers.get("authorization"),
      key: secretKey,
    });
    return (rest.fetch ?? fetch)(request);
  };
  return new LogoClient({ baseUrl: server.url, ...rest, secretKey, fetch: recorded });
}

/** A `width`×`height` PNG logo, one flat colour. */
export function logo(width: number, height: number, rgb: [number, number, number] = [30, 90, 200]) {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < pixels.length; i += 4) pixels.set([...rgb, 255], i);
  return encodeRgba(pixels, width, height, "png");
}

/**
 * Asserts that more than `atLeast` requests were recorded and that none carried its secret key
 * anywhere but `Authorization: Bearer`.
 */
export function assertKeyOnlyInAuthorization(atLeast: number): void {
  assert.ok(requests.length > atLeast, `only ${requests.length} requests recorded`);
  for (const { url, authorization, key } of requests) {
    assert.ok(!url.includes(key), url);
    assert.ok(!decodeURIComponent(url).includes(key), url);
    assert.ok(!url.includes("sk_"), url);
    assert.equal(authorization, `Bearer ${key}`);
  }
}
