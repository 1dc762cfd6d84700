/**
 * `deno task bench:serve`: the service served by `Deno.serve` (issue 29), on loopback. Needs `wrk`
 * and `taskset`. Prints figures, asserts nothing.
 *
 * Every server is a child process started as `deno task start` starts `src/main.ts` (its
 * permissions, `--config deno.json`, `MALLOC_ARENA_MAX` and `DENO_V8_FLAGS` of the `start` task),
 * with `LOGO_HOSTNAME=127.0.0.1` and `LOGO_DISCOVERY=off`, over a copy of one store seeded by a
 * first start (the demo key and logos) plus a key with a limit of 10⁹ an hour: the measured
 * request is the default one every `<img>` makes, `/logo-lookup.test?token=pk_…`, a cache hit
 * (the demo key's own limit, 1,000 an hour, would answer 429 under load).
 *
 * 1. **Service against bare.** One `src/main.ts` and a bare `Deno.serve` answering the same bytes
 *    with the same headers (bench/support/bare_server.ts), both pinned to CPU 0, wrk pinned to
 *    CPU 1; `--rounds` rounds of A then B, `--duration` s each after a 2-s warm-up.
 * 2. **2 serving units against 1.** (a) two `src/main.ts` with `LOGO_REUSE_PORT=on` on one port
 *    over one store file; (b) `deno serve --parallel` of `src/serve.ts` with `DENO_JOBS=2`;
 *    (c) one `src/main.ts`. Twice: all on CPU 0 (two units share one core), then spread (each of
 *    (a)'s processes on a CPU of its own, (b) and (c) on both), wrk on CPU 1 each time; the order
 *    of (a), (b), (c) rotates each round. wrk needs a core, so on 2 cores a second unit never has
 *    one to itself.
 * 3. **Cold start to the first 200**, unpinned, on the seeded store (a second start): `--starts`
 *    starts of each variant, interleaved — `src/main.ts`; with `LOGO_DISCOVERY=on` (the start
 *    task's default); with `LOGO_RENDER_WORKERS=0` (no render workers at all); `deno serve
 *    src/serve.ts` — timing the port's opening (polled), the "listening on" line, the first 200 of
 *    the default request (sent as soon as the port accepts) and the first render (a size no one
 *    asked for). Then where the time goes, from bench/support/start_probe.ts children: Deno's
 *    start-up, importing `src/main.ts`, `main()` to listening, KV open and seed check, the render
 *    pool's start and WASM; the cost of every npm package, `node:` module and lazily imported
 *    file, alone in a fresh process and step by step in one; and a CPU profile of one start.
 *
 * Options: `--rounds N` (3), `--duration S` (5), `--connections N` (50), `--threads N` (wrk
 * threads, 1), `--starts N` (10), `--samples N` (probe runs per figure, 5), `--parts 1,2,3`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { KeyStore } from "../src/store/key_store.ts";
import { printTable, wholeNumber } from "./support/bench_cli.ts";
import { moduleGraph } from "./support/module_graph.ts";
import { type PinnedWrkResult, runPinnedWrk } from "./support/pinned_wrk.ts";
import { epochMs, freePort, pin, startUnit, type Unit } from "./support/serve_units.ts";
import { cpuMs, startTaskEnv, startTaskV8Flags } from "./support/start_task.ts";
import { hasWrk } from "./support/wrk.ts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "50" },
    threads: { type: "string", default: "1" },
    starts: { type: "string", default: "10" },
    samples: { type: "string", default: "5" },
    parts: { type: "string", default: "1,2,3" },
  },
});
const ROUNDS = wholeNumber("rounds", values.rounds, 1);
const SECONDS = wholeNumber("duration", values.duration, 1);
const CONNECTIONS = wholeNumber("connections", values.connections, 1);
const THREADS = wholeNumber("threads", values.threads, 1);
const STARTS = wholeNumber("starts", values.starts, 1);
const SAMPLES = wholeNumber("samples", values.samples, 1);
const PARTS = new Set(values.parts.split(",").map((part) => part.trim()));
/** The CPU the servers get in part 1 and wrk's CPU throughout. */
const SERVER_CPU = "0";
const WRK_CPU = "1";
/** A render no request asked for before: a size that is not stored, greyscale. */
const RENDER_QUERY = "&size=100&greyscale=true";

const f0 = (n: number) => Number.isFinite(n) ? n.toFixed(0) : "n/a";
const f1 = (n: number) => Number.isFinite(n) ? n.toFixed(1) : "n/a";
const f2 = (n: number) => Number.isFinite(n) ? n.toFixed(2) : "n/a";
const thousands = (n: number) => Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a";

