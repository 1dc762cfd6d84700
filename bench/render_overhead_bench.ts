/**
 * What a render costs in the image pool beyond the render itself, to choose how the render pool
 * runs trusted input (`src/server/render_pool.ts`, docs/render_pool.md):
 *
 * 1. the render inline (imagecore in this isolate): 512-px source → 64 px, and → 300 px greyscale;
 * 2. the same through a one-worker pool with the RSS watchdog (the default for untrusted bytes),
 *    and without it (`maxJobMemoryBytes: Infinity`), one job at a time;
 * 3. a bare `node:worker_threads` echo of the source's bytes: copied vs transferred;
 * 4. one RSS sample (`Deno.memoryUsage().rss`), which the watchdog takes every 5 ms while a job runs.
 *
 * Medians of `BENCH_ROUNDS` (default 400) rounds each. Usage:
 * `deno run -A bench/render_overhead_bench.ts`
 *
 * @module
 */
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

async function median(run: () => unknown): Promise<number> {
  for (let i = 0; i < 20; i++) await run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
console.log(
  `source ${SOURCE.length} bytes (512×512 PNG); ${ROUNDS} rounds; load average ${
    Deno.loadavg().map((n) => n.toFixed(2)).join(" ")
  }`,
);
for (const [name, options] of CASES) {
  const inline = await median(() => transform(SOURCE, options));
  const watched = startImagePool({ size: 1 });
  await watched.ready();
  const withWatchdog = await median(() => watched.transform(SOURCE, options));
  await watched.close();
  const lean = startImagePool({ size: 1, maxJobMemoryBytes: Infinity });
  await lean.ready();
  const withoutWatchdog = await median(() => lean.transform(SOURCE, options));
  await lean.close();
  console.log(
    `${name}: inline ${us(inline)}; pool with watchdog ${us(withWatchdog)} (+${
      us(withWatchdog - inline)
    }); pool without ${us(withoutWatchdog)} (+${us(withoutWatchdog - inline)})`,
  );
}

const echoFile = await Deno.makeTempFile({ suffix: ".ts" });
await Deno.writeTextFile(
  echoFile,
  `import { parentPort } from "node:worker_threads";
parentPort.on("message", (bytes) => parentPort.postMessage(bytes.length));`,
);
const echo = new Worker(new URL(`file://${echoFile}`));
const roundTrip = (transfer: boolean) =>
  new Promise((resolve) => {
    echo.once("message", resolve);
    const bytes = transfer ? SOURCE.slice() : SOURCE;
    const buffer = bytes.buffer as ArrayBuffer;
    echo.postMessage(bytes, transfer ? [buffer] : []);
  });
const copied = await median(() => roundTrip(false));
const transferred = await median(() => roundTrip(true));
const sliceOnly = await median(() => SOURCE.slice());
await echo.terminate();
await Deno.remove(echoFile);
console.log(
  `echo of ${SOURCE.length} bytes: copied ${us(copied)}; transferred ${
    us(transferred)
  } (including the ${us(sliceOnly)} copy that keeps the cached source)`,
);
const rss = await median(() => Deno.memoryUsage().rss);
console.log(
  `one RSS sample: ${us(rss)}; at one per 5 ms while busy: ${
    (rss / 5 * 100).toFixed(2)
  } % of a core`,
);
