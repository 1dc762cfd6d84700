/**
 * The resize fast path (imagecore/README.md, "Resize"), measured in WASM:
 * `deno run --config deno.dev.json --allow-all bench/resize_stage_bench.ts [--baseline=DIR]`.
 *
 * 1. The resize stage alone, on the decoded pixels of `deno task bench`'s inputs: the fast path
 *    against one full Lanczos3 convolution, and the greyscale resize on luma + alpha against the
 *    colour fast path, each pair interleaved in one instance.
 * 2. With `--baseline=DIR` (an imagecore folder of another build, e.g. from `git archive`), the
 *    whole `transform` of this build against that one, interleaved: 128 px greyscale PNG for
 *    PNG inputs, 128 px colour PNG for JPEG inputs.
 *
 * Prints medians in ms; the output sizes of each row are the same in both columns.
 * @module
 */
import sharp from "sharp";
import * as glue from "../imagecore/pkg/imagecore.js";
import { transform } from "../imagecore/mod.ts";
import { benchInputs } from "./bench_inputs.ts";

const WIDTH = 128;
const RUNS = 41;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Runs `a` and `b` alternately (after warm-up) and returns the median ms of each. */
function interleaved(a: () => unknown, b: () => unknown): [number, number] {
  for (let i = 0; i < 3; i++) a(), b();
  const [ta, tb]: number[][] = [[], []];
  for (let i = 0; i < RUNS; i++) {
    for (const [run, times] of i % 2 ? [[a, ta], [b, tb]] as const : [[b, tb], [a, ta]] as const) {
      const t0 = performance.now();
      run();
      times.push(performance.now() - t0);
    }
  }
  return [median(ta), median(tb)];
}

const inputs = await benchInputs();

glue.initSync({
  module: Deno.readFileSync(new URL("../imagecore/pkg/imagecore_bg.wasm", import.meta.url)),
});
console.log(`resize stage to ${WIDTH} px wide, median ms of ${RUNS} interleaved runs`);
console.log("input\toutput\tfast\tfull Lanczos3\tfast/full\tgrey\tgrey/fast");
for (const input of inputs.filter((i) => i.sharpDecodes)) {
  const { data, info } = await sharp(input.bytes).ensureAlpha().raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = new Uint8Array(data);
  const height = Math.max(1, Math.round(WIDTH * info.height / info.width));
  const resize = (reference: boolean, grey: boolean) => () =>
    glue.bench_resize(pixels, info.width, info.height, WIDTH, height, reference, grey);
  const [fast, full] = interleaved(resize(false, false), resize(true, false));
  const [grey, fastAgain] = interleaved(resize(false, true), resize(false, false));
  console.log(
    `${input.name}\t${WIDTH}×${height}\t${fast.toFixed(3)}\t${full.toFixed(3)}\t${
      (fast / full).toFixed(2)
    }\t${grey.toFixed(3)}\t${(grey / fastAgain).toFixed(2)}`,
  );
}

const baselineArg = Deno.args.find((a) => a.startsWith("--baseline="));
if (baselineArg) {
  const dir = baselineArg.slice("--baseline=".length).replace(/\/$/, "");
  const baseline: typeof import("../imagecore/mod.ts") = await import(`file://${dir}/mod.ts`);
  console.log(`\ntransform to ${WIDTH} px PNG (grey for PNG, colour for JPEG), median ms`);
  console.log("input\tthis build\tbaseline\tthis/baseline\tbytes\tbaseline bytes");
  for (const input of inputs.filter((i) => i.name !== "ico 16…256")) {
    const options = { width: WIDTH, greyscale: !input.name.startsWith("jpeg") };
    const [now, before] = interleaved(
      () => transform(input.bytes, options),
      () => baseline.transform(input.bytes, options),
    );
    const bytes = transform(input.bytes, options).bytes.length;
    const baselineBytes = baseline.transform(input.bytes, options).bytes.length;
    console.log(
      `${input.name}\t${now.toFixed(3)}\t${before.toFixed(3)}\t${
        (now / before).toFixed(2)
      }\t${bytes}\t${baselineBytes}`,
    );
  }
}
