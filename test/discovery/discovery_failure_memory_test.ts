/**
 * Discovery's memory of failure: only "the site answered and has no usable icon" is remembered
 * for a day; a DNS failure, a refused connection, a TLS failure or a timeout is retried after a
 * short delay that grows with each consecutive failure. Each failed discovery is logged once.
 * The clock is injected: no test waits for a delay to pass.
 */
import assert from "node:assert/strict";
import { type ConnectToMap, parseConnectTo } from "../../src/discovery/connect_to.ts";
import { createDiscovery, type DiscoveryConfig } from "../../src/discovery/discover.ts";
import { IN_PROCESS } from "../../src/store/logo_ingest.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { iconPng } from "../support/images.ts";
import { closedPort, page, startSite } from "../support/discovery_sites.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const noDns = (name: string): Promise<string[]> => Promise.reject(new Error(`no DNS for ${name}`));

interface Setup {
  connectTo?: ConnectToMap;
  config?: Partial<DiscoveryConfig>;
}

async function harness({ connectTo, config }: Setup) {
  const kv = await Deno.openKv(":memory:");
  const now = { value: Date.UTC(2026, 0, 1) };
  const logged: string[] = [];
  const discovery = createDiscovery({
    imaging: IN_PROCESS,
    kv,
    store: new LogoStore(kv, { clock: () => now.value }),
    connectTo,
    resolve: noDns,
    clock: () => now.value,
    log: (message) => logged.push(message),
    ...config,
  });
  const entry = async () =>
    (await kv.get<{ failures?: number; reason?: string }>(["discovery", "missing", "acme.test"]))
      .value;
  return { kv, now, logged, discovery, entry };
}

/** Discovers acme.test, then checks it is left alone for `delay` and looked at again after it. */
async function assertRetriedAfter(
  h: Awaited<ReturnType<typeof harness>>,
  delay: number,
  pageError: RegExp,
): Promise<void> {
  const start = h.now.value;
  const logsBefore = h.logged.length;
  const outcome = await h.discovery.discover("acme.test");
  assert.equal(outcome.status, "not-found");
  assert.equal(outcome.failure, "unreachable");
  assert.match(outcome.pageError ?? "", pageError);
  assert.equal(outcome.retryAt, start + delay);
  assert.equal(h.logged.length, logsBefore + 1, "one log line per failed discovery");
  assert.match(h.logged.at(-1)!, /^Discovery could not reach acme\.test \(.+\); retrying in /);

  h.now.value = start + delay - 1;
  const waiting = await h.discovery.discover("acme.test");
  assert.equal(waiting.status, "known-missing");
  assert.equal(waiting.failure, "unreachable");
  assert.equal(h.logged.length, logsBefore + 1, "a remembered failure is not logged again");
  h.now.value = start + delay;
}

Deno.test("failure memory: a refused connection is retried after 1 min, then 2, 4 … up to 1 h", async () => {
  const refused = closedPort();
  const h = await harness({
    connectTo: parseConnectTo(
      `acme.test:443:127.0.0.1:${refused},acme.test:80:127.0.0.1:${refused}`,
    ),
  });
  try {
    for (const minutes of [1, 2, 4, 8, 16, 32, 60, 60]) {
      await assertRetriedAfter(h, minutes * MINUTE, /ECONNREFUSED|refused/i);
    }
    assert.equal((await h.entry())?.failures, 8);
    assert.match(h.logged.at(-1)!, /retrying in 1 h, failure 8 in a row$/);
  } finally {
    h.kv.close();
  }
});

Deno.test("failure memory: a TLS failure (untrusted certificate) is retried after a short delay", async () => {
  const tls = new URL("../fixtures/discovery_tls/", import.meta.url);
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: Deno.readTextFileSync(new URL("cert.pem", tls)),
    key: Deno.readTextFileSync(new URL("key.pem", tls)),
    onListen() {},
    onError: () => new Response("", { status: 500 }),
  }, () => new Response(page(`<link rel="icon" href="/i.png">`)));
  // The fixture certificate is not trusted here (no caCerts): the handshake fails.
  const h = await harness({
    connectTo: parseConnectTo(
      `acme.test:443:127.0.0.1:${server.addr.port},acme.test:80:127.0.0.1:${closedPort()}`,
    ),
  });
  try {
    await assertRetriedAfter(h, MINUTE, /certificate/i);
    await assertRetriedAfter(h, 2 * MINUTE, /certificate/i);
  } finally {
    h.kv.close();
    await server.shutdown();
  }
});

