/**
 * CORS in both modes: a key without an allowlist (any origin) and one with an allowlist
 * (reflected origin, `Vary: Origin, Referer`, 403 otherwise), plus preflight.
 */
import assert from "node:assert/strict";
import { flatImage } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";

const LOGO = flatImage(100, 100, [10, 10, 10, 255]);

Deno.test("without an allowlist every answer allows any origin", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  const init = { headers: { origin: "https://anywhere.example.net" } };
  for (
    const [url, status] of [
      [server.logoUrl("example.com"), 200],
      [server.logoUrl("nothing-here.com"), 404],
      [server.logoUrl("example.com", { token: null }), 401],
      [server.logoUrl("example.com", { size: "0" }), 400],
    ] as const
  ) {
    const result = await server.exchange(url, init);
    assert.equal(result.status, status);
    assert.equal(result.headers.get("access-control-allow-origin"), "*", url);
    assert.equal(result.headers.get("vary"), null, url);
    assert.match(result.headers.get("access-control-expose-headers")!, /X-RateLimit-Remaining/);
  }
});

Deno.test("with an allowlist a matching Origin is reflected with Vary: Origin, Referer", async () => {
  await using server = await startTestApp({
    allow: ["https://app.example.org", "partner.example.com", "*.cdn.example.net"],
  });
  await server.addLogo("example.com", LOGO);
  for (
    const origin of [
      "https://app.example.org",
      "http://partner.example.com:8080",
      "https://a.cdn.example.net",
      "https://b.c.cdn.example.net",
    ]
  ) {
    const result = await server.exchange(server.logoUrl("example.com"), { headers: { origin } });
    assert.equal(result.status, 200, origin);
    assert.equal(result.headers.get("access-control-allow-origin"), origin);
    assert.equal(result.headers.get("vary"), "Origin, Referer");
  }
});

Deno.test("with an allowlist a non-matching or missing origin is 403 Domain not allowed", async () => {
  await using server = await startTestApp({
    allow: ["https://app.example.org", "*.cdn.example.net"],
  });
  await server.addLogo("example.com", LOGO);
  const refusals: Record<string, string>[] = [
    {}, // no Origin, no Referer
    { origin: "http://app.example.org" }, // wrong scheme for an origin entry
    { origin: "https://app.example.org.evil.test" },
    { origin: "https://cdn.example.net" }, // the wildcard does not cover its base
    { origin: "https://evilcdn.example.net" },
    { origin: "null" },
    { referer: "https://evil.test/page" },
    // Origin decides when present, even if the Referer would match.
    { origin: "https://evil.test", referer: "https://app.example.org/page" },
  ];
  for (const headers of refusals) {
    const result = await server.exchange(server.logoUrl("example.com"), { headers });
    assert.equal(result.status, 403, JSON.stringify(headers));
    assert.equal(result.text, "Domain not allowed");
    assert.notEqual(result.headers.get("access-control-allow-origin"), headers.origin ?? "none");
  }
});

Deno.test("with an allowlist and no Origin (an <img>), the Referer's origin must match", async () => {
  await using server = await startTestApp({ allow: ["https://app.example.org"] });
  await server.addLogo("example.com", LOGO);
  const cases: Record<string, string>[] = [
    { referer: "https://app.example.org/dashboard?x=1" },
    { origin: "null", referer: "https://app.example.org/" },
  ];
  for (const headers of cases) {
    const result = await server.exchange(server.logoUrl("example.com"), { headers });
    assert.equal(result.status, 200, JSON.stringify(headers));
    assert.equal(result.headers.get("access-control-allow-origin"), "https://app.example.org");
    assert.equal(result.headers.get("vary"), "Origin, Referer");
  }
});

Deno.test("a 404 for an allowed origin still reflects that origin", async () => {
  await using server = await startTestApp({ allow: ["https://app.example.org"] });
  const result = await server.exchange(server.logoUrl("nothing-here.com"), {
    headers: { origin: "https://app.example.org" },
  });
  assert.equal(result.status, 404);
  assert.equal(result.headers.get("access-control-allow-origin"), "https://app.example.org");
  assert.equal(result.headers.get("vary"), "Origin, Referer");
});

Deno.test("OPTIONS answers a preflight with 204, allowing GET and HEAD but not Authorization", async () => {
  await using server = await startTestApp({ allow: ["https://app.example.org"] });
  const result = await server.exchange(server.logoUrl("example.com"), {
    method: "OPTIONS",
    headers: {
      origin: "https://app.example.org",
      "access-control-request-method": "GET",
      "access-control-request-headers": "if-none-match",
    },
  });
  assert.equal(result.status, 204);
  assert.equal(result.bytes.length, 0);
  assert.equal(result.headers.get("access-control-allow-origin"), "*");
  assert.equal(result.headers.get("access-control-allow-methods"), "GET, HEAD");
  assert.equal(result.headers.get("access-control-allow-headers"), "If-None-Match");
  assert.equal(result.headers.get("access-control-max-age"), "86400");
  assert.equal(result.headers.get("allow"), "GET, HEAD, OPTIONS");
});
