/**
 * `deno task bench:render`: what the render pool (`src/server/render_pool.ts`) changes, measured
 * against the real server process (`src/main.ts`, with `deno task start`'s V8 flags) on loopback.
 *
 * The store is one KV file holding a key with a huge limit and 20 logos of 512 px
 * (bench/support/bench_server.ts's). For each `LOGO_RENDER_WORKERS` value in `BENCH_WORKERS`
 * (default `0,1,2`; `0` renders inline in the serving isolate, as the server did before the pool):
 *
 * (a) cache-hit latency, one fresh server per value: an open-loop client
 *     (bench/support/fixed_rate_client.ts) asks for a cached default logo at `BENCH_HIT_RATE`/s
 *     (default 500) for `BENCH_SECONDS` (default 10) — alone, then again while a second client
 *     asks for `BENCH_COLD_RATE` never-seen variants per second (default 300, each one a render;
 *     1000 overloads 2 cores, so the render queue sheds and the hit latency shows how well cache
 *     hits keep their priority). Latency counts from each request's scheduled time, so a blocked
 *     isolate shows;
 * (b) cold-render throughput: one more fresh server per value, all started at once, then
 *     `BENCH_COLD_ROUNDS` rounds (default 3, at most 3) in which wrk (2 threads, 50 connections,
 *     `bench/support/cold_variants.lua`, every request a render; each round starts at another
 *     theme, so every request stays a render) runs against each server in turn, the order rotated
 *     each round, so that the machine's drift hits every value alike. For each run it reads the
 *     server's CPU time by thread from /proc (bench/support/thread_cpu.ts): the serving thread,
 *     the render workers, V8's helper threads (GC, compilation), the rest.
 *
 * CPU time per request moves less than requests/s on a busy machine. The clients run on the same
 * machine as the server and take CPU from it.
 *
 * @module
 */
import { KeyStore } from "../src/store/key_store.ts";
import { LogoStore } from "../src/store/logo_store.ts";
import { type MainProcess, startMainProcess } from "../test/support/main_process.ts";
import { benchLogo } from "./support/bench_server.ts";
import type { FixedRateResult } from "./support/fixed_rate_client.ts";
import { startTaskV8Flags } from "./support/start_task.ts";
import { cpuSince, type RoleCpu, threadCpu } from "./support/thread_cpu.ts";
import { hasWrk, runWrk, type WrkResult } from "./support/wrk.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? "10");
const HIT_RATE = Number(Deno.env.get("BENCH_HIT_RATE") ?? "500");
const COLD_RATE = Number(Deno.env.get("BENCH_COLD_RATE") ?? "300");
const WORKERS = (Deno.env.get("BENCH_WORKERS") ?? "0,1,2").split(",").map((w) => w.trim());
const LOGOS = 20;
/** Rounds of phase (b); each starts the cold walk at another of the three themes. */
const ROUNDS = Math.min(3, Number(Deno.env.get("BENCH_COLD_ROUNDS") ?? "3"));
const CLIENT = new URL("./support/fixed_rate_client.ts", import.meta.url).pathname;
const COLD_SCRIPT = new URL("./support/cold_variants.lua", import.meta.url).pathname;

/** Runs the fixed-rate client in its own process. */
async function fixedRate(
  mode: "hot" | "cold",
  rate: number,
  base: string,
  token: string,
  domains: string[],
): Promise<FixedRateResult> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      CLIENT,
      mode,
      String(rate),
      String(SECONDS),
      base,
      token,
      domains.join(","),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`fixed-rate client (${mode}) failed`);
  return JSON.parse(new TextDecoder().decode(output.stdout).trim().split("\n").at(-1)!);
}

/** Statuses as `200×4999 503×1`. */
function statusText(statuses: Record<string, number>): string {
  return Object.entries(statuses).map(([status, n]) => `${status}×${n}`).join(" ");
}

/** One wrk run of phase (b). */
interface ColdRun {
  requestsPerSecond: number;
  non2xx: number;
  /** CPU µs per request by thread role. */
  cpu: RoleCpu;
}

