/**
 * No https → http downgrade in discovery: a redirect from https to http is refused, and an
 * `http://` icon declared by an `https://` page is fetched over https. A site reached with an
 * `http://` start (no HTTPS) is still read over http; a site whose https fails its TLS handshake
 * (an untrusted certificate, another name's) is not read over http instead. The https site is a
 * loopback TLS server with the fixture certificate for acme.test, trusted through `caCerts`.
 *
 * `DENO_CERT` names extra CA certificates, which discovery trusts besides the default roots: a
 * site whose certificate a private CA signed (`test/fixtures/discovery_tls/private_*.pem`, made
 * with `openssl`: an EC P-256 CA, and a leaf for acme.test and www.acme.test it signed, both valid
 * for 100 years) is discovered with `DENO_CERT` naming that CA, refused without it; a `DENO_CERT`
 * that cannot be used stops start-up with a message naming it.
 */
import assert from "node:assert/strict";
import { parseConnectTo } from "../../src/discovery/connect_to.ts";
import { createDiscovery } from "../../src/discovery/discover.ts";
import { safeFetch, SafeFetchError } from "../../src/discovery/safe_fetch.ts";
import { startDiscoveryService } from "../../src/discovery/service.ts";
import { startService } from "../../src/server/service.ts";
import { readSettings } from "../../src/settings/read_settings.ts";
import { IN_PROCESS } from "../../src/store/logo_ingest.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { iconPng } from "../support/images.ts";
import {
  closedPort,
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

/** Options of {@link acmeDiscovery}. */
interface DiscoveryOptions {
  /** The site's name; default acme.test. */
  domain?: string;
  /** Trusted roots; default the fixture certificate; `undefined` the default roots. */
  caCerts?: string[];
  /** Where failed discoveries are logged. */
  log?: (line: string) => void;
}

/**
 * Discovery of acme.test (or `domain`) over `kv`, its https side on `httpsPort` and its http side
 * on `httpPort`.
 */
function acmeDiscovery(
  kv: Deno.Kv,
  httpsPort: number,
  httpPort: number,
  options: DiscoveryOptions = {},
) {
  const { domain = "acme.test", log } = options;
  const caCerts = "caCerts" in options ? options.caCerts : [CERT];
  return createDiscovery({
    imaging: IN_PROCESS,
    kv,
    store: new LogoStore(kv),
    connectTo: parseConnectTo(
      `${domain}:443:127.0.0.1:${httpsPort},${domain}:80:127.0.0.1:${httpPort}`,
    ),
    resolve: noDns,
    caCerts,
    log,
  });
}

const FIXTURE_TLS = new URL("../fixtures/discovery_tls/", import.meta.url);
/** The private test CA, and the certificate it signed for acme.test with its key. */
const PRIVATE_CA = new URL("private_ca.pem", FIXTURE_TLS).pathname;
const PRIVATE_SITE_CERT = Deno.readTextFileSync(new URL("private_site.pem", FIXTURE_TLS));
const PRIVATE_SITE_KEY = Deno.readTextFileSync(new URL("private_site_key.pem", FIXTURE_TLS));

/** An https acme.test whose certificate the private test CA signed, serving a page and its icon. */
function privateCaSite() {
  const requests: string[] = [];
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: PRIVATE_SITE_CERT,
    key: PRIVATE_SITE_KEY,
    onListen() {},
  }, (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    if (path === "/") return html(page(`<link rel="icon" href="/i.png">`))();
    if (path === "/i.png") return image(iconPng(96, 96))();
    return new Response("no", { status: 404 });
  });
  return { port: server.addr.port, requests, close: () => server.shutdown() };
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

/** Certificates on acme.test's https side that discovery must not accept. */
const TLS_FAILURES = [
  {
    name: "an untrusted certificate",
    options: { caCerts: undefined }, // the default roots: the fixture is its own, unknown CA
    reason: /TLS handshake failed: self-signed certificate/,
  },
  {
    name: "a trusted certificate for another name",
    options: { domain: "other.test" }, // the fixture, trusted, is acme.test's
    reason: /TLS handshake failed: Hostname\/IP does not match certificate's altnames/,
  },
];

for (const failure of TLS_FAILURES) {
  Deno.test(`downgrade: ${failure.name} on https is not read over http instead; nothing stored, the reason logged`, async () => {
    const secure = httpsSite({
      "/": html(page(`<link rel="icon" href="/i.png">`)),
      "/i.png": image(iconPng(96, 96)),
    });
    const plain = startSite({
      "/": { body: page(`<link rel="icon" href="/i.png">`) },
      "/i.png": { body: iconPng(64, 64), type: "image/png" },
      "/favicon.ico": { body: iconPng(64, 64), type: "image/png" },
    });
    const kv = await Deno.openKv(":memory:");
    const logged: string[] = [];
    const domain = failure.options.domain ?? "acme.test";
    try {
      const discovery = acmeDiscovery(kv, secure.port, plain.port, {
        ...failure.options,
        log: (line) => logged.push(line),
      });
      const outcome = await discovery.discover(domain);
      assert.deepEqual(plain.requests, [], "nothing was fetched over http");
      assert.deepEqual(secure.requests, [], "no request was sent over the failed TLS");
      assert.equal(outcome.status, "not-found");
      assert.equal(outcome.failure, "unreachable", "retried soon, like any TLS failure");
      assert.equal(await new LogoStore(kv).get(domain), null);
      assert.equal(logged.length, 1, logged.join("\n"));
      const site = domain.replace(".", "\\.");
      assert.match(
        logged[0],
        new RegExp(`^Discovery could not reach ${site} \\(Cannot fetch https://${site}/: `),
      );
      assert.match(logged[0], failure.reason);
      assert.match(logged[0], new RegExp(`http://${site}/ not read after a TLS failure`));
    } finally {
      kv.close();
      await secure.close();
      await plain.close();
    }
  });
}

