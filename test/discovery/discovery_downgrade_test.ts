/**
 * No https → http downgrade in discovery: a redirect from https to http is refused, and an
 * `http://` icon declared by an `https://` page is fetched over https. A site reached with an
 * `http://` start (no HTTPS) is still read over http. The https site is a loopback TLS server with
 * the fixture certificate for acme.test, trusted through `caCerts`.
 */
import assert from "node:assert/strict";
import { parseConnectTo } from "../../src/discovery/connect_to.ts";
import { createDiscovery } from "../../src/discovery/discover.ts";
import { safeFetch, SafeFetchError } from "../../src/discovery/safe_fetch.ts";
import { IN_PROCESS } from "../../src/store/logo_ingest.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { iconPng } from "../support/images.ts";
import {
  FIXTURE_CERT as CERT,
  httpsSite,
  page,
  type Route,
  startSite,
} from "../support/discovery_sites.ts";

const noDns = (name: string): Promise<string[]> => Promise.reject(new Error(`no DNS for ${name}`));

const html = (body: string) => () =>
  new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
const image = (bytes: Uint8Array<ArrayBuffer>) => () =>
  new Response(bytes, { headers: { "content-type": "image/png" } });

/** The plain-http side of acme.test, serving a PNG at every path given. */
function plainSite(paths: string[]) {
  const routes: Record<string, Route> = {};
  for (const path of paths) routes[path] = { body: iconPng(64, 64), type: "image/png" };
  return startSite(routes);
}

/** Discovery of acme.test over `kv`, its https side on `httpsPort` and its http side on `httpPort`. */
function acmeDiscovery(kv: Deno.Kv, httpsPort: number, httpPort: number) {
  return createDiscovery({
    imaging: IN_PROCESS,
    kv,
    store: new LogoStore(kv),
    connectTo: parseConnectTo(
      `acme.test:443:127.0.0.1:${httpsPort},acme.test:80:127.0.0.1:${httpPort}`,
    ),
    resolve: noDns,
    caCerts: [CERT],
  });
}

Deno.test("downgrade: safeFetch refuses a redirect from https to http, without its query", async () => {
  const secure = httpsSite({
    "/i.png": () => Response.redirect("http://acme.test/plain.png?k=secret", 302),
  });
  const plain = plainSite(["/plain.png"]);
  try {
    const error = await safeFetch("https://acme.test/i.png", {
      connectTo: parseConnectTo(
        `acme.test:443:127.0.0.1:${secure.port},acme.test:80:127.0.0.1:${plain.port}`,
      ),
      resolve: noDns,
      caCerts: [CERT],
    }).then(() => undefined, (e) => e);
    assert.ok(error instanceof SafeFetchError, String(error));
    assert.equal(error.code, "insecure_redirect");
    assert.equal(
      error.message,
      "Refused redirect from https://acme.test/i.png to http://acme.test/plain.png: " +
        "https must not downgrade to http",
    );
    assert.deepEqual(plain.requests, [], "nothing was fetched over http");
  } finally {
    await secure.close();
    await plain.close();
  }
});

Deno.test("downgrade: an icon on an https page redirecting to http is refused, not stored", async () => {
  const secure = httpsSite({
    "/": html(page(`<link rel="icon" href="/i.png">`)),
    "/i.png": () => Response.redirect("http://acme.test/plain.png", 301),
  });
  const plain = plainSite(["/plain.png", "/favicon.ico", "/apple-touch-icon.png"]);
  const kv = await Deno.openKv(":memory:");
  try {
    const discovery = acmeDiscovery(kv, secure.port, plain.port);
    const outcome = await discovery.discover("acme.test");
    assert.equal(outcome.page, "https://acme.test/");
    assert.equal(outcome.status, "not-found");
    const icon = outcome.tried.find((c) => c.url === "https://acme.test/i.png");
    assert.match(
      icon?.result ?? "",
      /^Refused redirect from https:\/\/acme\.test\/i\.png to http:/,
    );
    assert.deepEqual(plain.requests, [], "nothing was fetched over http");
    assert.equal(await new LogoStore(kv).get("acme.test"), null);
  } finally {
    kv.close();
    await secure.close();
    await plain.close();
  }
});

Deno.test("downgrade: an http:// icon declared by an https page is fetched over https", async () => {
  const secure = httpsSite({
    "/": html(page(`<link rel="icon" href="http://acme.test/i.png">`)),
    "/i.png": image(iconPng(96, 96)),
  });
  const plain = plainSite(["/i.png"]);
  const kv = await Deno.openKv(":memory:");
  try {
    const discovery = acmeDiscovery(kv, secure.port, plain.port);
    const outcome = await discovery.discover("acme.test");
    assert.equal(outcome.status, "stored");
    assert.equal(outcome.source, "https://acme.test/i.png");
    assert.deepEqual(plain.requests, [], "nothing was fetched over http");
    assert.ok(secure.requests.includes("/i.png"));
  } finally {
    kv.close();
    await secure.close();
    await plain.close();
  }
});

Deno.test("downgrade: a site without https is still read over http (an http:// start)", async () => {
  const plain = startSite({
    "/": { body: page(`<link rel="icon" href="/i.png">`) },
    "/i.png": { body: iconPng(64, 64), type: "image/png" },
  });
  const refused = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closed = refused.addr.port;
  refused.close();
  const kv = await Deno.openKv(":memory:");
  try {
    const discovery = acmeDiscovery(kv, closed, plain.port);
    const outcome = await discovery.discover("acme.test");
    assert.equal(outcome.status, "stored");
    assert.equal(outcome.source, "http://acme.test/i.png");
  } finally {
    kv.close();
    await plain.close();
  }
});
