/**
 * `deno task bench:render`: what the render pool (`src/server/render_pool.ts`) changes, measured
 * against the real server process (`src/main.ts`) on loopback.
 *
 * For each `LOGO_RENDER_WORKERS` value in `BENCH_WORKERS` (default `0,1,2`; `0` renders inline in
 * the serving isolate, as the server did before the pool), it starts the server over one KV file
 * holding a key with a huge limit and 20 logos of 512 px (bench/support/bench_server.ts's), then:
 *
 * (a) cache-hit latency: an open-loop client (bench/support/fixed_rate_client.ts) asks for a cached
 *     default logo at `BENCH_HIT_RATE`/s (default 500) for `BENCH_SECONDS` (default 10) — alone,
 *     then again while a second client asks for 300 never-seen variants per second (each one a
 *     render). Latency counts from each request's scheduled time, so a blocked isolate shows;
 * (b) cold-render throughput: wrk, 2 threads, 50 connections, `bench/support/cold_variants.lua`
 *     (scenario 3 of `deno task bench:load`), every request a render.
 *
 * It prints one table, with the server's CPU time per cold request during (b) (from /proc): the
 * whole process, and its main thread, the serving isolate. CPU time moves less than requests/s
 * on a busy machine. The clients run on the same machine as the server and take CPU from it.
 *
 * @module
 */
import { KeyStore } from "../src/store/key_store.ts";
import { LogoStore } from "../src/store/logo_store.ts";
import { startMainProcess } from "../test/support/main_process.ts";
import { benchLogo } from "./support/bench_server.ts";
import type { FixedRateResult } from "./support/fixed_rate_client.ts";
import { hasWrk, runWrk, type WrkResult } from "./support/wrk.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? "10");
const HIT_RATE = Number(Deno.env.get("BENCH_HIT_RATE") ?? "500");
const COLD_RATE = 300;
const WORKERS = (Deno.env.get("BENCH_WORKERS") ?? "0,1,2").split(",").map((w) => w.trim());
const LOGOS = 20;
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

/** CPU time (user + system) so far, in ms, of a process or of one of its threads; NaN without /proc. */
function cpuMs(path: string): number {
  try {
    const fields = Deno.readTextFileSync(path).split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return NaN;
  }
}

interface Row {
  workers: string;
  /** CPU µs per cold request during the wrk run: the whole process, and its main thread. */
  cpuUs: { process: number; main: number };
  alone: FixedRateResult;
  loaded: FixedRateResult;
  cold: FixedRateResult;
  wrk: WrkResult;
}

if (import.meta.main) {
  if (!await hasWrk()) {
    console.error("wrk is not installed (Debian/Ubuntu: apt-get install wrk)");
    Deno.exit(1);
  }
  const dir = await Deno.makeTempDir({ prefix: "logo-lookup-render-bench-" });
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
  console.log(
    `${navigator.hardwareConcurrency} cores; load average ${
      Deno.loadavg().map((n) => n.toFixed(2)).join(" ")
    }; ${SECONDS} s per run; hits at ${HIT_RATE}/s, cold at ${COLD_RATE}/s; wrk 2 threads, 50 connections`,
  );
  const rows: Row[] = [];
  try {
    for (const workers of WORKERS) {
      await using server = await startMainProcess({ LOGO_KV: path, LOGO_RENDER_WORKERS: workers });
      const base = `http://127.0.0.1:${server.port}`;
      const warm = await fetch(`${base}/${domains[0]}?token=${token}`);
      await warm.body?.cancel();
      if (warm.status !== 200) throw new Error(`Hot URL answered ${warm.status}`);
      const alone = await fixedRate("hot", HIT_RATE, base, token, domains);
      const [loaded, cold] = await Promise.all([
        fixedRate("hot", HIT_RATE, base, token, domains),
        fixedRate("cold", COLD_RATE, base, token, domains),
      ]);
      const processStat = `/proc/${server.pid}/stat`;
      const mainStat = `/proc/${server.pid}/task/${server.pid}/stat`;
      const before = { process: cpuMs(processStat), main: cpuMs(mainStat) };
      const wrk = await runWrk(`${base}/`, {
        seconds: SECONDS,
        connections: 50,
        threads: 2,
        script: COLD_SCRIPT,
        env: { BENCH_TOKEN: token, BENCH_DOMAINS: domains.join(",") },
      });
      const perRequest = (now: number, then: number) => (now - then) * 1000 / wrk.requests;
      const cpuUs = {
        process: perRequest(cpuMs(processStat), before.process),
        main: perRequest(cpuMs(mainStat), before.main),
      };
      rows.push({ workers, alone, loaded, cold, wrk, cpuUs });
      console.log(`LOGO_RENDER_WORKERS=${workers}: done (exit ${await server.stop()})`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const f = (n: number) => n.toFixed(1);
  console.log("");
  console.log(
    "| LOGO_RENDER_WORKERS | hit p50 / p99 / max ms, alone | hit p50 / p99 / max ms, + 300 renders/s | p99 ratio | cold stream statuses | wrk cold req/s | wrk p99 ms | wrk non-2xx | CPU µs/cold req: process / serving thread |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const { workers, alone, loaded, cold, wrk, cpuUs } of rows) {
    console.log(
      `| ${workers} | ${f(alone.p50Ms)} / ${f(alone.p99Ms)} / ${f(alone.maxMs)} | ${
        f(loaded.p50Ms)
      } / ${f(loaded.p99Ms)} / ${f(loaded.maxMs)} | ${(loaded.p99Ms / alone.p99Ms).toFixed(2)}× | ${
        statusText(cold.statuses)
      } | ${wrk.requestsPerSecond.toFixed(0)} | ${f(wrk.p99Ms)} | ${wrk.non2xx} | ${
        cpuUs.process.toFixed(0)
      } / ${cpuUs.main.toFixed(0)} |`,
    );
  }
  const baseline = rows.find((r) => r.workers === "0");
  if (baseline) {
    for (const row of rows.filter((r) => r !== baseline)) {
      const ratio = row.wrk.requestsPerSecond / baseline.wrk.requestsPerSecond;
      console.log(`cold throughput, ${row.workers} workers vs inline: ${ratio.toFixed(2)}×`);
    }
  }
  const unexpected = rows.flatMap((r) => [r.alone, r.loaded])
    .some((r) => Object.keys(r.statuses).some((status) => status !== "200"));
  if (unexpected) {
    console.error("Unexpected: a cache-hit request answered something other than 200");
    Deno.exitCode = 1;
  }
}