/** Discovery as the server starts it, from `env`, acme.test's https side on `port`. */
function serviceDiscovery(kv: Deno.Kv, port: number, env: Record<string, string>) {
  const plainPort = closedPort(); // no http side: only https can answer
  const vars: Record<string, string> = {
    LOGO_CONNECT_TO: `acme.test:443:127.0.0.1:${port},acme.test:80:127.0.0.1:${plainPort}`,
    ...env,
  };
  const service = startDiscoveryService(kv, readSettings(vars, "serve"), {
    imaging: IN_PROCESS,
    resolve: noDns,
    sweepMs: 0,
    log: () => {},
  });
  assert.ok(service !== undefined);
  return service;
}

Deno.test("DENO_CERT: a site a private CA signed is discovered when DENO_CERT names the CA, refused without", async () => {
  const site = privateCaSite();
  try {
    for (
      const [env, expected] of [[{ DENO_CERT: PRIVATE_CA }, "stored"], [{}, "not-found"]] as const
    ) {
      const kv = await Deno.openKv(":memory:");
      const service = serviceDiscovery(kv, site.port, env);
      try {
        const outcome = await service.discovery.discover("acme.test");
        assert.equal(outcome.status, expected, JSON.stringify({ env, outcome }));
        if (expected === "stored") {
          assert.equal(outcome.source, "https://acme.test/i.png");
          assert.equal((await new LogoStore(kv).get("acme.test"))?.width, 96);
        } else {
          assert.match(outcome.reason ?? "", /unable to verify the first certificate/);
        }
      } finally {
        await service.close();
        kv.close();
      }
    }
  } finally {
    await site.close();
  }
});

Deno.test("DENO_CERT: the default roots stay trusted besides the private CA", async () => {
  const { trustedRoots } = await import("../../src/discovery/fetch_hop.ts");
  const tls = await import("node:tls");
  const extra = Deno.readTextFileSync(PRIVATE_CA).trim();
  const roots = trustedRoots([extra]);
  assert.ok(roots.includes(extra));
  for (const root of tls.getCACertificates("default")) assert.ok(roots.includes(root));
});

Deno.test("DENO_CERT: one that cannot be used stops start-up with a message naming it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const empty = `${dir}/empty.pem`;
    await Deno.writeTextFile(empty, "not a certificate\n");
    const cases = [
      [`${dir}/missing.pem`, /^Cannot use DENO_CERT=.*missing\.pem: cannot read it \(.+\)$/],
      [
        empty,
        /^Cannot use DENO_CERT=.*empty\.pem: it holds no PEM certificate \(-----BEGIN CERTIFICATE-----\)$/,
      ],
    ] as const;
    for (const [path, message] of cases) {
      // Discovery's own start …
      const kv = await Deno.openKv(":memory:");
      try {
        assert.throws(
          () => serviceDiscovery(kv, closedPort(), { DENO_CERT: path }),
          (error: Error) => message.test(error.message),
        );
      } finally {
        kv.close();
      }
      // … and the server's, before anything is opened.
      const env: Record<string, string> = {
        LOGO_KV: ":memory:",
        LOGO_RENDER_WORKERS: "0",
        DENO_CERT: path,
      };
      const started = await (async () =>
        await startService(readSettings(env, "serve"), { print: () => {} }))().catch((
          error: Error,
        ) =>
          error
        );
      if (!(started instanceof Error)) await started.close();
      assert.ok(started instanceof Error, "the server started");
      assert.match(started.message, message);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("downgrade: an https port that accepts and then drops the connection is 'no https': read over http", async () => {
  // Connection-level, like a refused port (a reset, not a handshake that failed): today's rule.
  const dropping = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = (async () => {
    for await (const connection of dropping) connection.close();
  })();
  const plain = startSite({
    "/": { body: page(`<link rel="icon" href="/i.png">`) },
    "/i.png": { body: iconPng(64, 64), type: "image/png" },
  });
  const kv = await Deno.openKv(":memory:");
  try {
    const discovery = acmeDiscovery(kv, dropping.addr.port, plain.port);
    const outcome = await discovery.discover("acme.test");
    assert.equal(outcome.status, "stored", JSON.stringify(outcome));
    assert.equal(outcome.source, "http://acme.test/i.png");
  } finally {
    kv.close();
    dropping.close();
    await accepting.catch(() => {});
    await plain.close();
  }
});

Deno.test("DENO_CERT: the server reads it at start-up and its discovery trusts the private CA", async () => {
  const site = privateCaSite();
  const env: Record<string, string> = {
    LOGO_KV: ":memory:",
    LOGO_RENDER_WORKERS: "0",
    LOGO_CONNECT_TO: `acme.test:443:127.0.0.1:${site.port},acme.test:80:127.0.0.1:${closedPort()}`,
    DENO_CERT: PRIVATE_CA,
  };
  const service = await startService(readSettings(env, "serve"), { print: () => {} });
  try {
    service.warmUp();
    const url = `http://logo-lookup.test/acme.test?token=${service.demo!.publishableKey}`;
    // A miss waits for discovery at most 3 s, then answers 404 while it goes on: ask again, for
    // at most 20 s (a loaded machine), until the discovered logo is there.
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 500));
      const response = await service.fetch(
        new Request(url, { headers: { host: "logo-lookup.test" } }),
      );
      await response.body?.cancel();
      status = response.status;
      if (status !== 200 && status !== 404) throw new Error(`answered ${status}`);
    }
    assert.equal(status, 200, "the logo of the site signed by the private CA was discovered");
    assert.ok(site.requests.includes("/i.png"));
  } finally {
    await service.close();
    await site.close();
  }
});