function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const mean = (values: number[]) => values.reduce((sum, n) => sum + n, 0) / values.length;

function loadAverage(): string {
  return Deno.loadavg().map((n) => n.toFixed(2)).join(" ");
}

/** One wrk run against a unit, with the server processes' CPU time around it. */
interface Run extends PinnedWrkResult {
  /** CPU time of each server process during the run, ms. */
  serverCpuMs: number[];
}

async function measure(pids: number[], url: string): Promise<Run> {
  const before = pids.map(cpuMs);
  const wrk = await runPinnedWrk(url, {
    seconds: SECONDS,
    connections: CONNECTIONS,
    threads: THREADS,
    cpus: WRK_CPU,
  });
  const serverCpuMs = pids.map((pid, i) => cpuMs(pid) - before[i]);
  return { ...wrk, serverCpuMs };
}

/** The summary of a unit's rounds. */
interface Summary {
  rates: number[];
  rate: number;
  p50: number;
  p99: number;
  cpuUsPerRequest: number;
  /** Server CPU as % of one core. */
  serverPct: number;
  /** wrk CPU as % of its core. */
  wrkPct: number;
  /** Each server process's share of the server CPU, %. */
  split: number[];
  bad: number;
}

function summarize(runs: Run[]): Summary {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const serverMs = runs.reduce((sum, r) => sum + r.serverCpuMs.reduce((a, b) => a + b, 0), 0);
  const wallMs = runs.reduce((sum, r) => sum + r.wallMs, 0);
  const perProcess = runs[0].serverCpuMs.map((_, i) =>
    runs.reduce((sum, r) => sum + r.serverCpuMs[i], 0)
  );
  return {
    rates: runs.map((r) => r.requestsPerSecond),
    rate: mean(runs.map((r) => r.requestsPerSecond)),
    p50: mean(runs.map((r) => r.p50Ms)),
    p99: mean(runs.map((r) => r.p99Ms)),
    cpuUsPerRequest: serverMs * 1000 / Math.max(1, requests),
    serverPct: 100 * serverMs / wallMs,
    wrkPct: 100 * runs.reduce((sum, r) => sum + r.wrkCpuMs, 0) / wallMs,
    split: perProcess.map((ms) => 100 * ms / Math.max(1, serverMs)),
    bad: runs.reduce((sum, r) => sum + r.non2xx + r.socketErrors, 0),
  };
}

function throughputRow(name: string, s: Summary, extra: string[] = []): string[] {
  return [
    name,
    s.rates.map(thousands).join(" / "),
    thousands(s.rate),
    ...extra,
    f2(s.p50),
    f2(s.p99),
    f1(s.cpuUsPerRequest),
    f0(s.serverPct),
    f0(s.wrkPct),
    String(s.bad),
  ];
}

const THROUGHPUT_HEADER = [
  "req/s each round",
  "mean req/s",
  "p50 ms",
  "p99 ms",
  "server CPU µs/req",
  "server CPU % of a core",
  "wrk CPU % of its core",
  "non-2xx + errors",
];

