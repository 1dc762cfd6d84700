import assert from "node:assert/strict";
import { parseConnectTo } from "../../src/discovery/connect_to.ts";
import { safeFetch, SafeFetchError } from "../../src/discovery/safe_fetch.ts";
import { closedPort, mapHosts, startSite } from "../support/discovery_sites.ts";

/** A resolver that must not be reached: mapped hosts and IP literals never resolve. */
const noDns = (name: string): Promise<string[]> => {
  throw new Error(`unexpected DNS lookup of ${name}`);
};

async function refusal(promise: Promise<unknown>): Promise<SafeFetchError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SafeFetchError, `expected SafeFetchError, got ${error}`);
    return error;
  }
  assert.fail("expected a refusal");
}

Deno.test("safe fetch reaches a mapped host with its own Host header and follows relative redirects", async () => {
  const site = startSite({
    "/old": () => new Response(null, { status: 301, headers: { location: "/new?x=1#frag" } }),
    "/new": (req) => new Response(`host=${req.headers.get("host")}`),
  });
  try {
    const connectTo = mapHosts({ "acme.test": site });
    const res = await safeFetch("http://acme.test/old", { connectTo, resolve: noDns });
    assert.equal(res.status, 200);
    assert.equal(new TextDecoder().decode(res.body), "host=acme.test");
    assert.equal(res.url, "http://acme.test/new?x=1");
    assert.deepEqual(res.hops, ["http://acme.test/old", "http://acme.test/new?x=1"]);
    assert.deepEqual(site.requests, ["/old", "/new?x=1"]);
  } finally {
    await site.close();
  }
});

Deno.test("safe fetch follows a redirect to another mapped host (canonical host)", async () => {
  const bare = startSite({ "/": () => Response.redirect("http://www.acme.test/", 302) });
  const www = startSite({ "/": { body: "canonical" } });
  try {
    const connectTo = mapHosts({ "acme.test": bare, "www.acme.test": www });
    const res = await safeFetch("http://acme.test/", { connectTo, resolve: noDns });
    assert.equal(res.url, "http://www.acme.test/");
    assert.equal(new TextDecoder().decode(res.body), "canonical");
  } finally {
    await bare.close();
    await www.close();
  }
});

Deno.test("safe fetch refuses a redirect to 127.0.0.1 when it is not mapped, even to a live port", async () => {
  const site = startSite({ "/secret": { body: "internal" } });
  site.requests.length = 0;
  const redirector = startSite({
    "/": () => Response.redirect(`http://127.0.0.1:${site.port}/secret`, 302),
  });
  try {
    const connectTo = mapHosts({ "acme.test": redirector });
    const error = await refusal(safeFetch("http://acme.test/", { connectTo, resolve: noDns }));
    assert.equal(error.code, "blocked_address");
    assert.equal(error.message, "Refused 127.0.0.1: loopback address is not public");
    assert.deepEqual(site.requests, [], "the loopback target must never be contacted");
  } finally {
    await site.close();
    await redirector.close();
  }
});

Deno.test("safe fetch refuses names that resolve only to non-public addresses", async () => {
  for (
    const addresses of [["10.0.0.7"], ["169.254.169.254"], ["::1"], ["::ffff:127.0.0.1"], [
      "100.64.1.1",
    ]]
  ) {
    const error = await refusal(
      safeFetch("http://internal.test/", { resolve: () => Promise.resolve(addresses) }),
    );
    assert.equal(error.code, "blocked_address", addresses[0]);
  }
  const none = await refusal(
    safeFetch("http://nothing.test/", { resolve: () => Promise.resolve([]) }),
  );
  assert.equal(none.code, "dns");
  const failing = await refusal(
    safeFetch("http://nxdomain.test/", { resolve: () => Promise.reject(new Error("NXDOMAIN")) }),
  );
  assert.equal(failing.code, "dns");
  assert.equal(failing.message, "Cannot resolve nxdomain.test: NXDOMAIN");
});

Deno.test("safe fetch refuses other schemes and IP literals of private ranges, before connecting", async () => {
  for (
    const [url, code] of [
      ["ftp://acme.test/x", "bad_scheme"],
      ["file:///etc/passwd", "bad_scheme"],
      ["http://10.1.2.3/", "blocked_address"],
      ["http://[::1]:8080/", "blocked_address"],
      ["http://[::ffff:7f00:1]/", "blocked_address"],
      ["http://0x7f.1/", "blocked_address"],
      ["http://2130706433/", "blocked_address"],
      ["not a url", "bad_url"],
    ]
  ) {
    const error = await refusal(safeFetch(url, { resolve: noDns }));
    assert.equal(error.code, code, url);
  }
});

Deno.test("safe fetch refuses a redirect to a non-http scheme", async () => {
  const site = startSite({
    "/": () => new Response(null, { status: 302, headers: { location: "file:///etc/passwd" } }),
  });
  try {
    const error = await refusal(
      safeFetch("http://acme.test/", {
        connectTo: mapHosts({ "acme.test": site }),
        resolve: noDns,
      }),
    );
    assert.equal(error.code, "bad_scheme");
  } finally {
    await site.close();
  }
});

Deno.test("safe fetch stops after 5 redirects", async () => {
  const site = startSite({
    "/loop": (req) => {
      const n = Number(new URL(req.url).searchParams.get("n") ?? 0);
      return new Response(null, { status: 302, headers: { location: `/loop?n=${n + 1}` } });
    },
  });
  try {
    const error = await refusal(
      safeFetch("http://acme.test/loop", {
        connectTo: mapHosts({ "acme.test": site }),
        resolve: noDns,
      }),
    );
    assert.equal(error.code, "too_many_redirects");
    assert.equal(site.requests.length, 6, "the first request and 5 redirects");
  } finally {
    await site.close();
  }
});

