/**
 * `deno run --config deno.dev.json -A bench/imagecore_ab_bench.ts OTHER_IMAGECORE_DIR`: this
 * checkout's imagecore against another build of it (e.g. `git archive BASE | tar -x -C /tmp/base`,
 * then `/tmp/base/imagecore`), both loaded in this process and called interleaved, one call of each
 * per round, on `bench/bench_inputs.ts`'s inputs resized to 128 px wide. Prints per input the median
 * ms of each and the ratio this/other, then the median ratio. A shared machine's load slows both
 * alike, so the ratio is steadier than two separate runs of `deno task bench`.
 *
 * Environment: `BENCH_INPUTS` (a regular expression: only the inputs whose name matches),
 * `BENCH_GREY` (`1`, the default: greyscale; `0`: colour), `BENCH_ROUNDS` (60).
 * @module
 */
import { transform } from "../imagecore/mod.ts";
import { benchInputs } from "./bench_inputs.ts";

const other = Deno.args[0];
if (!other) {
  console.error("usage: imagecore_ab_bench.ts OTHER_IMAGECORE_DIR");
  Deno.exit(2);
}
const otherTransform: typeof transform =
  (await import(new URL(`file://${Deno.realPathSync(other)}/mod.ts`).href)).transform;
const only = new RegExp(Deno.env.get("BENCH_INPUTS") ?? "");
const greyscale = Deno.env.get("BENCH_GREY") !== "0";
const rounds = Number(Deno.env.get("BENCH_ROUNDS") ?? 60);
const loadAverage = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function timed(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

console.log(`load average before: ${loadAverage()}`);
console.log(`${greyscale ? "greyscale" : "colour"} → 128 px, ${rounds} interleaved rounds`);
console.log("| input | this ms | other ms | this/other |\n| --- | --- | --- | --- |");
const ratios: number[] = [];
for (const input of await benchInputs()) {
  if (!only.test(input.name)) continue;
  const options = { width: 128, greyscale };
  const runs = [() => transform(input.bytes, options), () => otherTransform(input.bytes, options)];
  const same = runs.map((run) => run().bytes).every((b, _, all) => b.join() === all[0].join());
  for (let i = 0; i < 3; i++) runs.forEach((run) => run());
  const times = runs.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first, so neither always runs on a cache the other warmed.
    const order = round % 2 ? [1, 0] : [0, 1];
    for (const i of order) times[i].push(timed(runs[i]));
  }
  const [mine, theirs] = times.map(median);
  ratios.push(mine / theirs);
  const note = same ? "" : " (outputs differ)";
  console.log(
    `| ${input.name} | ${mine.toFixed(2)} | ${theirs.toFixed(2)} | ${
      (mine / theirs).toFixed(2)
    }${note} |`,
  );
}
console.log(`median this/other: ${median(ratios).toFixed(2)} over ${ratios.length} inputs`);
console.log(`load average after: ${loadAverage()}`);
