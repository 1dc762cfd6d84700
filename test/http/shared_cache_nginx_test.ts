/**
 * The service behind a real shared cache (Debian's nginx, `proxy_cache` keyed by the URL, storing
 * what our `Cache-Control`/`Vary` allow): no cache serves an answer to a request the service would
 * refuse; an open key's answer is cached; and a shared copy is revalidated after `s-maxage`, so a
 * revoked key stops being served.
 */
import assert from "node:assert/strict";
import { externalTool } from "../support/external_tool.ts";
import { flatImage } from "../support/images.ts";
import { type NginxCache, startNginxCache } from "../support/nginx_cache.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const nginx = externalTool("nginx", ["/usr/sbin/nginx"], "apt-get install nginx");
const LOGO = flatImage(1400, 700, [30, 90, 160, 255]);

/** One answer through the cache. */
interface Seen {
  status: number;
  /** nginx's `$upstream_cache_status`: `MISS`, `HIT`, `EXPIRED`, `REVALIDATED`… */
  cache: string | null;
  /** The service's status, or `null` when the service was not asked. */
  upstream: string | null;
  headers: Headers;
  bytes: Uint8Array;
}

async function via(
  cache: NginxCache,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<Seen> {
  const response = await fetch(`${cache.url}${path}`, { headers, method });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    status: response.status,
    cache: response.headers.get("x-cache-status"),
    upstream: response.headers.get("x-upstream-status"),
    headers: response.headers,
    bytes,
  };
}

/** The logo path of `server`'s key, without the origin. */
function pathOf(server: TestServer, domain: string, params?: Record<string, string | null>) {
  return server.logoUrl(domain, params).slice(server.url.length);
}

/**
 * Asks for `path` every 50 ms while the cache answers it from its stored copy (`HIT`), and
 * returns the first answer that was not; fails after `deadlineMs`.
 */
