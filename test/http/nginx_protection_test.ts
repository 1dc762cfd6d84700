/**
 * What the one-box nginx recipe (`docs/operate/deploy/nginx.conf`) protects the service from: real nginx
 * in front of real `src/main.ts` instances, loopback only. The recipe runs as
 * `deploy_nginx_test.ts` runs it (its addresses and cache path moved, `startDeployRecipe`), with
 * nginx's main context as its comments advise, and the one timeout each test waits for shortened
 * (else that test would take its full length).
 *
 * - Slowloris: 2,000 connections that send half a request head and stall (some trickling a byte
 *   every 500 ms) are held by nginx and closed after its `client_header_timeout`, counted from
 *   the connection; meanwhile requests through nginx are answered 200, and the service's
 *   descriptors grow by no more than nginx's idle upstream connections.
 * - One client's many requests: past `limit_conn`, one address's excess requests (which declare
 *   a body and never send it) are answered 429 at once while another address (127.0.0.2) is
 *   served; the held ones end at `client_body_timeout`, and the service keeps answering.
 * - A hung instance (SIGSTOP) and a dead one (SIGKILL) of two behind the upstream: 9 requests
 *   through nginx are all answered 200; the one that met the hung instance after
 *   `proxy_read_timeout`, the one that met the dead one at once, and none is sent to it again
 *   within `fail_timeout`.
 */
import assert from "node:assert/strict";
import { externalTool } from "../support/external_tool.ts";
import { type MainProcess, startMainProcess } from "../support/main_process.ts";
import { HeldConnection } from "../support/held_connection.ts";
import { median } from "../support/median.ts";
import { moveOnce, type NginxCache, startDeployRecipe } from "../support/nginx_cache.ts";
import { processSockets } from "../support/process_sockets.ts";
import { rawExchange, type RawResult } from "../support/raw_http.ts";
import {
  directive,
  MAIN_CONTEXT,
  milliseconds,
  RECIPE,
  UPSTREAM_KEEPALIVE,
} from "../support/recipe_settings.ts";

const nginx = externalTool("nginx", ["/usr/sbin/nginx"], "apt-get install nginx");
const encoder = new TextEncoder();

/** `config` with the directive `name` (set exactly once) set to `value` instead. */
function setDirective(config: string, name: string, value: string): string {
  return moveOnce(config, `${name} ${directive(config, name)};`, `${name} ${value};`);
}

/** Polls `done` every 25 ms until it holds; throws after `deadlineMs`. */
async function until(what: string, deadlineMs: number, done: () => boolean): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The single worker of the nginx whose master is `proxy`: its descriptors and resident memory. */
function nginxWorker(proxy: NginxCache): { descriptors: number; rssMiB: number } {
  const [worker] = Deno.readTextFileSync(`/proc/${proxy.pid}/task/${proxy.pid}/children`).trim()
    .split(/\s+/).map(Number);
  const status = Deno.readTextFileSync(`/proc/${worker}/status`);
  const rssKiB = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return { descriptors: [...Deno.readDirSync(`/proc/${worker}/fd`)].length, rssMiB: rssKiB / 1024 };
}

/** Service instances over one store file, and the demo logo's path (`/logo-lookup.test?…`). */
interface Instances extends AsyncDisposable {
  readonly all: MainProcess[];
  readonly demo: string;
}