/** Copies a store file (and SQLite's companions, if any) to `to`. */
async function copyStore(from: string, to: string): Promise<void> {
  for (const suffix of ["", "-wal", "-shm"]) {
    await Deno.copyFile(from + suffix, to + suffix).catch((error) => {
      if (suffix === "" || !(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
}

/** GETs `url` and reads the body; the status. */
async function get(url: string): Promise<number> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
}

async function expect200(url: string, what: string): Promise<void> {
  const status = await get(url);
  if (status !== 200) throw new Error(`${what}: ${url} answered ${status}`);
}

interface Setup {
  dir: string;
  env: Record<string, string>;
  store: string;
  /** `/logo-lookup.test?token=` + the demo key: the URL the first start printed. */
  demoPath: string;
  /** The same path with the key of a huge limit. */
  hotPath: string;
  firstStart: { listeningMs: number; first200Ms: number };
}

async function setUp(): Promise<Setup> {
  const dir = await Deno.makeTempDir({ prefix: "logo-lookup-serve-bench-" });
  const env = {
    ...await startTaskEnv(),
    DENO_V8_FLAGS: (await startTaskV8Flags()).join(","),
    LOGO_HOSTNAME: "127.0.0.1",
    LOGO_DISCOVERY: "off",
    PORT: "0",
  };
  const store = `${dir}/store.kv`;
  // The first start on an empty store seeds it (and prints the demo URL).
  const first = await startUnit({ kind: "main", env: { ...env, LOGO_KV: store } });
  const url = new URL((await first.line(/token=pk_/)).trim());
  const demoPath = url.pathname + url.search;
  await expect200(`http://127.0.0.1:${first.port}${demoPath}`, "first start");
  const firstStart = {
    listeningMs: first.listeningAt - first.spawnedAt,
    first200Ms: epochMs() - first.spawnedAt,
  };
  await first.stop();
  const kv = await Deno.openKv(store);
  const { key } = await new KeyStore(kv).create({ limit: 1_000_000_000, window: 3600 });
  kv.close();
  const hotPath = `${url.pathname}?token=${key.publishableKey}`;
  return { dir, env, store, demoPath, hotPath, firstStart };
}

/** Part 1: the service against the bare ceiling, interleaved. Returns the running service. */
async function serviceAgainstBare(setup: Setup, units: Unit[]): Promise<Unit> {
  const kvPath = `${setup.dir}/one.kv`;
  await copyStore(setup.store, kvPath);
  const service = await startUnit({
    kind: "main",
    cpus: SERVER_CPU,
    env: { ...setup.env, LOGO_KV: kvPath },
  });
  units.push(service);
  const serviceUrl = `http://127.0.0.1:${service.port}${setup.hotPath}`;
  const response = await fetch(serviceUrl);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`service answered ${response.status}`);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== "date" && name !== "content-length") headers[name] = value;
  });
  await Deno.writeFile(`${setup.dir}/logo.png`, bytes);
  await Deno.writeTextFile(`${setup.dir}/headers.json`, JSON.stringify(headers));
  const bare = await startUnit({
    kind: "bare",
    cpus: SERVER_CPU,
    env: setup.env,
    args: [`${setup.dir}/logo.png`, `${setup.dir}/headers.json`],
  });
  units.push(bare);
  const bareUrl = `http://127.0.0.1:${bare.port}${setup.hotPath}`;
  const bareResponse = await fetch(bareUrl);
  const bareBytes = new Uint8Array(await bareResponse.arrayBuffer());
  if (bareBytes.length !== bytes.length || !bareBytes.every((b, i) => b === bytes[i])) {
    throw new Error("the bare server does not answer the service's bytes");
  }

  console.log(
    `\n## 1. Cache hit of the default request: service against bare Deno.serve\n\n` +
      `Both servers pinned to CPU ${SERVER_CPU} (taskset, every thread), wrk pinned to CPU ` +
      `${WRK_CPU}: wrk -t${THREADS} -c${CONNECTIONS}, ${ROUNDS} rounds of service then bare, ` +
      `${SECONDS} s each after a 2-s warm-up of each. Response: ${bytes.length} bytes, ` +
      `${Object.keys(headers).length + 2} headers (the same for both). ` +
      `Load average at the start: ${loadAverage()}.\n`,
  );
  const warm = { seconds: 2, connections: CONNECTIONS, threads: THREADS, cpus: WRK_CPU };
  await runPinnedWrk(serviceUrl, warm);
  await runPinnedWrk(bareUrl, warm);
  const runs: Run[][] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    runs[0].push(await measure([service.pid], serviceUrl));
    runs[1].push(await measure([bare.pid], bareUrl));
  }
  await bare.stop();
  units.splice(units.indexOf(bare), 1);
  const [ours, ceiling] = runs.map(summarize);
  printTable(["server (CPU 0)", ...THROUGHPUT_HEADER], [
    throughputRow("src/main.ts (the service)", ours),
    throughputRow("bare Deno.serve, same bytes and headers", ceiling),
  ]);
  const pct = (run: Run) => 100 * run.serverCpuMs.reduce((a, b) => a + b, 0) / run.wallMs;
  const perRound = runs[0].map((run, i) => run.requestsPerSecond / runs[1][i].requestsPerSecond);
  const p99PerRound = runs[0].map((run, i) => run.p99Ms / runs[1][i].p99Ms);
  console.log(
    `\nEach round, service / bare: req/s, p99 (server CPU % of its core, service / bare): ${
      perRound.map((r, i) =>
        `${f2(r)}×, ${f2(p99PerRound[i])}× (${f0(pct(runs[0][i]))} / ${f0(pct(runs[1][i]))})`
      ).join("; ")
    }. Medians: req/s ${f2(median(perRound))}×, p99 ${f2(median(p99PerRound))}×.`,
  );
  const ratio = ours.rate / ceiling.rate;
  const p99Ratio = ours.p99 / ceiling.p99;
  console.log(
    `service / bare, means of the rounds: req/s ${f2(ratio)}× (target ≥ 0.8×: ${
      ratio >= 0.8 ? "met" : "not met"
    }); ` +
      `p99 service / bare: ${f2(p99Ratio)}× (target ≤ 1.5×: ${
        p99Ratio <= 1.5 ? "met" : "not met"
      }). CPU per request, bare / service: ${
        f2(ceiling.cpuUsPerRequest / ours.cpuUsPerRequest)
      }× (the req/s ratio a server that has its core to itself would reach; a server CPU well ` +
      `under 100 % of its core means other processes had part of it). ` +
      `Load average at the end: ${loadAverage()}.`,
  );
  return service;
}

