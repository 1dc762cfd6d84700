/**
 * The one-box recipe of `docs/deploy.md`: its nginx config (`docs/deploy/nginx.conf`, included in
 * the doc verbatim) run by real nginx, with only its addresses and cache path moved into a
 * temporary directory. It passes `Host` and sets `X-Forwarded-*`; it shares an open key's answer
 * and never a secret key's, a refusal or a probe.
 */
import assert from "node:assert/strict";
import { externalTool } from "../support/external_tool.ts";
import { flatImage } from "../support/images.ts";
import { mainConfig, type NginxCache, startNginx } from "../support/nginx_cache.ts";
import { rawExchange } from "../support/raw_http.ts";
import { startTestServer } from "../support/server.ts";

const nginx = externalTool("nginx", ["/usr/sbin/nginx"], "apt-get install nginx");
const RECIPE = new URL("../../docs/deploy/nginx.conf", import.meta.url);
const DOC = new URL("../../docs/deploy.md", import.meta.url);

/** Replaces `from` (which must occur exactly once in the recipe) with `to`. */
function move(config: string, from: string, to: string): string {
  const parts = config.split(from);
  assert.equal(parts.length, 2, `the recipe holds "${from}" exactly once`);
  return parts.join(to);
}

/** Runs the recipe in front of the service at 127.0.0.1:`upstreamPort`. */
async function startRecipe(upstreamPort: number): Promise<NginxCache> {
  const recipe = await Deno.readTextFile(RECIPE);
  return await startNginx(nginx.path, (dir, port) => {
    let config = move(recipe, "server 127.0.0.1:8000;", `server 127.0.0.1:${upstreamPort};`);
    config = move(config, "/var/cache/nginx/logo-lookup", `${dir}/cache`);
    config = move(config, "listen 80;", `listen 127.0.0.1:${port};`);
    return mainConfig(dir, config);
  });
}

Deno.test("deploy.md includes docs/deploy/nginx.conf verbatim", async () => {
  const [doc, recipe] = await Promise.all([Deno.readTextFile(DOC), Deno.readTextFile(RECIPE)]);
  assert.ok(doc.includes("```nginx\n" + recipe + "```"), "the doc's nginx block is the file");
});

Deno.test({
  name: "deploy nginx recipe: passes Host and sets X-Forwarded-For, -Proto and -Host",
  ignore: nginx.ignore,
  async fn() {
    await using echo = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (request) =>
        Response.json(Object.fromEntries(request.headers), {
          headers: { "cache-control": "no-store" },
        }),
    );
    await using proxy = await startRecipe(echo.addr.port);
    const answer = await rawExchange(
      Number(new URL(proxy.url).port),
      "GET /example.com?token=x HTTP/1.1\r\nHost: logos.example.com\r\n" +
        "X-Forwarded-For: 203.0.113.9\r\nConnection: close\r\n\r\n",
    );
    assert.equal(answer.kind, "response", proxy.log());
    assert.equal(answer.status, 200, proxy.log());
    const seen = JSON.parse(new TextDecoder().decode(answer.body));
    assert.equal(seen.host, "logos.example.com");
    assert.equal(seen["x-forwarded-for"], "203.0.113.9, 127.0.0.1");
    assert.equal(seen["x-forwarded-proto"], "http");
    assert.equal(seen["x-forwarded-host"], "logos.example.com");
  },
});

Deno.test({
  name:
    "deploy nginx recipe: shares an open key's logo, never a secret key's, a refusal or a probe",
  ignore: nginx.ignore,
  async fn() {
    await using server = await startTestServer({ limit: 1000, window: 3600 });
    await server.addLogo("example.com", flatImage(300, 150, [20, 120, 200, 255]));
    await using proxy = await startRecipe(Number(new URL(server.url).port));
    const via = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${proxy.url}${path}`, { headers });
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { status: response.status, cache: response.headers.get("x-cache-status"), bytes };
    };
    const open = server.logoUrl("example.com").slice(server.url.length);
    const direct = await server.exchange(server.logoUrl("example.com"));
    const first = await via(open);
    const second = await via(open);
    assert.equal(first.status, 200, proxy.log());
    assert.deepEqual([first.cache, second.cache], ["MISS", "HIT"]);
    assert.deepEqual(second.bytes, direct.bytes);

    const bearer = { authorization: `Bearer ${server.secretKey}` };
    for (let i = 0; i < 2; i++) {
      const secret = await via("/example.com?size=1200", bearer);
      assert.equal(secret.status, 200);
      assert.equal(secret.cache, "MISS", "a secret key's answer is not stored");
    }
    const keyless = await via("/example.com?size=1200");
    assert.equal(keyless.status, 400, "the service refused it, not the cache");
    for (const path of ["/example.com?token=pk_000000000000000000000000", "/healthz", "/readyz"]) {
      const statuses = [];
      for (let i = 0; i < 2; i++) {
        const answer = await via(path);
        assert.equal(answer.cache, "MISS", `${path} is asked from the service every time`);
        statuses.push(answer.status);
      }
      assert.deepEqual(statuses, path.includes("token") ? [401, 401] : [200, 200]);
    }
  },
});
