/**
 * Issue #29's defences behind the shipped proxy, idle connections: the stack of
 * `nginx_defences_stack.ts` (the real service behind the real nginx recipe, with nginx's main
 * context as the recipe's comments advise); 3,000 keep-alive connections (one request answered
 * each, then idle) and 3,000 that never send a byte, held by nginx while 20 probes through it are
 * answered 200; the service's sockets stay within the recipe's upstream `keepalive`; nginx ends
 * each idle connection at its own timeout (`keepalive_timeout`, `client_header_timeout`), not
 * before. The corpus: `nginx_defences_corpus_test.ts`; the framing exchanges:
 * `nginx_defences_framing_test.ts`.
 *
 * It can fail; tried by hand: both upstream lines at a port nothing listens on fails it (nginx's
 * 502s); Debian's `worker_connections 768` instead of the advised main context fails it (5,344
 * connections ended early: nginx closes idle ones to make room), and so do the idle clients
 * connected to the service instead of nginx (3,010 service sockets).
 */
import assert from "node:assert/strict";
import { HeldConnection } from "../support/held_connection.ts";
import { median } from "../support/median.ts";
import { assertNoSecrets, nginx, startStack } from "../support/nginx_defences_stack.ts";
import { processSockets } from "../support/process_sockets.ts";
import { rawExchange } from "../support/raw_http.ts";
import { directive, milliseconds, RECIPE, UPSTREAM_KEEPALIVE } from "../support/recipe_settings.ts";
import { within } from "../support/within.ts";

const encoder = new TextEncoder();

/** The soft limit on open files of the process `pid` (`self`: this one). */
function openFileLimit(pid: number | "self"): number {
  const limits = Deno.readTextFileSync(`/proc/${pid}/limits`);
  const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1];
  return soft === undefined || soft === "unlimited" ? Infinity : Number(soft);
}

/**
 * What the keep-alive connection `n` asks once: `/healthz`, answered by the service (never
 * stored), its query ignored. Each asks its own URL: the recipe's `proxy_cache_lock` lets one
 * request at a time through for a URL not in the cache yet, and the others wait, each half a
 * second longer, up to `proxy_cache_lock_timeout` (5 s), whether or not the answer is then stored.
 */
function keepAliveRequest(n: number): Uint8Array {
  return encoder.encode(`GET /healthz?n=${n} HTTP/1.1\r\nHost: logos.example.com\r\n\r\n`);
}

/** Idle connections of each kind the issue asks nginx to hold. */
const IDLE = 3000;
/**
 * Keep-alive requests in flight at once: no more than the upstream `keepalive`, so nginx opens no
 * more connections to the service than it keeps idle (none to close, nothing to wait for).
 */
const IN_FLIGHT = 30;
const PROBES = 20;