/** Part 2: two serving units against one, on one core and spread over both. */
async function unitsAgainstOne(setup: Setup, one: Unit, units: Unit[]): Promise<void> {
  const pairKv = `${setup.dir}/pair.kv`;
  const serveKv = `${setup.dir}/serve.kv`;
  await copyStore(setup.store, pairKv);
  await copyStore(setup.store, serveKv);
  const pairPort = freePort();
  const pairEnv = { ...setup.env, LOGO_KV: pairKv, PORT: String(pairPort), LOGO_REUSE_PORT: "on" };
  const pair = [
    await startUnit({ kind: "main", env: pairEnv, cpus: SERVER_CPU }),
    await startUnit({ kind: "main", env: pairEnv, cpus: SERVER_CPU }),
  ];
  units.push(...pair);
  const serve = await startUnit({
    kind: "serve",
    parallel: true,
    port: freePort(),
    cpus: SERVER_CPU,
    env: { ...setup.env, LOGO_KV: serveKv, DENO_JOBS: "2" },
  });
  units.push(serve);
  const configs = [
    { name: "(c) 1 × src/main.ts", pids: [one.pid], port: one.port },
    {
      name: "(a) 2 × src/main.ts, LOGO_REUSE_PORT=on, one store file",
      pids: pair.map((u) => u.pid),
      port: pairPort,
    },
    { name: "(b) deno serve --parallel, DENO_JOBS=2", pids: [serve.pid], port: serve.port },
  ].map((config) => ({ ...config, url: `http://127.0.0.1:${config.port}${setup.hotPath}` }));
  for (const config of configs) await expect200(config.url, config.name);

  const placements = [
    {
      name: "all on CPU 0 (2 units share one core)",
      pins: [[one.pid, "0"], [pair[0].pid, "0"], [pair[1].pid, "0"], [serve.pid, "0"]],
    },
    {
      name: "spread: (a) one process on CPU 0, one on CPU 1; (b) and (c) on CPUs 0-1",
      pins: [[one.pid, "0,1"], [pair[0].pid, "0"], [pair[1].pid, "1"], [serve.pid, "0,1"]],
    },
  ] as const;
  console.log(
    `\n## 2. 2 serving units against 1 (cache hit of the default request)\n\n` +
      `wrk pinned to CPU ${WRK_CPU}, -t${THREADS} -c${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS} s ` +
      `per row, (a), (b), (c) in rotating order, a 1-s warm-up of each first. Server CPU is summed ` +
      `over the unit's processes (a whole process for (b): both isolates and their threads); ` +
      `"split" is (a)'s share per process. Load average at the start: ${loadAverage()}.`,
  );
  const warm = { seconds: 1, connections: CONNECTIONS, threads: THREADS, cpus: WRK_CPU };
  for (const config of configs) await runPinnedWrk(config.url, warm);
  for (const placement of placements) {
    for (const [pid, cpus] of placement.pins) await pin(pid, cpus);
    const runs: Run[][] = configs.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < configs.length; k++) {
        const i = (k + round) % configs.length;
        runs[i].push(await measure(configs[i].pids, configs[i].url));
      }
    }
    const summaries = runs.map(summarize);
    console.log(`\n### ${placement.name}\n`);
    printTable(
      [
        "unit",
        ...THROUGHPUT_HEADER.slice(0, 2),
        "vs 1 process",
        ...THROUGHPUT_HEADER.slice(2),
        "split %",
      ],
      configs.map((config, i) => [
        ...throughputRow(config.name, summaries[i], [
          `${f2(summaries[i].rate / summaries[0].rate)}×`,
        ]),
        summaries[i].split.length > 1 ? summaries[i].split.map(f0).join(" / ") : "",
      ]),
    );
    console.log(`\nLoad average after this placement: ${loadAverage()}.`);
  }
  const codes: number[] = [];
  for (const unit of [...pair, serve]) {
    codes.push(await unit.stop(STOP_GRACE_MS));
    units.splice(units.indexOf(unit), 1);
  }
  console.log(
    `\nExit codes after SIGTERM: (a) ${codes[0]}, ${codes[1]}; (b) ${codes[2]} ` +
      `(137: still running ${STOP_GRACE_MS} ms later, killed).`,
  );
}