async function firstNotHit(
  cache: NginxCache,
  path: string,
  deadlineMs: number,
): Promise<{ answer: Seen; hits: number }> {
  const deadline = Date.now() + deadlineMs;
  let hits = 0;
  for (;;) {
    const answer = await via(cache, path);
    if (answer.cache !== "HIT") return { answer, hits };
    hits++;
    assert.equal(answer.status, 200, "a stored copy is always the 200");
    assert.ok(Date.now() < deadline, `still served from the cache after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test({
  name: "nginx: an open publishable key's answers are cached and served to the next request",
  ignore: nginx.ignore,
  async fn() {
    await using server = await startTestServer({ limit: 100, window: 3600 });
    await server.addLogo("example.com", LOGO);
    await using cache = await startNginxCache(nginx.path, server.url);
    const path = pathOf(server, "example.com", { size: "64" });

    const first = await via(cache, path);
    assert.equal(first.status, 200, cache.log());
    assert.equal(first.cache, "MISS");
    const second = await via(cache, path);
    assert.equal(second.status, 200);
    assert.equal(second.cache, "HIT", "an open key's answer is stored by a shared cache");
    assert.equal(second.upstream, null, "the service was not asked");
    assert.deepEqual(second.bytes, first.bytes);
    // A browser revalidating through the cache gets a 304 from the stored copy.
    const etag = first.headers.get("etag")!;
    const revalidated = await via(cache, path, { "if-none-match": etag });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.cache, "HIT");
    // HEAD is answered from the same copy.
    const head = await via(cache, path, {}, "HEAD");
    assert.equal(head.status, 200);
    assert.equal(head.cache, "HIT");
    // A miss is the same for everyone holding the URL: cached too, briefly.
    const missing = pathOf(server, "nothing-here.com");
    assert.equal((await via(cache, missing)).status, 404);
    const missingAgain = await via(cache, missing);
    assert.equal(missingAgain.status, 404);
    assert.equal(missingAgain.cache, "HIT");
  },
});

Deno.test({
  name: "nginx: a secret key's answer is never served to a keyless request or to another key",
  ignore: nginx.ignore,
  async fn() {
    await using server = await startTestServer({ limit: 100, window: 3600 });
    await server.addLogo("example.com", LOGO);
    const other = await server.keys.create({});
    const revoked = await server.keys.create({});
    await server.keys.revoke(revoked.key.id);
    await using cache = await startNginxCache(nginx.path, server.url);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    for (
      const [path, status] of [["/example.com?size=1200", 200], ["/nothing-here.com", 404]] as const
    ) {
      for (const method of ["GET", "HEAD"]) {
        const owner = await via(cache, path, bearer(server.secretKey), method);
        assert.equal(owner.status, status, `${method} ${path}: ${cache.log()}`);

        // Without a key the service refuses (401, or 400 for a size only a secret key may ask).
        const keyless = await via(cache, path, {}, method);
        const refusal = await fetch(`${server.url}${path}`, { method });
        await refusal.body?.cancel();
        assert.ok(refusal.status === 400 || refusal.status === 401, `refused: ${refusal.status}`);
        assert.equal(
          keyless.status,
          refusal.status,
          `${method} ${path} without a key: ${keyless.cache}`,
        );
        assert.equal(
          keyless.upstream,
          String(refusal.status),
          "the service answered, not the cache",
        );

        const otherKey = await via(cache, path, bearer(other.secretKey), method);
        assert.equal(otherKey.status, status);
        assert.equal(
          otherKey.upstream,
          String(status),
          "another key's request reached the service",
        );

        const revokedKey = await via(cache, path, bearer(revoked.secretKey), method);
        assert.equal(revokedKey.status, 401, `${method} ${path} with a revoked key`);
      }
    }
  },
});

Deno.test({
  name: "nginx: an allowlisted key's answer is never served to a disallowed Origin/Referer or none",
  ignore: nginx.ignore,
  async fn() {
    await using server = await startTestServer({
      limit: 100,
      window: 3600,
      allow: ["https://app.example.org"],
    });
    await server.addLogo("example.com", LOGO);
    await using cache = await startNginxCache(nginx.path, server.url);
    const allowed: Record<string, string>[] = [
      { referer: "https://app.example.org/" }, // an <img>: no Origin
      { origin: "https://app.example.org" }, // fetch()
      { origin: "null", referer: "https://app.example.org/page" },
    ];
    const refused: Record<string, string>[] = [
      {},
      { referer: "https://evil.test/" },
      { origin: "https://evil.test" },
      { origin: "null" },
      { origin: "https://evil.test", referer: "https://app.example.org/" },
    ];
    for (
      const [path, status] of [[pathOf(server, "example.com"), 200], [
        pathOf(server, "nothing-here.com"),
        404,
      ]] as const
    ) {
      for (const granted of allowed) {
        const answer = await via(cache, path, granted);
        assert.equal(answer.status, status, `${JSON.stringify(granted)}: ${cache.log()}`);
        for (const headers of refused) {
          const result = await via(cache, path, headers);
          assert.equal(
            result.status,
            403,
            `${path} after ${JSON.stringify(granted)}, then ${
              JSON.stringify(headers)
            }: ${result.cache}`,
          );
          assert.equal(result.upstream, "403", "the service answered, not the cache");
        }
      }
    }
  },
});

Deno.test({
  name:
    "nginx: a shared copy is revalidated after s-maxage (a 304) and a revoked key stops being served",
  ignore: nginx.ignore,
  async fn() {
    const sharedMaxAge = 1;
    await using server = await startTestServer({
      limit: 100,
      window: 3600,
      // The service itself refuses a revoked key at once, so only the shared cache delays it.
      app: { sharedCacheMaxAgeSeconds: sharedMaxAge, keyCacheTtlMs: 0 },
    });
    await server.addLogo("example.com", LOGO);
    await using cache = await startNginxCache(nginx.path, server.url);
    const path = pathOf(server, "example.com");
    // nginx counts whole seconds: a copy stored with s-maxage=1 is fresh for at most 2 s.
    const deadlineMs = (sharedMaxAge + 1) * 1000 + 3000;

    const stored = await via(cache, path);
    assert.equal(stored.status, 200, cache.log());
    assert.equal(stored.cache, "MISS");
    assert.equal(stored.headers.get("cache-control"), "public, max-age=86400, s-maxage=1");

    // Once stale, nginx asks with If-None-Match and the service answers 304: checked and counted.
    const { answer: revalidated } = await firstNotHit(cache, path, deadlineMs);
    assert.equal(revalidated.cache, "REVALIDATED");
    assert.equal(revalidated.upstream, "304");
    assert.equal(revalidated.status, 200);
    assert.deepEqual(revalidated.bytes, stored.bytes);
    // The service saw two requests (the miss and the revalidation), not the hits in between.
    const direct = await fetch(server.logoUrl("example.com"), { method: "HEAD" });
    assert.equal(direct.headers.get("x-ratelimit-remaining"), String(100 - 3));

    assert.equal(await server.keys.revoke(server.keyId), true);
    const { answer: refused } = await firstNotHit(cache, path, deadlineMs);
    assert.equal(refused.status, 401, "a revoked key's URL is refused once the copy is stale");
    assert.equal(refused.upstream, "401");
    const again = await via(cache, path);
    assert.equal(again.status, 401, "and stays refused");
    assert.notEqual(again.cache, "HIT");
  },
});