Deno.test({
  name: "nginx recipe + main.ts: 3,000 idle keep-alive and 3,000 silent connections held, " +
    "probes answered, the service's sockets bounded",
  ignore: nginx.ignore,
  async fn() {
    const keepAliveMs = milliseconds(directive(RECIPE, "keepalive_timeout"));
    const headerMs = milliseconds(directive(RECIPE, "client_header_timeout"));
    assert.ok(IN_FLIGHT <= UPSTREAM_KEEPALIVE);
    assert.ok(
      IN_FLIGHT < Number(directive(RECIPE, "limit_conn").split(/\s+/)[1]),
      "under limit_conn",
    );
    await using stack = await startStack();
    const { service, proxy, values, worker } = stack;
    // Each idle connection takes a descriptor here and one in nginx's worker, which inherits this
    // process's limit when raising it to worker_rlimit_nofile is refused (as in a container).
    const room = Math.min(openFileLimit("self"), openFileLimit(worker)) - 500;
    const idle = Math.min(IDLE, Math.floor(room / 2));
    if (idle < IDLE) {
      console.warn(
        `open-file limits (this process ${openFileLimit("self")}, nginx's worker ` +
          `${openFileLimit(worker)}) leave room for ${idle} connections of each kind, not ${IDLE}`,
      );
    }
    assert.ok(idle >= 500, `descriptors for ${idle} connections of each kind only`);
    const before = processSockets(service.pid);

    const keepAlive: HeldConnection[] = [];
    const silent: HeldConnection[] = [];
    try {
      const started = performance.now();
      for (let i = 0; i < idle; i += IN_FLIGHT) {
        const batch = await Promise.all(
          Array.from(
            { length: Math.min(IN_FLIGHT, idle - i) },
            (_, j) => HeldConnection.open(proxy.port, keepAliveRequest(i + j)),
          ),
        );
        keepAlive.push(...batch);
        await within(
          Promise.all(batch.map((client) => client.answered())),
          60_000,
          `keep-alive requests ${i + 1}–${i + batch.length} answered`,
        );
      }
      const askedMs = performance.now() - started;
      const statuses = new Set(keepAlive.map((client) => client.received.slice(0, 12)));
      assert.deepEqual([...statuses], ["HTTP/1.1 200"], "every keep-alive request answered 200");
      assert.ok(
        keepAlive.every((client) => !/^connection: *close/im.test(client.received)),
        "nginx keeps each connection alive",
      );
      const afterAsking = processSockets(service.pid);

      const silentStarted = performance.now();
      for (let i = 0; i < idle; i += 100) {
        const batch = Array.from(
          { length: Math.min(100, idle - i) },
          () => HeldConnection.open(proxy.port),
        );
        silent.push(...await Promise.all(batch));
      }
      const silentMs = performance.now() - silentStarted;

      const probeMs: number[] = [];
      for (let i = 0; i < PROBES; i++) {
        const path = i % 2 === 0 ? "/healthz" : `/example.com?token=${values.pk}`;
        const asked = performance.now();
        const answer = await rawExchange(
          proxy.port,
          `GET ${path} HTTP/1.1\r\nHost: logos.example.com\r\nConnection: close\r\n\r\n`,
          { timeoutMs: 30_000 },
        );
        probeMs.push(performance.now() - asked);
        const status = answer.kind === "response" ? answer.status : "closed";
        assert.equal(status, 200, `probe ${i + 1} (${path.slice(0, 12)})\n${proxy.log()}`);
      }
      const probed = performance.now();
      const serviceSockets = processSockets(service.pid);
      const workerFds = [...Deno.readDirSync(`/proc/${worker}/fd`)].length;
      // Held while the probes were answered: each still open, or ended by nginx at its timeout.
      const heldKeepAlive = keepAlive.filter((client) => client.closed === undefined).length;
      const heldSilent = silent.filter((client) => client.closed === undefined).length;
      const early = [
        ...keepAlive.filter((client) =>
          client.closed !== undefined && client.closed - client.lastRead < keepAliveMs * 0.9
        ),
        ...silent.filter((client) =>
          client.closed !== undefined && client.closed - client.opened < headerMs * 0.9
        ),
      ];
      assert.equal(early.length, 0, `${early.length} ended by nginx before their timeout`);
      assert.ok(
        serviceSockets <= before + UPSTREAM_KEEPALIVE,
        `service sockets: ${before} before, ${afterAsking} after the keep-alive requests, ` +
          `${serviceSockets} with ${heldKeepAlive} + ${heldSilent} idle connections held`,
      );
      assert.equal(silent.reduce((sum, client) => sum + client.received.length, 0), 0);

      // nginx ends them: the silent ones at client_header_timeout (from the connection), the
      // keep-alive ones at keepalive_timeout (from their answer). Generous for a loaded machine.
      const lateMs = 30_000;
      await within(
        Promise.all([...keepAlive, ...silent].map((client) => client.ended)),
        Math.max(keepAliveMs, headerMs) + lateMs,
        "nginx ends every idle connection",
      );
      const keepAliveLived = keepAlive.map((client) => client.closed! - client.lastRead);
      const silentLived = silent.map((client) => client.closed! - client.opened);
      for (
        const [kind, lived, timeout] of [
          ["keep-alive", keepAliveLived, keepAliveMs],
          ["silent", silentLived, headerMs],
        ] as const
      ) {
        const [shortest, longest] = [Math.min(...lived), Math.max(...lived)];
        assert.ok(shortest >= timeout * 0.9, `${kind}: one ended after ${shortest} ms`);
        assert.ok(longest < timeout + lateMs, `${kind}: one ended after ${longest} ms`);
      }
      const after = await rawExchange(
        proxy.port,
        "GET /healthz HTTP/1.1\r\nHost: logos.example.com\r\nConnection: close\r\n\r\n",
      );
      assert.equal(after.kind === "response" && after.status, 200, "and after");
      await assertNoSecrets(stack);

      console.log(
        `${idle} keep-alive requests answered 200 in ${Math.round(askedMs)} ms (${IN_FLIGHT} in ` +
          `flight), ${idle} silent connections opened in ${Math.round(silentMs)} ms; ${PROBES} ` +
          `probes 200 (median ${Math.round(median(probeMs))} ms, slowest ${
            Math.round(Math.max(...probeMs))
          } ms), done ${((probed - started) / 1000).toFixed(1)} s after the first connection, ` +
          `${heldKeepAlive} + ${heldSilent} held; service sockets ${before} → ${afterAsking} → ` +
          `${serviceSockets} (keepalive ${UPSTREAM_KEEPALIVE}); nginx's worker ${workerFds} ` +
          `descriptors; nginx ended the keep-alive ones ${
            Math.round(median(keepAliveLived))
          } ms after their answer (median; keepalive_timeout ${keepAliveMs}), the silent ones ` +
          `${Math.round(median(silentLived))} ms after connecting (client_header_timeout ` +
          `${headerMs})`,
      );
    } finally {
      for (const client of [...keepAlive, ...silent]) client.close();
      await Promise.all([...keepAlive, ...silent].map((client) => client.ended));
    }
  },
});