/** Waits until something accepts connections on `port`; the epoch ms it first did. */
async function portOpen(port: number, exited: Promise<number>): Promise<number> {
  let gone = false;
  exited.then(() => gone = true);
  for (;;) {
    try {
      const connection = await Deno.connect({ hostname: "127.0.0.1", port });
      const at = epochMs();
      connection.close();
      return at;
    } catch {
      if (gone) throw new Error(`server exited before port ${port} opened`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}

/** One cold start's times, ms after spawning. */
interface ColdStart {
  portOpen: number;
  listening: number;
  first200: number;
  firstRender200: number;
  /** Exit code after SIGTERM (137: still running {@link STOP_GRACE_MS} later, killed). */
  exitCode: number;
}

/** How long a cold-started server may take to exit after SIGTERM before it is killed. */
const STOP_GRACE_MS = 1_000;

const VARIANTS = [
  { name: "deno run src/main.ts", kind: "main", env: {} },
  {
    name: "… LOGO_DISCOVERY=on (the start task's default)",
    kind: "main",
    env: { LOGO_DISCOVERY: "on" },
  },
  {
    name: "… LOGO_RENDER_WORKERS=0 (no render workers)",
    kind: "main",
    env: { LOGO_RENDER_WORKERS: "0" },
  },
  { name: "deno serve src/serve.ts", kind: "serve", env: {} },
] as const;

async function coldStart(setup: Setup, variant: typeof VARIANTS[number]): Promise<ColdStart> {
  const port = freePort();
  const unit = await startUnit({
    kind: variant.kind,
    port,
    env: { ...setup.env, LOGO_KV: setup.store, PORT: String(port), ...variant.env },
    noWait: true,
  });
  try {
    const opened = await portOpen(port, unit.exited);
    const base = `http://127.0.0.1:${port}${setup.demoPath}`;
    await expect200(base, variant.name);
    const first200 = epochMs();
    await expect200(base + RENDER_QUERY, `${variant.name}, render`);
    const firstRender200 = epochMs();
    await unit.line(/listening on/i);
    return {
      portOpen: opened - unit.spawnedAt,
      listening: unit.listeningAt - unit.spawnedAt,
      first200: first200 - unit.spawnedAt,
      firstRender200: firstRender200 - unit.spawnedAt,
      exitCode: await unit.stop(STOP_GRACE_MS),
    };
  } finally {
    await unit.stop(0); // only if something above failed; no-op once exited
  }
}

/** `0×9 137×1`: each exit code and how often. */
function exitCodes(codes: number[]): string {
  const counts = new Map<number, number>();
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  return [...counts].map(([code, n]) => `${code}×${n}`).join(" ");
}

/** Runs start_probe.ts once; its `PROBE` JSON with `boot` (spawn to its first line, ms) added. */
async function probe<T>(setup: Setup, args: string[]): Promise<T & { boot: number }> {
  const unit = await startUnit({
    kind: "probe",
    args,
    env: { ...setup.env, LOGO_KV: setup.store },
    noWait: true,
  });
  const code = await unit.exited;
  const line = unit.printed.find((text) => text.startsWith("PROBE "));
  if (code !== 0 || line === undefined) {
    throw new Error(`start_probe ${args.join(" ")} exited ${code}:\n${unit.printed.join("\n")}`);
  }
  const result = JSON.parse(line.slice(6));
  return { ...result, boot: result.firstLine - unit.spawnedAt };
}

interface StartProbe {
  firstLine: number;
  importedAt: number;
  servingAt?: number;
  listeningAt: number;
  openKvStart?: number;
  openKvEnd?: number;
}

interface ProfileProbe {
  importMs: number;
  startMs: number;
  importBySource: Array<[string, number]>;
  startByFunction: Array<[string, number]>;
}

/** Median of each key over several `[key, ms]` lists (a missing key counts 0), largest first. */
function medianByKey(lists: Array<Array<[string, number]>>): Array<[string, number]> {
  const keys = new Set(lists.flatMap((list) => list.map(([key]) => key)));
  return [...keys].map((key): [string, number] => [
    key,
    median(lists.map((list) => list.find(([k]) => k === key)?.[1] ?? 0)),
  ]).sort((a, b) => b[1] - a[1]);
}

/** Part 3: cold start to the first 200, and where the time goes. */
async function coldStarts(setup: Setup): Promise<void> {
  console.log(
    `\n## 3. Cold start to the first 200 (a second start: the store is seeded)\n\n` +
      `Unpinned. ${STARTS} starts of each variant, interleaved, after one unmeasured start of ` +
      `each; times from spawning the process. The port is polled every 2 ms; the default ` +
      `request (the demo key's URL) is sent as soon as it accepts, then a render ` +
      `(\`${RENDER_QUERY.slice(1)}\`). First start of all, which seeded the store: listening ` +
      `after ${f0(setup.firstStart.listeningMs)} ms, first 200 after ` +
      `${f0(setup.firstStart.first200Ms)} ms. Load average at the start: ${loadAverage()}.\n`,
  );
  for (const variant of VARIANTS) await coldStart(setup, variant);
  const samples: ColdStart[][] = VARIANTS.map(() => []);
  for (let i = 0; i < STARTS; i++) {
    for (let v = 0; v < VARIANTS.length; v++) samples[v].push(await coldStart(setup, VARIANTS[v]));
  }
  const pick = (list: ColdStart[], key: keyof ColdStart) => list.map((s) => s[key]);
  printTable(
    [
      "variant",
      "port open ms",
      "listening line ms",
      "first 200 ms, median",
      "first 200 ms, min–max",
      "first render 200 ms",
      "target ≤ 150 ms",
      "exit codes after SIGTERM",
    ],
    VARIANTS.map((variant, v) => {
      const first = pick(samples[v], "first200");
      return [
        variant.name,
        f0(median(pick(samples[v], "portOpen"))),
        f0(median(pick(samples[v], "listening"))),
        f0(median(first)),
        `${f0(Math.min(...first))}–${f0(Math.max(...first))}`,
        f0(median(pick(samples[v], "firstRender200"))),
        median(first) <= 150 ? "met" : "not met",
        exitCodes(pick(samples[v], "exitCode")),
      ];
    }),
  );
  console.log(
    `\nExit codes: 137 means the process was still running ${STOP_GRACE_MS} ms after SIGTERM ` +
      `and was killed.`,
  );
  const real = median(pick(samples[0], "first200"));
  const lineToFirst = median(samples[0].map((s) => s.first200 - s.listening));
  console.log(`\nLoad average after the starts: ${loadAverage()}.`);

  // Where the time goes.
  const starts: StartProbe[] = [];
  const stores: Array<{ importMs: number; openKvMs: number; seedCheckMs: number }> = [];
  const wasm: Array<{ createMs: number; readyMs: number; workers: number }> = [];
  const boots: number[] = [];
  const workers = navigator.hardwareConcurrency;
  for (let i = 0; i < SAMPLES; i++) {
    const start = await probe<StartProbe>(setup, ["start"]);
    starts.push(start);
    boots.push(start.boot);
    stores.push(await probe(setup, ["store"]));
    wasm.push(await probe(setup, ["wasm", String(workers)]));
  }
  const importMain = median(starts.map((s) => s.importedAt - s.firstLine));
  const mainToServing = median(starts.map((s) => (s.servingAt ?? NaN) - s.importedAt));
  const servingToLine = median(starts.map((s) => s.listeningAt - (s.servingAt ?? NaN)));
  const openKvInside = median(starts.map((s) => (s.openKvEnd ?? NaN) - (s.openKvStart ?? NaN)));
  const boot = median(boots);
  const seedCheck = median(stores.map((s) => s.seedCheckMs));
  const poolCreate = median(wasm.map((w) => w.createMs));
  const poolReady = median(wasm.map((w) => w.readyMs));
  const graph = await moduleGraph("src/main.ts", "deno.json");
  const npmStatic = graph.external.filter((e) => e.kind === "npm" && !e.lazy);
  console.log(
    `\n### Where the time goes (deno run src/main.ts, LOGO_DISCOVERY=off)\n\n` +
      `From bench/support/start_probe.ts children (started as above, no static import of their ` +
      `own), median of ${SAMPLES} each; the last rows from the starts above.\n`,
  );
  const probeOpen = boot + importMain + mainToServing;
  const realOpen = median(pick(samples[0], "portOpen"));
  const openToLine = median(samples[0].map((s) => s.listening - s.portOpen));
  printTable(["phase", "ms", "how measured"], [
    ["Deno's start-up: spawn to the first line of a script", f1(boot), "probe `start`"],
    [
      `import src/main.ts: ${graph.files.length} files (${Math.round(graph.bytes / 1024)} KB), ` +
      `npm: ${npmStatic.map((e) => e.specifier).join(", ") || "none"}`,
      f1(importMain),
      "probe `start`: `await import(main.ts)`",
    ],
    [
      "main() until Deno.serve listens: settings, startService, serveHttp",
      f1(mainToServing),
      "probe `start`",
    ],
    ["  of which Deno.openKv (the store file)", f1(openKvInside), "probe `start`, wrapped"],
    ["  of which the seed check (seedIfEmpty on a seeded store)", f1(seedCheck), "probe `store`"],
    [
      "spawn until the port is open: the phases above",
      f1(probeOpen),
      `probe; ${f1(realOpen)} in the starts above (polled)`,
    ],
    [
      'port open to the "listening on" line: what main() does after listening',
      f1(openToLine),
      `the starts above (probe: ${f1(servingToLine)})`,
    ],
    [
      `  startRenderPool(${workers}) alone: the call, on the calling thread`,
      f1(poolCreate),
      "probe `wasm`",
    ],
    ["listening line to the first 200", f1(lineToFirst), "the starts above"],
    [
      "spawn to the first 200",
      f1(realOpen + openToLine + lineToFirst),
      `the starts above (sum of their medians; ${f1(real)} the median of the sums)`,
    ],
  ]);
  const renderAfter = median(samples[0].map((s) => s.firstRender200 - s.first200));
  const inlineFirst = median(pick(samples[2], "first200"));
  console.log(
    `\nWASM: ${workers} render workers have loaded imagecore's WASM ${f0(poolReady)} ms after ` +
      `startRenderPool() (probe \`wasm\`), in the background; the call itself holds the calling ` +
      `thread ${f1(poolCreate)} ms (creating the worker threads). The first render 200 came ` +
      `${f0(renderAfter)} ms after the first 200; with no render workers ` +
      `(LOGO_RENDER_WORKERS=0) the first 200 came at ${f0(inlineFirst)} ms against ${f0(real)} ms.`,
  );

  // The cost of each import.
  const candidates = [
    ...graph.external.map((e) => ({
      spec: e.specifier,
      what: `${e.kind === "npm" ? `npm ${e.resolved}` : "built-in"}`,
      loaded: e.lazy ? "lazily" : "at start",
      importers: e.importers.join(", "),
    })),
    ...graph.lazyRoots.map((file) => ({
      spec: file,
      what: "repository file",
      loaded: "lazily",
      importers: (graph.dynamicImporters.get(file) ?? []).map((from) => `${from} (import())`)
        .join(", "),
    })),
  ];
  // Together: what making every npm import at start lazy would save (the Node compatibility
  // layer's start-up is paid once, by the first of them).
  const nodeStatic = graph.external.filter((e) => e.kind === "node" && !e.lazy);
  const groups = [
    { spec: "npm packages loaded at start, together", specs: npmStatic.map((e) => e.specifier) },
    { spec: "node: modules loaded at start, together", specs: nodeStatic.map((e) => e.specifier) },
    {
      spec: "both, together",
      specs: [...npmStatic, ...nodeStatic].map((e) => e.specifier),
    },
  ].filter((group) => group.specs.length > 0);
  const alone = new Map<string, number[]>(
    [...candidates, ...groups].map((c) => [c.spec, []]),
  );
  for (let i = 0; i < SAMPLES; i++) {
    for (const candidate of candidates) {
      const result = await probe<{ steps: Array<{ ms: number }> }>(setup, [
        "imports",
        candidate.spec,
      ]);
      alone.get(candidate.spec)!.push(result.steps[0].ms);
    }
    for (const group of groups) {
      const result = await probe<{ steps: Array<{ ms: number }> }>(setup, [
        "imports",
        ...group.specs,
      ]);
      alone.get(group.spec)!.push(result.steps.reduce((sum, step) => sum + step.ms, 0));
    }
  }
  // Step by step in one process: npm packages loaded at start, then node: modules, then the
  // service's own imports, then main's, then main.
  const steps = [
    ...npmStatic.map((e) => e.specifier),
    ...graph.external.filter((e) => e.kind === "node" && !e.lazy).map((e) => e.specifier),
    ...graph.imports.get("src/server/service.ts") ?? [],
    "src/server/service.ts",
    ...graph.imports.get("src/main.ts") ?? [],
    "src/main.ts",
  ].filter((spec, i, all) => all.indexOf(spec) === i);
  const stepMs = new Map<string, number[]>(steps.map((s) => [s, []]));
  for (let i = 0; i < SAMPLES; i++) {
    const result = await probe<{ steps: Array<{ spec: string; ms: number }> }>(setup, [
      "imports",
      ...steps,
    ]);
    for (const step of result.steps) stepMs.get(step.spec)!.push(step.ms);
  }
  const stepMedian = (spec: string) => stepMs.has(spec) ? median(stepMs.get(spec)!) : NaN;
  console.log(
    `\n### The cost of each import\n\n` +
      `"Alone": \`await import(X)\` timed in a fresh process that imported nothing before (the ` +
      `first npm or node: import there also pays for Deno's Node compatibility layer); ` +
      `"in order": the step's cost in one process importing, in turn, the npm packages main ` +
      `loads, the node: modules, src/server/service.ts's own imports, service.ts, main.ts's ` +
      `imports and main.ts (so a step pays only for what earlier steps did not load). Median ` +
      `of ${SAMPLES}.\n`,
  );
  printTable(
    ["import", "what", "loaded", "imported by", "alone ms", "in order ms"],
    candidates
      .map((c) => ({ ...c, alone: median(alone.get(c.spec)!), inOrder: stepMedian(c.spec) }))
      .sort((a, b) => b.alone - a.alone)
      .map((c) => [c.spec, c.what, c.loaded, c.importers, f1(c.alone), f1(c.inOrder)])
      .concat(groups.map((group) => [
        group.spec,
        group.specs.join(", "),
        "at start",
        "",
        f1(median(alone.get(group.spec)!)),
        f1(group.specs.reduce((sum, spec) => sum + stepMedian(spec), 0)),
      ])),
  );
  console.log("");
  const total = steps.reduce((sum, spec) => sum + stepMedian(spec), 0);
  printTable(
    ["step, in order (one process)", "ms", "share"],
    steps.map((spec) => [spec, f1(stepMedian(spec)), `${f0(100 * stepMedian(spec) / total)} %`]),
  );
  console.log(`\nSum of the steps: ${f1(total)} ms.`);

  const profiles: ProfileProbe[] = [];
  for (let i = 0; i < 3; i++) profiles.push(await probe<ProfileProbe>(setup, ["profile"]));
  // Not the probe's own code (its calls into the profiler).
  const ownCode = (list: Array<[string, number]>) =>
    list.filter(([key]) => !key.includes("bench/support/"));
  const top = (list: Array<[string, number]>, n: number) =>
    list.slice(0, n).map(([key, ms]) => [key, f1(ms)]);
  console.log(
    `\n### CPU profile of a start (median of 3; V8's sampling profiler through node:inspector, ` +
      `every 100 µs; it slows what it watches, so read shares)\n\n` +
      `Importing src/main.ts (${f0(median(profiles.map((p) => p.importMs)))} ms profiled), self ` +
      `time by source:\n`,
  );
  printTable(
    ["source", "ms"],
    top(medianByKey(profiles.map((p) => ownCode(p.importBySource))), 12),
  );
  console.log(
    `\nmain() to the listening line (${f0(median(profiles.map((p) => p.startMs)))} ms ` +
      `profiled), inclusive time of the repository's functions and of ops:\n`,
  );
  printTable(
    ["function", "ms"],
    top(medianByKey(profiles.map((p) => ownCode(p.startByFunction))), 15),
  );
  console.log(`\nLoad average at the end: ${loadAverage()}.`);
}

if (import.meta.main) {
  if (!await hasWrk()) {
    console.error("wrk is not installed (Debian/Ubuntu: apt-get install wrk)");
    Deno.exit(1);
  }
  const text = async (program: string, args: string[]) => {
    const output = await new Deno.Command(program, { args, stdout: "piped", stderr: "null" })
      .output().catch(() => undefined);
    return output?.success ? new TextDecoder().decode(output.stdout).trim() : "?";
  };
  const commit = await text("git", ["rev-parse", "--short", "HEAD"]);
  const changed = (await text("git", ["status", "--porcelain", "src", "imagecore"]))
    .split("\n").filter((line) => line.trim() !== "").length;
  console.log(
    `# bench:serve, ${new Date().toISOString()}\n\n` +
      (commit === "?"
        ? ""
        : `Commit ${commit}${
          changed > 0 ? ` with ${changed} uncommitted changes in src/ or imagecore/` : ""
        }; `) +
      `Deno ${Deno.version.deno}, kernel ${await text("uname", ["-r"])}, ` +
      `${navigator.hardwareConcurrency} CPUs, load average ${loadAverage()}; ` +
      `servers run with the start task's environment (${
        Object.entries({ ...await startTaskEnv() }).map(([k, v]) => `${k}=${v}`).join(" ")
      } DENO_V8_FLAGS=${(await startTaskV8Flags()).join(",")}).`,
  );
  const units: Unit[] = [];
  const setup = await setUp();
  try {
    let one: Unit | undefined;
    if (PARTS.has("1") || PARTS.has("2")) one = await serviceAgainstBare(setup, units);
    if (PARTS.has("2")) await unitsAgainstOne(setup, one!, units);
    for (const unit of units.splice(0)) await unit.stop();
    if (PARTS.has("3")) await coldStarts(setup);
  } finally {
    for (const unit of units) await unit.stop();
    await Deno.remove(setup.dir, { recursive: true });
  }
}