Deno.test("safe fetch refuses a declared huge body without reading it, and cuts an endless one", async () => {
  let pulled = 0;
  const site = startSite({
    "/huge": { body: new Uint8Array(300 * 1024), type: "image/png" },
    "/endless": () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            pulled++;
            controller.enqueue(new Uint8Array(16 * 1024).fill(0x41));
          },
        }),
        { headers: { "content-type": "image/png" } },
      ),
  });
  try {
    const options = {
      connectTo: mapHosts({ "acme.test": site }),
      resolve: noDns,
      maxBytes: 64 * 1024,
    };
    const huge = await refusal(safeFetch("http://acme.test/huge", options));
    assert.equal(huge.code, "too_large");
    assert.equal(huge.message, "Refused http://acme.test/huge: body exceeds 65536 bytes");
    const endless = await refusal(safeFetch("http://acme.test/endless", options));
    assert.equal(endless.code, "too_large");
    assert.ok(pulled > 4, "the stream was read up to the cap");
  } finally {
    await site.close();
  }
});

Deno.test("safe fetch decodes gzip and applies the cap to the decoded size (no gzip bomb)", async () => {
  const plain = new Uint8Array(200 * 1024).fill(0x20);
  const gz = new Uint8Array(
    await new Response(new Blob([plain]).stream().pipeThrough(new CompressionStream("gzip")))
      .arrayBuffer(),
  );
  const site = startSite({
    "/page": { body: gz, headers: { "content-encoding": "gzip" } },
  });
  try {
    const connectTo = mapHosts({ "acme.test": site });
    const ok = await safeFetch("http://acme.test/page", { connectTo, resolve: noDns });
    assert.equal(ok.body.length, plain.length);
    assert.ok(gz.length < 64 * 1024);
    const bomb = await refusal(
      safeFetch("http://acme.test/page", { connectTo, resolve: noDns, maxBytes: 64 * 1024 }),
    );
    assert.equal(bomb.code, "too_large");
  } finally {
    await site.close();
  }
});

Deno.test("safe fetch gives up on a slow server when the budget runs out", async () => {
  let reached!: () => void;
  const arrived = new Promise<void>((resolve) => reached = resolve);
  const site = startSite({
    "/slow": async () => {
      reached();
      await site.held; // answers only when the test ends
      return new Response("too late");
    },
  });
  try {
    const budget = new AbortController();
    const pending = safeFetch("http://acme.test/slow", {
      connectTo: mapHosts({ "acme.test": site }),
      resolve: noDns,
      signal: budget.signal,
    });
    await arrived;
    budget.abort(); // the budget expires while the server is still thinking
    const error = await refusal(pending);
    assert.equal(error.code, "timeout");
  } finally {
    await site.close();
  }
});

Deno.test("safe fetch reports a refused connection (https on a port nothing listens on)", async () => {
  const connectTo = parseConnectTo(`acme.test:443:127.0.0.1:${closedPort()}`);
  const error = await refusal(safeFetch("https://acme.test/", { connectTo, resolve: noDns }));
  assert.equal(error.code, "network");
});

const TLS = new URL("../fixtures/discovery_tls/", import.meta.url);
const CERT = Deno.readTextFileSync(new URL("cert.pem", TLS));
const KEY = Deno.readTextFileSync(new URL("key.pem", TLS));

Deno.test("safe fetch over https connects to the pinned address and still verifies the certificate's name", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: CERT, key: KEY, onListen() {} },
    (req) => new Response(`tls host=${req.headers.get("host")}`),
  );
  try {
    const port = server.addr.port;
    const connectTo = parseConnectTo(
      `acme.test:443:127.0.0.1:${port},other.test:443:127.0.0.1:${port}`,
    );
    const ok = await safeFetch("https://acme.test/", {
      connectTo,
      resolve: noDns,
      caCerts: [CERT],
    });
    assert.equal(new TextDecoder().decode(ok.body), "tls host=acme.test");
    // The same address under a name the certificate does not cover is refused by TLS.
    const wrongName = await refusal(
      safeFetch("https://other.test/", { connectTo, resolve: noDns, caCerts: [CERT] }),
    );
    assert.equal(wrongName.code, "tls"); // a TLS failure, which discovery never reads over http
    assert.match(wrongName.message, /TLS handshake failed: Hostname\/IP does not match/);
    // And the self-signed certificate is not trusted by default.
    const untrusted = await refusal(safeFetch("https://acme.test/", { connectTo, resolve: noDns }));
    assert.equal(untrusted.code, "tls");
  } finally {
    await server.shutdown();
  }
});

Deno.test("safe fetch drops the connection of an error page or redirect with an endless body", async () => {
  let cancelled!: () => void;
  const streamCancelled = new Promise<void>((resolve) => cancelled = resolve);
  const endless = (status: number) => () =>
    new Response(
      new ReadableStream({
        pull(controller) {
          controller.enqueue(new Uint8Array(16 * 1024));
        },
        cancel() {
          cancelled();
        },
      }),
      { status },
    );
  const site = startSite({ "/missing": endless(404) });
  try {
    const connectTo = mapHosts({ "acme.test": site });
    const res = await safeFetch("http://acme.test/missing", { connectTo, resolve: noDns });
    assert.equal(res.status, 404);
    assert.equal(res.body.length, 0);
    await streamCancelled; // the server saw the connection go away
  } finally {
    await site.close();
  }
});
