/**
 * `deno task bench:processes`: cache-hit throughput of one process against several, and what
 * `node:http` costs against `Deno.serve` in one process. Needs `wrk` (`apt-get install wrk`).
 *
 * 1. One process, the same app (`bench/support/bench_server.ts`) served by `Deno.serve` and by
 *    `node:http` (`serveConnections`, what `deno task start` runs).
 * 2. The real `src/main.ts` with `LOGO_PROCESSES=1` and with `LOGO_PROCESSES=N` (default 2),
 *    started with the permissions and `DENO_V8_FLAGS` of the `start` task, over a KV file each;
 *    the URL is the seeded demo logo with a key of a huge limit (cache hits: 200s).
 *
 * Each pair alternates in two rounds of BENCH_SECONDS / 2 (default 10), wrk with 2 threads and 50
 * connections, so drifting load on a shared machine hits both alike. Prints req/s, p50, p99, and
 * the server processes' CPU time per request (from /proc). wrk runs on the same machine: with 2
 * cores it competes with the servers for them. Usage: deno task bench:processes [N]
 *
 * @module
 */
import { KeyStore } from "../src/store/key_store.ts";
import { lines } from "../test/support/lines.ts";
import { Child, combine, measure, type Measured, row, type ServerInfo } from "./load_bench.ts";
import { cpuMs, startTaskV8Flags } from "./support/start_task.ts";
import { hasWrk, runWrk, type WrkOptions } from "./support/wrk.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? "10");
const OPTIONS: WrkOptions = {
  seconds: Math.max(1, Math.round(SECONDS / 2)),
  connections: 50,
  threads: 2,
};
const MAIN = new URL("../src/main.ts", import.meta.url).pathname;
const CONFIG = new URL("../deno.json", import.meta.url).pathname;

/** `src/main.ts` running with `LOGO_PROCESSES=count`, and the pids of its server processes. */
interface Started {
  process: Deno.ChildProcess;
  pids: number[];
  url: string;
}

/** Starts `src/main.ts` as `deno task start` would, on a fresh KV file in `dir`. */
async function startMain(dir: string, count: number, v8Flags: string[]): Promise<Started> {
  const kvPath = `${dir}/p${count}.kv`;
  const process = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...["net", "env", "read", "write", "sys", "run"].map((name) => `--allow-${name}`),
      "--config",
      CONFIG,
      MAIN,
    ],
    env: {
      PORT: "0",
      LOGO_KV: kvPath,
      LOGO_DISCOVERY: "off",
      LOGO_PROCESSES: String(count),
      DENO_V8_FLAGS: v8Flags.join(","),
      NO_COLOR: "1",
    },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  let pids = [process.pid];
  let demo: string | undefined;
  const output = lines(process.stdout);
  for (let next = await output.next(); !next.done; next = await output.next()) {
    const line = next.value;
    const listed = /\(pids ([\d, ]+)\)/.exec(line);
    if (listed) pids = listed[1].split(", ").map(Number);
    if (line.includes("token=pk_")) {
      demo = line.trim();
      break;
    }
  }
  if (demo === undefined) throw new Error(`src/main.ts with ${count} processes did not start`);
  (async () => {
    for await (const _ of output); // keep draining
  })();
  const kv = await Deno.openKv(kvPath);
  const { key } = await new KeyStore(kv).create({ limit: 1_000_000_000, window: 3600 });
  kv.close();
  const url = new URL(demo);
  url.hostname = "127.0.0.1";
  url.searchParams.set("token", key.publishableKey);
  return { process, pids, url: url.href };
}

/** A wrk run plus the summed CPU time per request of `pids`. */
async function measurePids(pids: number[], url: string): Promise<Measured> {
  const cpu = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const before = cpu();
  const result = await runWrk(url, OPTIONS);
  return { ...result, cpuUsPerRequest: (cpu() - before) * 1000 / Math.max(1, result.requests) };
}

const HEADER = [
  "| run                                  | req/s    | p50 ms  | p99 ms  | requests  | non-2xx | CPU µs/req |",
  "|--------------------------------------|----------|---------|---------|-----------|---------|------------|",
];

if (import.meta.main) {
  if (!await hasWrk()) {
    console.error("wrk is not installed (Debian/Ubuntu: apt-get install wrk)");
    Deno.exit(1);
  }
  const count = Number(Deno.args[0] ?? "2");
  const dir = await Deno.makeTempDir({ prefix: "logo-lookup-processes-" });
  const v8Flags = await startTaskV8Flags();
  console.log(
    `wrk: ${OPTIONS.threads} threads, ${OPTIONS.connections} connections, 2 rounds of ` +
      `${OPTIONS.seconds} s per row; ${navigator.hardwareConcurrency} cores; load average ` +
      `${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")}`,
  );
  const servers: Child[] = [];
  const mains: Started[] = [];
  let unexpected = 0;
  try {
    // 1. One process: Deno.serve against node:http, the same app.
    const flags = [`--v8-flags=${v8Flags.join(",")}`];
    for (const http of ["deno", "node"]) {
      servers.push(
        new Child("./support/bench_server.ts", [`${dir}/${http}.kv`, "20", http], flags),
      );
    }
    const infos = await Promise.all(servers.map((server) => server.next<ServerInfo>()));
    const urls = infos.map((info) =>
      `http://127.0.0.1:${info.port}/${info.domains[0]}?token=${info.hotToken}`
    );
    const one: Measured[][] = [[], []];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) one[i].push(await measure(servers[i].pid, urls[i], OPTIONS));
    }
    // 2. src/main.ts with 1 and with N processes.
    mains.push(await startMain(dir, 1, v8Flags), await startMain(dir, count, v8Flags));
    const many: Measured[][] = [[], []];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) many[i].push(await measurePids(mains[i].pids, mains[i].url));
    }

    const rows: Array<[string, Measured]> = [
      ["1 process, Deno.serve", combine(one[0])],
      ["1 process, node:http (serveConnections)", combine(one[1])],
      ["src/main.ts, LOGO_PROCESSES=1", combine(many[0])],
      [`src/main.ts, LOGO_PROCESSES=${count}`, combine(many[1])],
    ];
    console.log("");
    for (const line of HEADER) console.log(line);
    for (const [name, measured] of rows) console.log(row(name, measured));
    const rate = (i: number) => rows[i][1].requestsPerSecond;
    console.log("");
    console.log(`node:http / Deno.serve, one process: ${(rate(1) / rate(0)).toFixed(2)}×`);
    console.log(`${count} processes / 1 process: ${(rate(3) / rate(2)).toFixed(2)}×`);
    unexpected = rows.reduce((sum, [, r]) => sum + r.non2xx + r.socketErrors, 0);
  } finally {
    for (const server of servers) await server.stop().catch(() => {});
    for (const main of mains) {
      main.process.kill("SIGTERM");
      await main.process.status;
    }
    await Deno.remove(dir, { recursive: true });
  }
  if (unexpected > 0) {
    console.error(`Unexpected: ${unexpected} non-2xx responses or socket errors`);
    Deno.exitCode = 1;
  }
}
