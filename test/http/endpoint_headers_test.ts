/**
 * Headers, caching, conditional requests (304) and HEAD of `GET /{domain}`, over a real socket.
 */
import assert from "node:assert/strict";
import { flatImage } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";

const BLUE = flatImage(240, 120, [20, 40, 220, 255]);

function isEpochSeconds(value: string | null): boolean {
  const n = Number(value);
  return Number.isInteger(n) && n > 1_600_000_000 && n < 4_000_000_000;
}

Deno.test("a 200 carries every header of the spec with exact values", async () => {
  await using server = await startTestApp({ limit: 50, window: 3600 });
  await server.addLogo("example.com", BLUE);
  const result = await server.exchange(server.logoUrl("example.com"));
  assert.equal(result.status, 200);
  const h = result.headers;
  assert.equal(h.get("content-type"), "image/png");
  assert.equal(h.get("cache-control"), "public, max-age=86400, s-maxage=300");
  assert.equal(h.get("content-length"), String(result.bytes.length));
  assert.equal(h.get("x-content-type-options"), "nosniff");
  assert.equal(h.get("x-ratelimit-limit"), "50");
  assert.equal(h.get("x-ratelimit-remaining"), "49");
  assert.ok(isEpochSeconds(h.get("x-ratelimit-reset")), `reset ${h.get("x-ratelimit-reset")}`);
  assert.equal(h.get("x-logo-domain"), "example.com");
  const etag = h.get("etag")!;
  assert.ok(etag.startsWith('"') && etag.endsWith('"'), `strong ETag ${etag}`);
});

Deno.test("X-RateLimit-Remaining counts down by one per request", async () => {
  await using server = await startTestApp({ limit: 10, window: 3600 });
  await server.addLogo("example.com", BLUE);
  const seen: number[] = [];
  for (let i = 0; i < 4; i++) {
    const result = await server.exchange(server.logoUrl("example.com", { size: String(40 + i) }));
    seen.push(Number(result.headers.get("x-ratelimit-remaining")));
  }
  assert.deepEqual(seen, [9, 8, 7, 6]);
});

Deno.test("the ETag changes with every option and is stable for the same bytes", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", BLUE);
  const variants: Record<string, string>[] = [
    {},
    { size: "64" },
    { greyscale: "true" },
    { theme: "dark" },
    { theme: "light" },
    { format: "webp" },
    { format: "jpeg" },
    { size: "64", greyscale: "yes", theme: "dark", format: "webp" },
  ];
  const tags = new Map<string, string>();
  for (const params of variants) {
    const result = await server.exchange(server.logoUrl("example.com", params));
    assert.equal(result.status, 200);
    const tag = result.headers.get("etag")!;
    assert.ok(!tags.has(tag), `${JSON.stringify(params)} reuses ${tag} of ${tags.get(tag)}`);
    tags.set(tag, JSON.stringify(params));
  }
  // Equivalent spellings of the default give the same bytes and so the same tag.
  const plain = await server.exchange(server.logoUrl("example.com"));
  const explicit = await server.exchange(
    server.logoUrl("example.com", { size: "128", greyscale: "no", format: "png" }),
  );
  assert.equal(explicit.headers.get("etag"), plain.headers.get("etag"));
  assert.deepEqual(explicit.bytes, plain.bytes);
});

Deno.test("the ETag changes when the stored logo changes", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", BLUE);
  const before = await server.exchange(server.logoUrl("example.com"));
  await server.addLogo("example.com", flatImage(240, 120, [0, 160, 0, 255]));
  const after = await server.exchange(server.logoUrl("example.com"));
  assert.notEqual(after.headers.get("etag"), before.headers.get("etag"));
  assert.notDeepEqual(after.bytes, before.bytes);
});

Deno.test("If-None-Match with the current ETag answers 304 with the same caching headers", async () => {
  await using server = await startTestApp({ limit: 10, window: 3600 });
  await server.addLogo("example.com", BLUE);
  const url = server.logoUrl("example.com", { size: "64" });
  const first = await server.exchange(url);
  const etag = first.headers.get("etag")!;
  for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
    const result = await server.exchange(url, { headers: { "if-none-match": ifNoneMatch } });
    assert.equal(result.status, 304, ifNoneMatch);
    assert.equal(result.bytes.length, 0);
    assert.equal(result.headers.get("etag"), etag);
    assert.equal(result.headers.get("cache-control"), "public, max-age=86400, s-maxage=300");
    assert.equal(result.headers.get("x-content-type-options"), "nosniff");
    assert.equal(result.headers.get("access-control-allow-origin"), "*");
    assert.equal(result.headers.get("x-ratelimit-reset"), first.headers.get("x-ratelimit-reset"));
    assert.equal(result.headers.get("x-logo-domain"), "example.com");
  }
  const stale = await server.exchange(url, { headers: { "if-none-match": '"not-the-tag"' } });
  assert.equal(stale.status, 200);
  assert.deepEqual(stale.bytes, first.bytes);
});

