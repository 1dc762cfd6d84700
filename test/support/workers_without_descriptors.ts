/**
 * Run by `test/imagecore/worker_start_gate_test.ts` under `ulimit -n`: takes every file
 * descriptor of this process, then starts an image pool and the watchdog, as the server does
 * 250 ms after listening or when a render worker is replaced. Without the descriptor check
 * Deno 2.9.6 panics creating the worker thread and this process ends; with it, a job is refused
 * with `busy`. Then the descriptors are given back, the pool and the watchdog start, and a job
 * runs. Prints one line per step; exits 0 when every step held.
 */
import { startImagePool } from "../../imagecore/image_pool.ts";
import { ImageCoreError } from "../../imagecore/mod.ts";
import { startWatchdog } from "../../src/server/watchdog.ts";

const held: Deno.FsFile[] = [];
try {
  for (;;) held.push(Deno.openSync("/dev/null"));
} catch (error) {
  if (!/Too many open files/.test(String(error))) throw error;
}
console.log(`holding ${held.length} descriptors`);

const pool = startImagePool({ size: 1, deadlineMs: 30_000 });
const watchdog = startWatchdog(60_000, console.log);
const svg = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>',
);
try {
  await pool.transform(svg, { width: 2 });
  console.log("a job ran with no descriptors to spare");
} catch (error) {
  if (!(error instanceof ImageCoreError) || error.code !== "busy") throw error;
  console.log(`refused: ${error.message}`);
}
console.log(`workers started: ${pool.stats().started}`);

for (const file of held.splice(0)) file.close();
await pool.ready();
const png = await pool.transform(svg, { width: 2 });
console.log(
  `after release: ${png.bytes.length}-byte PNG, workers started: ${pool.stats().started}`,
);
await watchdog!.started;
console.log("watchdog thread started");
watchdog!.stop();
await pool.close();
