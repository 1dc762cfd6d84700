/**
 * The one-box recipe of `docs/operate/deploy.md`: its nginx config (`docs/operate/deploy/nginx.conf`, included in
 * the doc verbatim) run by real nginx, with only its addresses and cache path moved into a
 * temporary directory (`startDeployRecipe`: each must occur exactly once). It loads in Debian's own
 * nginx.conf; it passes `Host` and sets `X-Forwarded-*`; it shares an open key's answer and never
 * a secret key's, a refusal or a probe. What it protects (slow clients, one client's many
 * requests, a hung or dead instance) is `nginx_protection_test.ts`.
 */
import assert from "node:assert/strict";
import { externalTool } from "../support/external_tool.ts";
import { flatImage } from "../support/images.ts";
import {
  DEPLOY_RECIPE,
  moveOnce,
  type NginxCache,
  startDeployRecipe,
} from "../support/nginx_cache.ts";
import { rawExchange } from "../support/raw_http.ts";
import { startTestServer } from "../support/server.ts";

const nginx = externalTool("nginx", ["/usr/sbin/nginx"], "apt-get install nginx");
const DOC = new URL("../../docs/operate/deploy.md", import.meta.url);

/** Runs the recipe in front of one upstream at 127.0.0.1:`port` (as both its instances). */
function startRecipe(port: number): Promise<NginxCache> {
  return startDeployRecipe(nginx.path, { upstreams: [port] });
}

Deno.test("deploy.md includes docs/operate/deploy/nginx.conf verbatim", async () => {
  const [doc, recipe] = await Promise.all([
    Deno.readTextFile(DOC),
    Deno.readTextFile(DEPLOY_RECIPE),
  ]);
  assert.ok(doc.includes("```nginx\n" + recipe + "```"), "the doc's nginx block is the file");
});

/** Debian's own nginx.conf, whose http {} reads conf.d/ and sites-enabled/, and default site. */
const STOCK = "/etc/nginx/nginx.conf";
const DEFAULT_SITE = "/etc/nginx/sites-available/default";
const stockFound = [STOCK, DEFAULT_SITE].every((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

/** `nginx -t` of Debian's nginx.conf with the recipe in conf.d/ and `sites` in sites-enabled/. */
async function testStock(sites: string[]): Promise<{ ok: boolean; output: string }> {
  const dir = await Deno.makeTempDir({ prefix: "nginx_stock_" });
  try {
    const recipe = await Deno.readTextFile(DEPLOY_RECIPE);
    await Deno.writeTextFile(
      `${dir}/logo-lookup.conf`,
      moveOnce(recipe, "/var/cache/nginx/logo-lookup", `${dir}/cache`),
    );
    await Deno.mkdir(`${dir}/sites`);
    for (const site of sites) await Deno.copyFile(site, `${dir}/sites/${site.split("/").pop()}`);
    // The main context as the recipe's comments advise it.
    const advised = (name: string) => new RegExp(`^#.*\\b(${name} \\d+;)`, "m").exec(recipe)![1];
    let stock = await Deno.readTextFile(STOCK);
    stock = moveOnce(
      stock,
      "include /etc/nginx/conf.d/*.conf;",
      `include ${dir}/logo-lookup.conf;`,
    );
    stock = moveOnce(stock, "include /etc/nginx/sites-enabled/*;", `include ${dir}/sites/*;`);
    stock = stock.replace(/^\s*worker_connections \d+;/m, advised("worker_connections"));
    stock = moveOnce(
      stock,
      "pid /run/nginx.pid;",
      `pid ${dir}/nginx.pid;\n${advised("worker_rlimit_nofile")}`,
    );
    await Deno.writeTextFile(`${dir}/nginx.conf`, stock);
    const { success, stderr } = await new Deno.Command(nginx.path, {
      args: ["-t", "-e", "stderr", "-c", `${dir}/nginx.conf`],
      stdout: "null",
      stderr: "piped",
    }).output();
    return { ok: success, output: new TextDecoder().decode(stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "deploy nginx recipe: loads in Debian's nginx.conf, once Debian's default site is removed",
  ignore: nginx.ignore || !stockFound,
  async fn() {
    const alone = await testStock([]);
    assert.ok(alone.ok, alone.output);
    // Debian's default site also claims default_server: nginx refuses to start, it does not
    // silently read request heads with that site's timeouts.
    const withDefault = await testStock([DEFAULT_SITE]);
    assert.equal(withDefault.ok, false);
    assert.match(withDefault.output, /duplicate default server/);
  },
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
