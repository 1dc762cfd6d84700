/**
 * `GET`/`HEAD /` through the application's handler: the page's status and headers, a CSP whose
 * hashes are exactly those of the page's inline style and script, nothing loaded from elsewhere,
 * `304` revalidation, and no authentication or rate-limit accounting. The page in a browser is
 * `home_page_browser_test.ts`.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { seedIfEmpty } from "../../src/store/seed.ts";
import { flatImage } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";

const HTML = "text/html; charset=utf-8";

/** The text of every `<tag>…</tag>` in `html`. */
function inline(html: string, tag: string): string[] {
  return [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1]);
}

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The CSP as directive name → sources. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp.split(";").map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

Deno.test("GET / answers the HTML page, cacheable for 5 minutes, with a strict CSP", async () => {
  await using server = await startTestApp();
  const result = await server.exchange(`${server.url}/`);
  assert.equal(result.status, 200);
  assert.equal(result.headers.get("content-type"), HTML);
  assert.ok(result.text.startsWith("<!doctype html>"));
  assert.match(result.text, /<title>Logo Lookup<\/title>/);
  assert.equal(result.headers.get("content-length"), String(result.bytes.byteLength));
  assert.equal(result.headers.get("cache-control"), "public, max-age=300");
  assert.match(result.headers.get("etag") ?? "", /^"[\w-]+"$/);
  assert.equal(result.headers.get("x-content-type-options"), "nosniff");
  assert.equal(result.headers.get("x-frame-options"), "DENY");
  assert.equal(result.headers.get("referrer-policy"), "same-origin");
  const styles = inline(result.text, "style");
  const scripts = inline(result.text, "script");
  assert.equal(styles.length, 1);
  assert.equal(scripts.length, 1);
  assert.deepEqual(directives(result.headers.get("content-security-policy") ?? ""), {
    "default-src": ["'none'"],
    "style-src": [sha256(styles[0])],
    "script-src": [sha256(scripts[0])],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
    "frame-ancestors": ["'none'"],
  });
});

Deno.test("the page loads nothing from elsewhere: no external address, no inline handler", async () => {
  await using server = await startTestApp();
  const { text } = await server.exchange(`${server.url}/`);
  const links = [...text.matchAll(/\s(?:src|href|action)=["']?([^"'\s>]*)/g)].map((m) => m[1]);
  assert.deepEqual(links.filter((link) => !link.startsWith("data:")), []);
  assert.doesNotMatch(text, /\son[a-z]+=/i); // onclick= etc. would need 'unsafe-inline'
  assert.doesNotMatch(text, /<(?:iframe|object|embed|link rel="stylesheet")/i);
  assert.ok(text.length < 16_000, `${text.length} characters`);
});

Deno.test("HEAD / sends the GET headers and no body; If-None-Match revalidates with 304", async () => {
  await using server = await startTestApp();
  const get = await server.exchange(`${server.url}/`);
  const head = await server.exchange(`${server.url}/`, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.text, "");
  assert.deepEqual([...head.headers], [...get.headers]);
  const etag = get.headers.get("etag")!;
  for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
    const revalidated = await server.exchange(`${server.url}/`, {
      headers: { "if-none-match": ifNoneMatch },
    });
    assert.equal(revalidated.status, 304, ifNoneMatch);
    assert.equal(revalidated.text, "");
    assert.equal(revalidated.headers.get("etag"), etag);
    assert.equal(revalidated.headers.get("cache-control"), "public, max-age=300");
  }
  const changed = await server.exchange(`${server.url}/`, {
    headers: { "if-none-match": '"other"' },
  });
  assert.equal(changed.status, 200);
});

Deno.test("/ is never authenticated nor counted against a key", async () => {
  await using server = await startTestApp({ limit: 2, window: 3600 });
  await server.addLogo("example.com", flatImage(40, 40, [200, 0, 0, 255]));
  const requests: [string, RequestInit?][] = [
    [`${server.url}/`],
    [`${server.url}/?token=${server.publishableKey}`],
    [`${server.url}/?token=pk_nope`],
    [`${server.url}/?token=${server.secretKey}`],
    [`${server.url}/`, { headers: { authorization: "Bearer sk_nope" } }],
    [`${server.url}/`, { headers: { authorization: `Bearer ${server.secretKey}` } }],
    [`${server.url}/`, { method: "HEAD" }],
  ];
  for (const [url, init] of requests) {
    const result = await server.exchange(url, init);
    assert.equal(result.status, 200, url);
    assert.equal(result.headers.get("content-type"), HTML);
    assert.equal(result.headers.get("x-ratelimit-remaining"), null);
  }
  const logo = await server.exchange(server.logoUrl("example.com"));
  assert.equal(logo.status, 200);
  assert.equal(logo.headers.get("x-ratelimit-remaining"), "1");
});

Deno.test("only the path / is the page: other paths keep their answers", async () => {
  await using server = await startTestApp();
  const answers: Record<string, [number, string]> = {
    "/api/v1": [404, "text/plain; charset=utf-8"],
    "/index.html": [401, "text/plain; charset=utf-8"],
    "/x": [400, "text/plain; charset=utf-8"],
    "/?": [200, HTML],
    "/?v=2": [200, HTML],
  };
  for (const [path, [status, type]] of Object.entries(answers)) {
    const result = await server.exchange(`${server.url}${path}`);
    assert.deepEqual([result.status, result.headers.get("content-type")], [status, type], path);
  }
  const post = await server.exchange(`${server.url}/`, { method: "POST" });
  assert.equal(post.status, 405);
});

Deno.test("the page does not show the demo key", async () => {
  using kv = await Deno.openKv(":memory:");
  const demo = await seedIfEmpty(kv);
  assert.ok(demo !== null);
  await using server = await startTestApp({ kv });
  const { text } = await server.exchange(`${server.url}/`);
  assert.equal(text.includes(demo.publishableKey), false);
  assert.doesNotMatch(text, /pk_[0-9A-Za-z]{24}/);
});