Deno.test("a 304 counts against the rate limit like a 200", async () => {
  await using server = await startTestApp({ limit: 10, window: 3600 });
  await server.addLogo("example.com", BLUE);
  const first = await server.exchange(server.logoUrl("example.com"));
  const etag = first.headers.get("etag")!;
  const revalidated = await server.exchange(server.logoUrl("example.com"), {
    headers: { "if-none-match": etag },
  });
  assert.equal(revalidated.status, 304);
  assert.equal(first.headers.get("x-ratelimit-remaining"), "9");
  assert.equal(revalidated.headers.get("x-ratelimit-remaining"), "8");
});

Deno.test("HEAD answers the headers of GET without a body", async () => {
  await using server = await startTestApp({ limit: 10, window: 3600 });
  await server.addLogo("example.com", BLUE);
  const cases: Record<string, string>[] = [{}, { size: "300", format: "webp", greyscale: "1" }];
  for (const params of cases) {
    const url = server.logoUrl("example.com", params);
    const get = await server.exchange(url);
    const head = await server.exchange(url, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.bytes.length, 0);
    const names = (headers: Headers) => [...headers.keys()].filter((n) => n !== "date");
    assert.deepEqual(names(head.headers), names(get.headers));
    for (const name of names(get.headers)) {
      if (name === "x-ratelimit-remaining") continue; // one request later
      assert.equal(head.headers.get(name), get.headers.get(name), name);
    }
    assert.equal(head.headers.get("content-length"), String(get.bytes.length));
    assert.equal(
      Number(head.headers.get("x-ratelimit-remaining")),
      Number(get.headers.get("x-ratelimit-remaining")) - 1,
    );
  }
});

Deno.test("HEAD of an error answers its status and headers without a body", async () => {
  await using server = await startTestApp();
  const head = await server.exchange(server.logoUrl("nothing-here.com"), { method: "HEAD" });
  assert.equal(head.status, 404);
  assert.equal(head.bytes.length, 0);
  assert.equal(head.headers.get("content-type"), "text/plain; charset=utf-8");
  assert.equal(head.headers.get("content-length"), String("Logo not found".length));
  assert.equal(head.headers.get("cache-control"), "public, max-age=60");
});

Deno.test("every error carries an explicit Cache-Control: short for 404, no-store otherwise", async () => {
  await using server = await startTestApp({ allow: ["https://ok.example.org"] });
  const origin = { origin: "https://ok.example.org" };
  const cases: [string, RequestInit, number, string][] = [
    [`${server.url}/not a domain`, {}, 400, "no-store"],
    [server.logoUrl("example.com", { size: "0" }), { headers: origin }, 400, "no-store"],
    [server.logoUrl("example.com", { token: null }), {}, 401, "no-store"],
    [server.logoUrl("example.com"), { headers: { origin: "https://x.test" } }, 403, "no-store"],
    // An allowlisted key's 404 depends on the Origin: the browser's cache only.
    [server.logoUrl("nothing-here.com"), { headers: origin }, 404, "private, max-age=60"],
    [server.logoUrl("example.com"), { method: "DELETE" }, 405, "no-store"],
  ];
  for (const [url, init, status, cacheControl] of cases) {
    const result = await server.exchange(url, init);
    assert.equal(result.status, status, `${url}: ${result.text}`);
    assert.equal(result.headers.get("cache-control"), cacheControl, url);
    assert.equal(result.headers.get("x-content-type-options"), "nosniff", url);
  }
});

Deno.test("errors before the limit step are not counted; 404 after it is", async () => {
  await using server = await startTestApp({ limit: 10, window: 3600 });
  await server.addLogo("example.com", BLUE);
  const bad = await server.exchange(server.logoUrl("example.com", { size: "9000" }));
  assert.equal(bad.status, 400);
  assert.equal(bad.headers.get("x-ratelimit-remaining"), null);
  const missing = await server.exchange(server.logoUrl("nothing-here.com"));
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get("x-ratelimit-remaining"), "9");
  const ok = await server.exchange(server.logoUrl("example.com"));
  assert.equal(ok.headers.get("x-ratelimit-remaining"), "8");
});