interface Row {
  workers: string;
  alone: FixedRateResult;
  loaded: FixedRateResult;
  cold: FixedRateResult;
  /** Phase (b), one entry per round. */
  runs: ColdRun[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Starts `src/main.ts` as `deno task start` would, over `path`, with `workers` render workers. */
function startServer(path: string, workers: string, v8Flags: string[]) {
  return startMainProcess({
    LOGO_KV: path,
    LOGO_RENDER_WORKERS: workers,
    DENO_V8_FLAGS: v8Flags.join(","),
  });
}

/** Phase (a) on a fresh server: cache-hit latency alone and with 300 renders/s. */
async function hitLatency(path: string, workers: string, v8Flags: string[], store: Store) {
  await using server = await startServer(path, workers, v8Flags);
  const base = `http://127.0.0.1:${server.port}`;
  const warm = await fetch(`${base}/${store.domains[0]}?token=${store.token}`);
  await warm.body?.cancel();
  if (warm.status !== 200) throw new Error(`Hot URL answered ${warm.status}`);
  const alone = await fixedRate("hot", HIT_RATE, base, store.token, store.domains);
  const [loaded, cold] = await Promise.all([
    fixedRate("hot", HIT_RATE, base, store.token, store.domains),
    fixedRate("cold", COLD_RATE, base, store.token, store.domains),
  ]);
  console.log(`(a) LOGO_RENDER_WORKERS=${workers}: done (exit ${await server.stop()})`);
  return { alone, loaded, cold };
}

/** One wrk run of cold renders against `server`, starting the walk at theme `round`. */
async function coldRun(server: MainProcess, round: number, store: Store): Promise<ColdRun> {
  const before = threadCpu(server.pid);
  const wrk: WrkResult = await runWrk(`http://127.0.0.1:${server.port}/`, {
    seconds: SECONDS,
    connections: 50,
    threads: 2,
    script: COLD_SCRIPT,
    env: {
      BENCH_TOKEN: store.token,
      BENCH_DOMAINS: store.domains.join(","),
      BENCH_ROUND: `${round}`,
    },
  });
  const used = cpuSince(server.pid, before);
  const per = (us: number) => us / Math.max(1, wrk.requests);
  return {
    requestsPerSecond: wrk.requestsPerSecond,
    non2xx: wrk.non2xx,
    cpu: {
      serving: per(used.serving),
      workers: per(used.workers),
      v8: per(used.v8),
      other: per(used.other),
    },
  };
}

interface Store {
  path: string;
  token: string;
  domains: string[];
}

async function makeStore(dir: string): Promise<Store> {
  const path = `${dir}/bench.kv`;
  const kv = await Deno.openKv(path);
  const token = (await new KeyStore(kv).create({ limit: 1_000_000_000, window: 3600 })).key
    .publishableKey;
  const logos = new LogoStore(kv);
  const domains: string[] = [];
  for (let i = 0; i < LOGOS; i++) {
    domains.push(`bench${i}.example.com`);
    await logos.put(domains[i], benchLogo(i), { source: "bench" });
  }
  kv.close();
  return { path, token, domains };
}

function printTables(rows: Row[]): void {
  const f = (n: number) => n.toFixed(1);
  const us = (n: number) => n.toFixed(0);
  console.log("");
  console.log(
    `| LOGO_RENDER_WORKERS | hit p50 / p99 / max ms, alone | hit p50 / p99 / max ms, + ${COLD_RATE} renders/s | p99 ratio | cold stream statuses |`,
  );
  console.log("|---|---|---|---|---|");
  for (const { workers, alone, loaded, cold } of rows) {
    console.log(
      `| ${workers} | ${f(alone.p50Ms)} / ${f(alone.p99Ms)} / ${f(alone.maxMs)} | ${
        f(loaded.p50Ms)
      } / ${f(loaded.p99Ms)} / ${f(loaded.maxMs)} | ${(loaded.p99Ms / alone.p99Ms).toFixed(2)}× | ${
        statusText(cold.statuses)
      } |`,
    );
  }
  const baseline = rows.find((r) => r.workers === "0");
  console.log("");
  console.log(
    "| LOGO_RENDER_WORKERS | wrk cold req/s, each round | median | vs inline (median of rounds) | non-2xx | CPU µs per cold request (median): all / serving thread / render workers / V8 helpers / other |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const { workers, runs } of rows) {
    const rates = runs.map((r) => r.requestsPerSecond);
    const ratio = baseline && baseline !== rows.find((r) => r.workers === workers)
      ? `${
        median(runs.map((r, i) => r.requestsPerSecond / baseline.runs[i].requestsPerSecond))
          .toFixed(2)
      }×`
      : "—";
    const cpu = (key: keyof RoleCpu) => median(runs.map((r) => r.cpu[key]));
    const all = median(runs.map((r) => r.cpu.serving + r.cpu.workers + r.cpu.v8 + r.cpu.other));
    console.log(
      `| ${workers} | ${rates.map((r) => r.toFixed(0)).join(", ")} | ${
        median(rates).toFixed(0)
      } | ${ratio} | ${runs.reduce((n, r) => n + r.non2xx, 0)} | ${us(all)} / ${
        us(cpu("serving"))
      } / ${us(cpu("workers"))} / ${us(cpu("v8"))} / ${us(cpu("other"))} |`,
    );
  }
}

if (import.meta.main) {
  if (!await hasWrk()) {
    console.error("wrk is not installed (Debian/Ubuntu: apt-get install wrk)");
    Deno.exit(1);
  }
  const dir = await Deno.makeTempDir({ prefix: "logo-lookup-render-bench-" });
  const store = await makeStore(dir);
  const v8Flags = await startTaskV8Flags();
  const loadavg = () => Deno.loadavg().map((n) => n.toFixed(2)).join(" ");
  console.log(
    `${navigator.hardwareConcurrency} cores; load average ${loadavg()}; ${SECONDS} s per run; hits at ${HIT_RATE}/s, cold at ${COLD_RATE}/s; wrk 2 threads, 50 connections; ${ROUNDS} cold rounds`,
  );
  const rows: Row[] = [];
  try {
    for (const workers of WORKERS) {
      rows.push({ workers, ...await hitLatency(store.path, workers, v8Flags, store), runs: [] });
    }
    const servers = await Promise.all(WORKERS.map((w) => startServer(store.path, w, v8Flags)));
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (let k = 0; k < WORKERS.length; k++) {
          const i = (k + round) % WORKERS.length; // rotated: no value always runs first
          rows[i].runs[round] = await coldRun(servers[i], round, store);
          console.log(
            `(b) round ${round + 1}, LOGO_RENDER_WORKERS=${WORKERS[i]}: ${
              rows[i].runs[round].requestsPerSecond.toFixed(0)
            } req/s; load average ${loadavg()}`,
          );
        }
      }
    } finally {
      for (const server of servers) await server.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  printTables(rows);
  const unexpected = rows.flatMap((r) => [r.alone, r.loaded])
    .some((r) => Object.keys(r.statuses).some((status) => status !== "200"));
  if (unexpected) {
    console.error("Unexpected: a cache-hit request answered something other than 200");
    Deno.exitCode = 1;
  }
}