Deno.test("failure memory: a site that never answers (timeout) is retried after a short delay", async () => {
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of silent) held.push(conn); // accepted, never answered
  })();
  const port = silent.addr.port;
  const h = await harness({
    connectTo: parseConnectTo(`acme.test:443:127.0.0.1:${port},acme.test:80:127.0.0.1:${port}`),
    config: { budgetMs: 300 },
  });
  try {
    await assertRetriedAfter(h, MINUTE, /time budget exhausted/);
  } finally {
    h.kv.close();
    silent.close();
    for (const conn of held) conn.close();
    await accepting.catch(() => {});
  }
});

Deno.test("failure memory: a DNS failure is retried after a short delay", async () => {
  const h = await harness({}); // nothing mapped; the resolver fails every name
  try {
    await assertRetriedAfter(h, MINUTE, /Cannot resolve acme\.test: no DNS for acme\.test/);
    await assertRetriedAfter(h, 2 * MINUTE, /Cannot resolve acme\.test/);
  } finally {
    h.kv.close();
  }
});

Deno.test("failure memory: an icon cut short by the time budget is not a verdict: retried soon", async () => {
  const site = startSite({
    "/": { body: page(`<link rel="icon" href="/slow.png">`) },
    "/slow.png": async () => (await site.held, new Response(iconPng(64, 64))),
  });
  const h = await harness({
    connectTo: parseConnectTo(
      `acme.test:80:127.0.0.1:${site.port},acme.test:443:127.0.0.1:${closedPort()}`,
    ),
    config: { budgetMs: 500 },
  });
  try {
    const outcome = await h.discovery.discover("acme.test");
    assert.equal(outcome.failure, "unreachable");
    assert.equal(outcome.retryAt, h.now.value + MINUTE);
    assert.match(h.logged[0], /http:\/\/acme\.test\/slow\.png: Gave up .* time budget exhausted/);
  } finally {
    h.kv.close();
    await site.close();
  }
});

Deno.test("failure memory: a site that answers with no usable icon is remembered for a day, and logged once without query strings", async () => {
  const site = startSite({
    "/": () => Response.redirect("http://acme.test/welcome?session=s3cret", 302),
    "/welcome": { body: page(""), status: 404 },
  });
  const refused = closedPort();
  const h = await harness({
    connectTo: parseConnectTo(
      `acme.test:80:127.0.0.1:${site.port},acme.test:443:127.0.0.1:${refused}`,
    ),
  });
  try {
    const outcome = await h.discovery.discover("acme.test");
    assert.equal(outcome.status, "not-found");
    assert.equal(outcome.failure, "no-icon");
    assert.equal(outcome.retryAt, h.now.value + DAY);
    assert.equal(h.logged.length, 1);
    assert.match(
      h.logged[0],
      /^Discovery found no logo for acme\.test \(.+\); not looking again for 24 h$/,
    );
    assert.match(h.logged[0], /http:\/\/acme\.test\/welcome/);
    assert.doesNotMatch(h.logged[0], /s3cret|session/);
    assert.doesNotMatch((await h.entry())?.reason ?? "", /s3cret/);

    h.now.value += DAY - 1;
    const remembered = await h.discovery.discover("acme.test");
    assert.equal(remembered.status, "known-missing");
    assert.equal(remembered.failure, "no-icon");
    assert.equal(h.logged.length, 1);
  } finally {
    h.kv.close();
    await site.close();
  }
});

Deno.test("failure memory: after network failures, a site that answers resets the count", async () => {
  let up = false;
  const site = startSite({
    "/": () => up ? new Response(page("")) : new Response("", { status: 500 }),
  });
  const refused = closedPort();
  const down = parseConnectTo(
    `acme.test:80:127.0.0.1:${refused},acme.test:443:127.0.0.1:${refused}`,
  );
  const h = await harness({ connectTo: down });
  try {
    await assertRetriedAfter(h, MINUTE, /refused/i);
    await assertRetriedAfter(h, 2 * MINUTE, /refused/i);
    // The same domain now answers (a new discovery over the same KV): no icon → a day.
    up = true;
    const again = createDiscovery({
      imaging: IN_PROCESS,
      kv: h.kv,
      store: new LogoStore(h.kv),
      connectTo: parseConnectTo(
        `acme.test:80:127.0.0.1:${site.port},acme.test:443:127.0.0.1:${refused}`,
      ),
      resolve: noDns,
      clock: () => h.now.value,
    });
    const outcome = await again.discover("acme.test");
    assert.equal(outcome.failure, "no-icon");
    assert.equal(outcome.retryAt, h.now.value + DAY);
    assert.equal((await h.entry())?.failures, 0);
  } finally {
    h.kv.close();
    await site.close();
  }
});
