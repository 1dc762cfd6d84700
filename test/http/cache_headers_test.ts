/**
 * `Cache-Control` and `Vary` per credential kind, for every cacheable answer (200, HEAD, 304, 404):
 * an open publishable key's answers are shared (`public`, with a short `s-maxage`); a secret key's
 * and an allowlisted key's are `private`. Errors other than 404 are `no-store`. See
 * docs/use/caching.md; `shared_cache_nginx_test.ts` shows the same through a real nginx cache.
 */
import assert from "node:assert/strict";
import { createCachePolicy } from "../../src/http/cache_policy.ts";
import { flatImage } from "../support/images.ts";
import { startTestApp, type TestServer } from "../support/server.ts";

const LOGO = flatImage(300, 150, [200, 40, 40, 255]);
const SHARED_IMAGE = "public, max-age=86400, s-maxage=300";
const SHARED_MISS = "public, max-age=60";
const PRIVATE_IMAGE = "private, max-age=86400";
const PRIVATE_MISS = "private, max-age=60";

/** The caching headers of every cacheable answer of `server` to `url` with `headers`. */
async function cachingOf(
  server: TestServer,
  url: string,
  missingUrl: string,
  headers: Record<string, string>,
) {
  const get = await server.exchange(url, { headers });
  assert.equal(get.status, 200, get.text);
  const head = await server.exchange(url, { headers, method: "HEAD" });
  assert.equal(head.status, 200);
  const etag = get.headers.get("etag")!;
  const notModified = await server.exchange(url, {
    headers: { ...headers, "if-none-match": etag },
  });
  assert.equal(notModified.status, 304);
  const missing = await server.exchange(missingUrl, { headers });
  assert.equal(missing.status, 404, missing.text);
  const missingHead = await server.exchange(missingUrl, { headers, method: "HEAD" });
  assert.equal(missingHead.status, 404);
  const pick = (h: Headers) => ({ cacheControl: h.get("cache-control"), vary: h.get("vary") });
  return {
    get: pick(get.headers),
    head: pick(head.headers),
    notModified: pick(notModified.headers),
    missing: pick(missing.headers),
    missingHead: pick(missingHead.headers),
  };
}

function expected(image: string, miss: string, vary: string | null) {
  return {
    get: { cacheControl: image, vary },
    head: { cacheControl: image, vary },
    notModified: { cacheControl: image, vary },
    missing: { cacheControl: miss, vary },
    missingHead: { cacheControl: miss, vary },
  };
}

Deno.test("an open publishable key's answers are public with a short s-maxage", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  assert.deepEqual(
    await cachingOf(server, server.logoUrl("example.com"), server.logoUrl("nothing-here.com"), {}),
    expected(SHARED_IMAGE, SHARED_MISS, null),
  );
});

Deno.test("a secret key's answers are private: the URL does not carry the credential", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  const headers = { authorization: `Bearer ${server.secretKey}` };
  for (const size of ["128", "1200"]) {
    assert.deepEqual(
      await cachingOf(
        server,
        `${server.url}/example.com?size=${size}`,
        `${server.url}/nothing-here.com`,
        headers,
      ),
      expected(PRIVATE_IMAGE, PRIVATE_MISS, null),
      `size=${size}`,
    );
  }
});

Deno.test("an allowlisted key's answers are private and vary on Origin and Referer", async () => {
  await using server = await startTestApp({ allow: ["https://app.example.org"] });
  await server.addLogo("example.com", LOGO);
  for (
    const headers of [
      { origin: "https://app.example.org" },
      { referer: "https://app.example.org/page" },
    ] as Record<string, string>[]
  ) {
    assert.deepEqual(
      await cachingOf(
        server,
        server.logoUrl("example.com"),
        server.logoUrl("nothing-here.com"),
        headers,
      ),
      expected(PRIVATE_IMAGE, PRIVATE_MISS, "Origin, Referer"),
      JSON.stringify(headers),
    );
  }
});