/** Starts `count` instances of `src/main.ts` on 127.0.0.1 over one new store file. */
async function startInstances(count: number): Promise<Instances> {
  const dir = await Deno.makeTempDir({ prefix: "nginx_protection_" });
  const all: MainProcess[] = [];
  const close = async () => {
    await Promise.all(all.map((instance) => instance[Symbol.asyncDispose]()));
    await Deno.remove(dir, { recursive: true });
  };
  try {
    for (let i = 0; i < count; i++) {
      all.push(await startMainProcess({ LOGO_KV: `${dir}/store.kv`, LOGO_HOSTNAME: "127.0.0.1" }));
    }
    // The first start on the empty store seeds the demo key and logos and prints their URL.
    const line = await all[0].line(/\/logo-lookup\.test\?token=pk_/);
    const demo = /\/logo-lookup\.test\?token=pk_[A-Za-z0-9]+/.exec(line)![0];
    return { all, demo, [Symbol.asyncDispose]: close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** `GET path` to 127.0.0.1:`port` on a new connection, as a browser asks for a logo. */
function get(port: number, path: string, timeoutMs = 60_000): Promise<RawResult> {
  return rawExchange(
    port,
    `GET ${path} HTTP/1.1\r\nHost: logos.example.com\r\nConnection: close\r\n\r\n`,
    { timeoutMs },
  );
}

/** The status of an answer, or `closed` when there was none. */
function statusOf(result: RawResult): number | "closed" {
  return result.kind === "response" ? result.status : "closed";
}

const HALF_HEAD = encoder.encode("GET /healthz HTTP/1.1\r\nHost: logos.example.com\r\nX-Slow: ");
const TRICKLE_MS = 500;

/**
 * A connection to 127.0.0.1:`port` that sent {@link HALF_HEAD} and then stalls or, with
 * `trickle`, sends a byte every 500 ms, until nginx ends it.
 */
async function openSlow(port: number, trickle: boolean): Promise<HeldConnection> {
  const client = await HeldConnection.open(port, HALF_HEAD);
  if (trickle) client.trickle(encoder.encode("a"), TRICKLE_MS);
  return client;
}

const SLOW_CLIENTS = 2000;
const TRICKLING = 20;
const OPEN_AT_ONCE = 100;

Deno.test({
  name: "nginx recipe: 2,000 half-sent request heads are held and closed by nginx, not the service",
  ignore: nginx.ignore,
  async fn() {
    const recipeTimeout = directive(RECIPE, "client_header_timeout");
    const headerTimeoutMs = 6_000; // the recipe's, shortened so the test does not wait for it
    assert.ok(headerTimeoutMs <= milliseconds(recipeTimeout), "the test shortens it");
    await using instances = await startInstances(1);
    const [service] = instances.all;
    await using proxy = await startDeployRecipe(nginx.path, {
      upstreams: [service.port],
      main: MAIN_CONTEXT,
      edit: (config) => setDirective(config, "client_header_timeout", `${headerTimeoutMs}ms`),
    });
    assert.equal(statusOf(await get(proxy.port, instances.demo)), 200, proxy.log());
    const serviceSockets = processSockets(service.pid);

    const slow: HeldConnection[] = [];
    try {
      const started = performance.now();
      for (let i = 0; i < SLOW_CLIENTS; i += OPEN_AT_ONCE) {
        const batch = Array.from(
          { length: Math.min(OPEN_AT_ONCE, SLOW_CLIENTS - i) },
          (_, j) => openSlow(proxy.port, i + j < TRICKLING),
        );
        const opened = await Promise.allSettled(batch);
        for (const result of opened) if (result.status === "fulfilled") slow.push(result.value);
        const failed = opened.find((result) => result.status === "rejected");
        if (failed !== undefined) throw failed.reason;
      }
      const openMs = performance.now() - started;

      // Meanwhile: new requests through nginx are answered, by the service (/healthz is never
      // cached) and from the cache (the demo logo).
      const probeMs: number[] = [];
      for (let i = 0; i < 10; i++) {
        const before = performance.now();
        const answer = await get(proxy.port, i % 2 === 0 ? "/healthz" : instances.demo);
        probeMs.push(performance.now() - before);
        assert.equal(statusOf(answer), 200, `probe ${i} while held\n${proxy.log()}`);
      }
      const held = slow.filter((client) => client.closed === undefined).length;
      const worker = nginxWorker(proxy);
      const serviceSocketsHeld = processSockets(service.pid);
      assert.equal(held, SLOW_CLIENTS, `${held} of ${SLOW_CLIENTS} held at once after the probes`);
      // The service sees nginx's upstream connections only: none for a request not yet whole.
      assert.ok(
        serviceSocketsHeld <= serviceSockets + UPSTREAM_KEEPALIVE,
        `service sockets: ${serviceSockets} before, ${serviceSocketsHeld} with ${held} held`,
      );

      // Generous for a loaded machine, and well short of nginx's default of 60 s.
      const lateMs = 30_000;
      await until(
        "nginx closes every half-sent head",
        headerTimeoutMs + openMs + lateMs,
        () => slow.every((client) => client.closed !== undefined),
      );
      const lifetimes = slow.map((client) => client.closed! - client.opened);
      const trickled = lifetimes.slice(0, TRICKLING);
      assert.ok(
        Math.min(...lifetimes) >= headerTimeoutMs * 0.9,
        `closed by the header timeout, not before: the shortest lived ${
          Math.round(Math.min(...lifetimes))
        } ms`,
      );
      assert.ok(
        Math.max(...lifetimes) < headerTimeoutMs + lateMs,
        `closed at the header timeout, trickling or not: the longest lived ${
          Math.round(Math.max(...lifetimes))
        } ms`,
      );
      assert.equal(
        slow.reduce((sum, client) => sum + client.received.length, 0),
        0,
        "no answer sent",
      );
      assert.equal(statusOf(await get(proxy.port, "/healthz")), 200, "and after");
      assert.equal(statusOf(await get(service.port, "/healthz")), 200, "the service, directly");

      console.log(
        `${SLOW_CLIENTS} half-sent heads opened in ${Math.round(openMs)} ms, all held at once; ` +
          `closed after ${Math.round(Math.min(...lifetimes))}–${
            Math.round(Math.max(...lifetimes))
          } ms (median ${Math.round(median(lifetimes))}, trickling ${
            Math.round(Math.min(...trickled))
          }–${Math.round(Math.max(...trickled))}) of client_header_timeout ` +
          `${headerTimeoutMs} ms; 10 probes 200 in ≤ ${Math.round(Math.max(...probeMs))} ms; ` +
          `service sockets ${serviceSockets} → ${serviceSocketsHeld}; nginx worker ` +
          `${worker.descriptors} descriptors, ${worker.rssMiB.toFixed(1)} MiB RSS`,
      );
    } finally {
      for (const client of slow) client.close();
      await Promise.all(slow.map((client) => client.ended));
    }
  },
});

Deno.test({
  name: "nginx recipe: one address's requests past limit_conn get 429, another address is served",
  ignore: nginx.ignore,
  async fn() {
    const [, limitText] = directive(RECIPE, "limit_conn").split(/\s+/);
    const limit = Number(limitText);
    assert.ok(limit >= 6 && limit <= 1000, `a sensible limit_conn: ${limit}`);
    const refusal = Number(directive(RECIPE, "limit_conn_status"));
    assert.equal(refusal, 429, "Too Many Requests, not 503");
    const bodyTimeoutMs = 5_000; // the recipe's client_body_timeout, shortened
    assert.ok(bodyTimeoutMs <= milliseconds(directive(RECIPE, "client_body_timeout")));
    const excess = 20;
    await using instances = await startInstances(1);
    const [service] = instances.all;
    await using proxy = await startDeployRecipe(nginx.path, {
      upstreams: [service.port],
      main: MAIN_CONTEXT,
      edit: (config) => setDirective(config, "client_body_timeout", `${bodyTimeoutMs}ms`),
    });
    const serviceSockets = processSockets(service.pid);

    // Each holds a request in progress: its head is whole, its announced body never comes.
    const holding =
      "GET /healthz HTTP/1.1\r\nHost: logos.example.com\r\nContent-Length: 16\r\n\r\n";
    const settled: { result: RawResult; ms: number }[] = [];
    const started = performance.now();
    const all = Array.from(
      { length: limit + excess },
      () =>
        rawExchange(proxy.port, holding, { timeoutMs: bodyTimeoutMs + 60_000 }).then((result) => {
          settled.push({ result, ms: performance.now() - started });
        }),
    );
    try {
      await until("the excess is answered", 30_000, () => settled.length >= excess);
      const refused = settled.map(({ result }) => statusOf(result));
      assert.deepEqual(refused, Array(excess).fill(refusal), proxy.log());
      const refusedMs = Math.max(...settled.map(({ ms }) => ms));

      // While this address is at its limit: it is refused, another is served, and so is the
      // service directly; none of the held requests reached the service.
      assert.equal(statusOf(await get(proxy.port, "/healthz")), refusal);
      const other = Deno.createHttpClient({ localAddress: "127.0.0.2" });
      try {
        for (const path of ["/healthz", instances.demo]) {
          const response = await fetch(`${proxy.url}${path}`, { client: other });
          await response.body?.cancel();
          assert.equal(response.status, 200, `127.0.0.2: ${path}`);
        }
      } finally {
        other.close();
      }
      assert.equal(statusOf(await get(service.port, "/healthz")), 200, "the service, directly");
      const serviceSocketsHeld = processSockets(service.pid);
      assert.equal(settled.length, excess, `the ${limit} others are still held`);

      await Promise.all(all);
      const held = settled.slice(excess);
      assert.deepEqual(
        held.map(({ result }) => statusOf(result)),
        Array(limit).fill("closed"),
        "ended at client_body_timeout, unanswered",
      );
      const heldMs = held.map(({ ms }) => ms);
      assert.ok(Math.min(...heldMs) >= bodyTimeoutMs * 0.9, `held ${Math.min(...heldMs)} ms`);
      assert.ok(
        serviceSocketsHeld <= serviceSockets + UPSTREAM_KEEPALIVE,
        `service sockets: ${serviceSockets} before, ${serviceSocketsHeld} with ${limit} held`,
      );
      assert.equal(statusOf(await get(proxy.port, "/healthz")), 200, "served again once ended");

      console.log(
        `limit_conn ${limit}: ${excess} excess answered ${refusal} within ${
          Math.round(refusedMs)
        } ms; 127.0.0.2 served meanwhile; ${limit} held until ${Math.round(Math.min(...heldMs))}–${
          Math.round(Math.max(...heldMs))
        } ms (client_body_timeout ${bodyTimeoutMs} ms); service sockets ${serviceSockets} → ` +
          `${serviceSocketsHeld}`,
      );
    } finally {
      await Promise.allSettled(all);
    }
  },
});

/** One request through nginx: its status, the instances it was passed to, and how long it took. */
interface Routed {
  readonly status: number | "closed";
  readonly upstreams: string[];
  readonly start: number;
  readonly end: number;
}

async function routed(proxy: NginxCache, path: string): Promise<Routed> {
  const start = performance.now();
  const answer = await get(proxy.port, path);
  const end = performance.now();
  const upstreams = answer.kind === "response"
    ? (answer.headers.get("x-upstream") ?? "").split(/,\s*/).filter(Boolean)
    : [];
  return { status: statusOf(answer), upstreams, start, end };
}

/** The recipe over two instances, its responses naming the instances tried (`X-Upstream`). */
function startOverTwo(instances: Instances, readTimeoutMs?: number): Promise<NginxCache> {
  const [a, b] = instances.all;
  return startDeployRecipe(nginx.path, {
    upstreams: [a.port, b.port],
    main: MAIN_CONTEXT,
    edit(config) {
      const status = "add_header X-Cache-Status $upstream_cache_status always;";
      config = moveOnce(config, status, `${status}\n add_header X-Upstream $upstream_addr always;`);
      return readTimeoutMs === undefined
        ? config
        : setDirective(config, "proxy_read_timeout", `${readTimeoutMs}ms`);
    },
  });
}

/** The upstream servers' fail_timeout in ms, the same for every instance. */
function failTimeoutMs(): number {
  const found = [...RECIPE.matchAll(/^\s*server 127\.0\.0\.1:\d+ .*fail_timeout=(\w+);/gm)];
  assert.equal(found.length, 2, "two instances in the upstream");
  assert.equal(found[0][1], found[1][1]);
  return milliseconds(found[0][1]);
}

/**
 * Warms both instances through nginx, then runs `fault` on `instance` (0 or 1) and sends 9
 * requests for new sizes of the demo logo (never cached). Checks that all are answered 200 and
 * that one went to the failed instance and then to the other, and returns it.
 */
async function nineRequests(
  instances: Instances,
  proxy: NginxCache,
  fault: (instance: MainProcess) => Promise<void>,
  repair: (instance: MainProcess) => void,
): Promise<{ requests: Routed[]; failed: Routed; failedIndex: number }> {
  const [a, b] = instances.all.map((instance) => `127.0.0.1:${instance.port}`);
  const warm = [];
  for (let size = 40; size < 44; size++) {
    warm.push(await routed(proxy, `${instances.demo}&size=${size}`));
  }
  assert.deepEqual(warm.map((request) => request.status), [200, 200, 200, 200], proxy.log());
  assert.deepEqual(new Set(warm.flatMap((request) => request.upstreams)), new Set([a, b]));

  await fault(instances.all[0]);
  const requests: Routed[] = [];
  try {
    for (let size = 50; size < 59; size++) {
      requests.push(await routed(proxy, `${instances.demo}&size=${size}`));
    }
  } finally {
    repair(instances.all[0]);
  }
  assert.deepEqual(requests.map((request) => request.status), Array(9).fill(200), proxy.log());
  const failedIndex = requests.findIndex((request) => request.upstreams.includes(a));
  assert.ok(failedIndex >= 0, "one request met the failed instance");
  const failed = requests[failedIndex];
  assert.deepEqual(failed.upstreams, [a, b], "tried there, then answered by the other");
  const failTimeout = failTimeoutMs();
  for (const request of requests.slice(failedIndex + 1)) {
    if (request.start < failed.end + failTimeout) {
      assert.deepEqual(request.upstreams, [b], "out of rotation for fail_timeout");
    }
  }
  return { requests, failed, failedIndex };
}

Deno.test({
  name: "nginx recipe: a hung instance (SIGSTOP) is taken out of rotation after proxy_read_timeout",
  ignore: nginx.ignore,
  async fn() {
    const readTimeoutMs = 5_000; // the recipe's proxy_read_timeout, shortened
    assert.ok(readTimeoutMs <= milliseconds(directive(RECIPE, "proxy_read_timeout")));
    await using instances = await startInstances(2);
    await using proxy = await startOverTwo(instances, readTimeoutMs);
    const { requests, failed, failedIndex } = await nineRequests(
      instances,
      proxy,
      (instance) => Promise.resolve(Deno.kill(instance.pid, "SIGSTOP")),
      (instance) => Deno.kill(instance.pid, "SIGCONT"),
    );
    const failedMs = failed.end - failed.start;
    assert.ok(failedMs >= readTimeoutMs * 0.9, `waited ${failedMs} ms for the hung instance`);
    const others = requests.filter((_, i) => i !== failedIndex).map((r) => r.end - r.start);
    assert.ok(Math.max(...others) < readTimeoutMs, "no other request waited for it");
    // Continued, the instance answers again.
    assert.equal(statusOf(await get(instances.all[0].port, "/healthz")), 200);
    console.log(
      `hung instance: 9/9 answered 200; request ${failedIndex + 1} took ${
        Math.round(failedMs)
      } ms (proxy_read_timeout ${readTimeoutMs} ms), the other 8 at most ${
        Math.round(Math.max(...others))
      } ms, none sent to the hung instance again`,
    );
  },
});

Deno.test({
  name: "nginx recipe: a dead instance (SIGKILL) is taken out of rotation at once",
  ignore: nginx.ignore,
  async fn() {
    await using instances = await startInstances(2);
    await using proxy = await startOverTwo(instances);
    const { requests, failed, failedIndex } = await nineRequests(
      instances,
      proxy,
      async (instance) => await instance[Symbol.asyncDispose](),
      () => {},
    );
    const all = requests.map((r) => r.end - r.start);
    console.log(
      `dead instance: 9/9 answered 200; request ${failedIndex + 1} (tried it first) took ${
        Math.round(failed.end - failed.start)
      } ms, all at most ${Math.round(Math.max(...all))} ms`,
    );
  },
});
