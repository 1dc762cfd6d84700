/**
 * `deno run --allow-all bench/svg_hostile_bench.ts [width] [cap-ms]`: every input of the
 * hostile-SVG corpus (test/support/hostile_svg.ts) through the SVG module (WASM), each in a fresh
 * Worker on a fresh instance. Prints per input the outcome (ok, an error code, trap, or
 * "over cap" when the Worker was stopped at the cap), the milliseconds and the peak linear memory
 * of the instance in MiB. Defaults: width 1200, cap 20 000 ms.
 * @module
 */
import { hostileSvgs } from "../test/support/hostile_svg.ts";
import type { Job } from "./support/svg_hostile_worker.ts";

const width = Number(Deno.args[0] ?? 1200);
const cap = Number(Deno.args[1] ?? 20_000);

function run(job: Job): Promise<{ ms: number; memory: number; outcome: string }> {
  const worker = new Worker(new URL("./support/svg_hostile_worker.ts", import.meta.url), {
    type: "module",
  });
  return new Promise((resolve) => {
    const stop = setTimeout(() => {
      worker.terminate();
      resolve({ ms: cap, memory: NaN, outcome: "over cap" });
    }, cap);
    worker.onmessage = (event) => {
      clearTimeout(stop);
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      clearTimeout(stop);
      worker.terminate();
      resolve({ ms: NaN, memory: NaN, outcome: `worker error (${event.message})` });
    };
    worker.postMessage(job);
  });
}

const encoder = new TextEncoder();
console.log(`width ${width} px, cap ${cap} ms`);
console.log(["input", "outcome", "ms", "peak MiB"].join("\t"));
for (const { name, svg } of hostileSvgs()) {
  const { ms, memory, outcome } = await run({ input: encoder.encode(svg), width });
  console.log([name, outcome, ms.toFixed(0), (memory / 2 ** 20).toFixed(0)].join("\t"));
}
