/**
 * `deno task bench`: the same inputs through imagecore (WASM) and sharp (libvips, native), one
 * operation at a time: resize to 128 px wide with Lanczos3 to PNG, with and without greyscale.
 * Prints per input the median ms of each, the ratio imagecore/sharp, and the output bytes.
 * @module
 */
import sharp from "sharp";
import { transform } from "../imagecore/mod.ts";
import { benchInputs } from "./bench_inputs.ts";

const WIDTH = 128;
const MIN_RUNS = 15;
const BUDGET_MS = 1500;

sharp.cache(false); // no libvips operation cache: every run does the work

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function measure(
  run: () => Promise<number> | number,
): Promise<{ ms: number; bytes: number }> {
  let bytes = 0;
  for (let i = 0; i < 3; i++) bytes = await run(); // warm-up: JIT, caches
  const times: number[] = [];
  const start = performance.now();
  while (times.length < MIN_RUNS || performance.now() - start < BUDGET_MS) {
    const t0 = performance.now();
    bytes = await run();
    times.push(performance.now() - t0);
    if (times.length >= 500) break;
  }
  return { ms: median(times), bytes };
}

const rows: string[][] = [];
for (const input of await benchInputs()) {
  for (const greyscale of [false, true]) {
    const core = await measure(() =>
      transform(input.bytes, { width: WIDTH, greyscale }).bytes.length
    );
    const viaSharp = input.sharpDecodes
      ? await measure(async () => {
        let pipeline = sharp(input.bytes).resize({ width: WIDTH, kernel: "lanczos3" });
        if (greyscale) pipeline = pipeline.greyscale();
        return (await pipeline.png().toBuffer()).length;
      })
      : undefined;
    rows.push([
      input.name,
      greyscale ? "grey" : "colour",
      core.ms.toFixed(2),
      viaSharp ? viaSharp.ms.toFixed(2) : "n/a",
      viaSharp ? (core.ms / viaSharp.ms).toFixed(2) : "n/a",
      String(core.bytes),
      viaSharp ? String(viaSharp.bytes) : "n/a",
      viaSharp ? (core.bytes / viaSharp.bytes).toFixed(2) : "n/a",
    ]);
  }
}

const head = [
  "input",
  "op",
  "imagecore ms",
  "sharp ms",
  "time ratio",
  "imagecore B",
  "sharp B",
  "bytes ratio",
];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(
  `resize to ${WIDTH} px wide, Lanczos3, PNG; medians; sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}`,
);
console.log(line(head));
console.log(line(widths.map((w) => "-".repeat(w))));
for (const row of rows) console.log(line(row));
const wasm = Deno.statSync(new URL("../imagecore/pkg/imagecore_bg.wasm", import.meta.url)).size;
console.log(`imagecore_bg.wasm: ${(wasm / 1024 / 1024).toFixed(2)} MiB`);
