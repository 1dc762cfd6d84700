/**
 * What a render costs in the image pool beyond the render itself, to choose how the render pool
 * runs trusted input (`src/server/render_pool.ts`, docs/internals/render_pool.md):
 *
 * 1. the render inline (imagecore in this isolate): 512-px source → 64 px, and → 300 px greyscale;
 * 2. the same through a one-worker pool with the RSS watchdog (the default for untrusted bytes),
 *    and without it (`maxJobMemoryBytes: Infinity`), one job at a time; without it, jobs cross
 *    through the shared mailbox (`imagecore/worker_mailbox.ts`), or by `postMessage`
 *    (`mailboxBytes: 0`, as before the mailbox);
 * 3. a bare `node:worker_threads` echo of the source's bytes: as a `Uint8Array` or as its
 *    `ArrayBuffer`, copied or transferred, or through a `SharedArrayBuffer` with `Atomics`;
 * 4. one RSS sample (`Deno.memoryUsage().rss`), which the watchdog takes every 5 ms while a job runs.
 *
 * Wall-clock medians of `BENCH_ROUNDS` (default 400) rounds each, the process's CPU time (all
 * threads, `process.cpuUsage()`) per round, and the calling thread's — in the server, the serving
 * isolate's (`/proc/thread-self/stat`). CPU time moves less than wall time on a busy machine. Usage:
 * `deno run -A bench/render_overhead_bench.ts`
 *
 * @module
 */
import process from "node:process";
import { Worker } from "node:worker_threads";
import { startImagePool } from "../imagecore/image_pool.ts";
import { transform, type TransformOptions } from "../imagecore/mod.ts";
import { benchLogo } from "./support/bench_server.ts";

const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "400");
const SOURCE = benchLogo(3);
const CASES: [string, TransformOptions][] = [
  ["→ 64 px", { width: 64 }],
  ["→ 300 px grey", { width: 300, greyscale: true }],
];

/** CPU time of this thread so far, in ms (10-ms ticks); NaN without /proc. */
function threadCpuMs(): number {
  try {
    const fields = Deno.readTextFileSync("/proc/thread-self/stat").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

interface Measured {
  /** Median wall-clock time of a round, ms. */
  wall: number;
  /** Mean CPU time of a round, all threads, ms. */
  cpu: number;
  /** Mean CPU time of a round on this (the calling, "serving") thread, ms. */
  main: number;
}

/** Runs `run` `ROUNDS` times, one at a time. */
async function measure(run: () => unknown): Promise<Measured> {
  for (let i = 0; i < 20; i++) await run(); // warm-up
  const times: number[] = [];
  const cpuBefore = process.cpuUsage();
  const mainBefore = threadCpuMs();
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const main = (threadCpuMs() - mainBefore) / ROUNDS;
  times.sort((a, b) => a - b);
  const wall = times[Math.floor(times.length / 2)];
  return { wall, cpu: (cpu.user + cpu.system) / 1000 / ROUNDS, main };
}

async function median(run: () => unknown): Promise<number> {
  return (await measure(run)).wall;
}

const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
const both = (m: Measured) =>
  `${us(m.wall)} wall, ${us(m.cpu)} CPU (${us(m.main)} on the calling thread)`;
console.log(
  `source ${SOURCE.length} bytes (512×512 PNG); ${ROUNDS} rounds; load average ${
    Deno.loadavg().map((n) => n.toFixed(2)).join(" ")
  }`,
);
for (const [name, options] of CASES) {
  const inline = await measure(() => transform(SOURCE, options));
  const watched = startImagePool({ size: 1 });
  await watched.ready();
  const withWatchdog = await measure(() => watched.transform(SOURCE, options));
  await watched.close();
  const lean = startImagePool({ size: 1, maxJobMemoryBytes: Infinity });
  await lean.ready();
  const withoutWatchdog = await measure(() => lean.transform(SOURCE, options));
  await lean.close();
  const byMessage = startImagePool({ size: 1, maxJobMemoryBytes: Infinity, mailboxBytes: 0 });
  await byMessage.ready();
  const withoutMailbox = await measure(() => byMessage.transform(SOURCE, options));
  await byMessage.close();
  console.log(`${name}:`);
  console.log(`  inline               ${both(inline)}`);
  console.log(`  pool with watchdog   ${both(withWatchdog)}`);
  console.log(`  pool without         ${both(withoutWatchdog)} (the render pool: shared mailbox)`);
  console.log(`  same, by postMessage ${both(withoutMailbox)} (mailboxBytes: 0, as before)`);
}

const echoFile = await Deno.makeTempFile({ suffix: ".ts" });
await Deno.writeTextFile(
  echoFile,
  `import { parentPort, workerData } from "node:worker_threads";
parentPort.on("message", (bytes) => parentPort.postMessage(bytes.length));
// The mailbox's way: wait for cell 0 to change, copy the bytes out, answer in cell 1.
const cells = new Int32Array(workerData);
(async () => {
  for (let seen = 0;;) {
    const wait = Atomics.waitAsync(cells, 0, seen);
    if (wait.async) await wait.value;
    seen = Atomics.load(cells, 0);
    new Uint8Array(workerData, 16, cells[2]).slice();
    Atomics.store(cells, 1, seen);
    Atomics.notify(cells, 1);
  }
})();`,
);
const shared = new SharedArrayBuffer(16 + SOURCE.length);
const cells = new Int32Array(shared, 0, 3);
const echo = new Worker(new URL(`file://${echoFile}`), { workerData: shared });
let sequence = 0;
/** A round trip through shared memory: the bytes copied in, the worker woken, its answer awaited. */
async function sharedRoundTrip() {
  sequence++;
  cells[2] = SOURCE.length;
  new Uint8Array(shared, 16, SOURCE.length).set(SOURCE);
  Atomics.store(cells, 0, sequence);
  Atomics.notify(cells, 0);
  const wait = Atomics.waitAsync(cells, 1, sequence - 1);
  if (wait.async) await wait.value;
}
const roundTrip = (message: () => [unknown, ArrayBuffer[]]) =>
  new Promise((resolve) => {
    echo.once("message", resolve);
    const [value, transfer] = message();
    echo.postMessage(value, transfer);
  });
const viewCopied = await measure(() => roundTrip(() => [SOURCE, []]));
const viewTransferred = await measure(() =>
  roundTrip(() => {
    const bytes = SOURCE.slice();
    return [bytes, [bytes.buffer as ArrayBuffer]];
  })
);
const bufferCopied = await measure(() => roundTrip(() => [SOURCE.buffer, []]));
const bufferTransferred = await measure(() =>
  roundTrip(() => {
    const buffer = SOURCE.slice().buffer as ArrayBuffer;
    return [buffer, [buffer]];
  })
);
const sharedEcho = await measure(sharedRoundTrip);
await echo.terminate();
await Deno.remove(echoFile);
console.log(`echo of ${SOURCE.length} bytes through node:worker_threads:`);
console.log(`  Uint8Array copied ${both(viewCopied)}; transferred ${both(viewTransferred)}`);
console.log(
  `  ArrayBuffer copied ${both(bufferCopied)}; transferred ${
    both(bufferTransferred)
  } (the pool's way for jobs too large for the mailbox)`,
);
console.log(`  through a SharedArrayBuffer and Atomics ${both(sharedEcho)} (the mailbox's way)`);
const rss = await median(() => Deno.memoryUsage().rss);
console.log(
  `one RSS sample: ${us(rss)}; at one per 5 ms while busy: ${
    (rss / 5 * 100).toFixed(2)
  } % of a core`,
);
