/**
 * `deno run -A bench/monogram_burst_bench.ts`: what a burst of `fallback=monogram` requests for
 * never-seen names does to normal requests (issue 30, defect 1), against the real server process
 * (`src/main.ts`, with `deno task start`'s V8 flags) on loopback.
 *
 * The store is one KV file with a key of a huge limit and one 512-px logo. For each
 * `LOGO_RENDER_WORKERS` value in `BENCH_WORKERS` (default `2`; `0` draws inline), one fresh
 * server: an open-loop client asks for the stored logo's default rendition (a normal request) at
 * `BENCH_RATE`/s (default 200) for `BENCH_SECONDS` (default 6), each request sent at its scheduled
 * time whether or not earlier ones were answered, and its latency counted from that time, so a
 * blocked serving isolate shows. One second in, `BENCH_BURST` (default 200) monogram requests for
 * names never asked before (`BENCH_MONOGRAM_SIZE` px, default 800) are sent at once.
 *
 * Printed, not asserted: normal requests' p50 / p99 / max over the whole run and over the burst
 * window (from the burst's first request to its last answer), every status of both kinds, and
 * how long the burst took, and the server's CPU over the run by thread (`BENCH_BURST=0` gives the
 * normal requests' own). The client runs on the same machine as the server and takes CPU from it.
 *
 * @module
 */
import { KeyStore } from "../src/store/key_store.ts";
import { LogoStore } from "../src/store/logo_store.ts";
import { startMainProcess } from "../test/support/main_process.ts";
import { benchLogo } from "./support/bench_server.ts";
import { startTaskEnv, startTaskV8Flags } from "./support/start_task.ts";
import { cpuSince, threadCpu } from "./support/thread_cpu.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? "6");
const RATE = Number(Deno.env.get("BENCH_RATE") ?? "200");
const BURST = Number(Deno.env.get("BENCH_BURST") ?? "200");
const SIZE = Number(Deno.env.get("BENCH_MONOGRAM_SIZE") ?? "800");
const WORKERS = (Deno.env.get("BENCH_WORKERS") ?? "2").split(",").map((w) => w.trim());
const BURST_AT_MS = 1000;

interface Sample {
  /** Scheduled send time, ms since the run started. */
  due: number;
  /** Answer time, ms since the run started. */
  done: number;
  status: string;
}

/** GETs `url`; the status, an error's with the start of its body (a 503 says why). */
async function get(url: string): Promise<string> {
  try {
    const response = await fetch(url);
    const body = await response.arrayBuffer();
    const status = String(response.status);
    return response.status >= 400
      ? `${status} ${new TextDecoder().decode(body).slice(0, 48)}`
      : status;
  } catch (error) {
    return `error ${error instanceof Error ? error.message.slice(0, 48) : error}`;
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function figures(samples: Sample[]): string {
  const latencies = samples.map((s) => s.done - s.due).sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1);
  return `${f(percentile(latencies, 0.5))} / ${f(percentile(latencies, 0.99))} / ${
    f(latencies.at(-1) ?? NaN)
  } ms (n=${samples.length})`;
}

function statusText(samples: Sample[]): string {
  const counts: Record<string, number> = {};
  for (const { status } of samples) counts[status] = (counts[status] ?? 0) + 1;
  return Object.entries(counts).map(([status, n]) => `${status} ×${n}`).join(", ");
}

/** One run against a fresh server with `workers` render workers. */
async function run(path: string, token: string, workers: string, tag: string) {
  await using server = await startMainProcess({
    ...await startTaskEnv(),
    LOGO_KV: path,
    LOGO_RENDER_WORKERS: workers,
    DENO_V8_FLAGS: (await startTaskV8Flags()).join(","),
  });
  const base = `http://127.0.0.1:${server.port}`;
  const normalUrl = `${base}/bench0.example.com?token=${token}`;
  if ((await get(normalUrl)) !== "200") throw new Error("the normal URL does not answer 200");
  // One tile first, so the burst measures drawing, not loading imagecore's SVG module.
  await get(`${base}/warm-${tag}.example?token=${token}&fallback=monogram&size=${SIZE}`);
  const normal: Sample[] = [];
  const burst: Sample[] = [];
  const pending: Promise<void>[] = [];
  const cpuBefore = threadCpu(server.pid);
  const start = performance.now();
  const now = () => performance.now() - start;
  const total = Math.round(RATE * SECONDS);
  let burstSent = false;
  for (let i = 0; i < total; i++) {
    const due = (i * 1000) / RATE;
    if (!burstSent && due >= BURST_AT_MS) {
      burstSent = true;
      const burstDue = now();
      for (let j = 0; j < BURST; j++) {
        const url =
          `${base}/never-${tag}-${j}.example?token=${token}&fallback=monogram&size=${SIZE}`;
        pending.push(
          get(url).then((status) => void burst.push({ due: burstDue, done: now(), status })),
        );
      }
    }
    const wait = due - now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(get(normalUrl).then((status) => void normal.push({ due, done: now(), status })));
  }
  await Promise.all(pending);
  const cpu = cpuSince(server.pid, cpuBefore);
  await server.stop();
  const burstStart = burst[0]?.due ?? BURST_AT_MS;
  const burstEnd = Math.max(burstStart, ...burst.map((s) => s.done));
  const during = normal.filter((s) => s.due >= burstStart && s.due <= burstEnd);
  console.log(`\nLOGO_RENDER_WORKERS=${workers}; load average ${loadavg()}`);
  console.log(
    `  burst of ${BURST} monograms at ${SIZE} px: all answered in ${
      (burstEnd - burstStart).toFixed(0)
    } ms; ${statusText(burst)}`,
  );
  console.log(`  normal requests, whole run, p50 / p99 / max: ${figures(normal)}`);
  console.log(`  normal requests, during the burst, p50 / p99 / max: ${figures(during)}`);
  console.log(`  normal statuses: ${statusText(normal)}`);
  const ms = (us: number) => (us / 1000).toFixed(0);
  console.log(
    `  server CPU over the run, ms: serving thread ${ms(cpu.serving)}, render workers ${
      ms(cpu.workers)
    }, V8 helpers ${ms(cpu.v8)}, other ${ms(cpu.other)}`,
  );
}

function loadavg(): string {
  return Deno.loadavg().map((n) => n.toFixed(2)).join(" ");
}

if (import.meta.main) {
  const dir = await Deno.makeTempDir({ prefix: "logo-lookup-monogram-bench-" });
  try {
    const path = `${dir}/bench.kv`;
    const kv = await Deno.openKv(path);
    const token = (await new KeyStore(kv).create({ limit: 1_000_000_000, window: 3600 })).key
      .publishableKey;
    await new LogoStore(kv).put("bench0.example.com", benchLogo(0), { source: "bench" });
    kv.close();
    console.log(
      `${navigator.hardwareConcurrency} cores; normal requests at ${RATE}/s for ${SECONDS} s; ` +
        `a burst of ${BURST} monograms at ${SIZE} px after ${BURST_AT_MS} ms`,
    );
    for (const [k, workers] of WORKERS.entries()) {
      await run(path, token, workers, `${Date.now().toString(36)}-${k}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