Deno.test("one rendered image served to each kind of credential keeps each one's caching", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  const allowlisted = await server.keys.create({ allow: ["https://app.example.org"] });
  const open = server.logoUrl("example.com", { size: "64" });
  const secret = `${server.url}/example.com?size=64`;
  const restricted = server.logoUrl("example.com", {
    size: "64",
    token: allowlisted.key.publishableKey,
  });
  const bearer = { authorization: `Bearer ${server.secretKey}` };
  const origin = { origin: "https://app.example.org" };
  // Interleaved, so a prepared response of one kind would show up in another's answer.
  const sequence: [string, Record<string, string>, string, string | null][] = [
    [open, {}, SHARED_IMAGE, null],
    [secret, bearer, PRIVATE_IMAGE, null],
    [open, {}, SHARED_IMAGE, null],
    [restricted, origin, PRIVATE_IMAGE, "Origin, Referer"],
    [secret, bearer, PRIVATE_IMAGE, null],
    [open, {}, SHARED_IMAGE, null],
    [open, origin, SHARED_IMAGE, null],
  ];
  let bytes: Uint8Array | undefined;
  for (const [url, headers, cacheControl, vary] of sequence) {
    const result = await server.exchange(url, { headers });
    assert.equal(result.status, 200, result.text);
    assert.equal(
      result.headers.get("cache-control"),
      cacheControl,
      `${url} ${Object.keys(headers)}`,
    );
    assert.equal(result.headers.get("vary"), vary);
    bytes ??= result.bytes;
    assert.deepEqual(result.bytes, bytes, "the same rendered image");
  }
});

Deno.test("refusals are never stored: 401, 403 and 429 are no-store for every credential", async () => {
  await using server = await startTestApp({
    limit: 1,
    window: 3600,
    allow: ["https://app.example.org"],
  });
  await server.addLogo("example.com", LOGO);
  const origin = { origin: "https://app.example.org" };
  const cases: [string, Record<string, string>, number][] = [
    [server.logoUrl("example.com", { token: null }), {}, 401],
    [`${server.url}/example.com`, { authorization: "Bearer sk_nope" }, 401],
    [server.logoUrl("example.com"), {}, 403],
    [server.logoUrl("example.com"), { referer: "https://evil.test/" }, 403],
    [server.logoUrl("example.com"), origin, 200], // spends the one request
    [server.logoUrl("example.com"), origin, 429],
    [`${server.url}/example.com`, { authorization: `Bearer ${server.secretKey}` }, 429],
  ];
  for (const [url, headers, status] of cases) {
    const result = await server.exchange(url, { headers });
    assert.equal(result.status, status, `${url} ${JSON.stringify(headers)}: ${result.text}`);
    if (status !== 200) assert.equal(result.headers.get("cache-control"), "no-store");
  }
});

Deno.test("the shared max-age is configurable and bounds a shared 404 too", async () => {
  await using server = await startTestApp({ app: { sharedCacheMaxAgeSeconds: 30 } });
  await server.addLogo("example.com", LOGO);
  assert.deepEqual(
    await cachingOf(server, server.logoUrl("example.com"), server.logoUrl("nothing-here.com"), {}),
    expected("public, max-age=86400, s-maxage=30", "public, max-age=60, s-maxage=30", null),
  );
});

Deno.test("a shared max-age that is not a whole number of seconds from 1 is refused", () => {
  for (const bad of [0, -1, 1.5, Number.NaN, Infinity]) {
    assert.throws(() => createCachePolicy(bad), RangeError, String(bad));
  }
  assert.equal(createCachePolicy(1).image("shared"), "public, max-age=86400, s-maxage=1");
  assert.equal(createCachePolicy(1).monogram("shared"), "public, max-age=3600, s-maxage=1");
  assert.equal(createCachePolicy(7200).monogram("shared"), "public, max-age=3600, s-maxage=3600");
  assert.equal(createCachePolicy(7200).monogram("private"), "private, max-age=3600");
});
