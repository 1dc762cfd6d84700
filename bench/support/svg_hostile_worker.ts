/**
 * Worker of `bench/svg_hostile_bench.ts`: rasterises one SVG with the SVG module (WASM) on a
 * fresh instance and posts the time taken, the instance's linear memory afterwards (it only grows,
 * so that is the peak) and the outcome.
 * @module
 */
import * as svgGlue from "../../imagecore/pkg/imagecore_svg.js";

/** What the bench sends. */
export interface Job {
  /** SVG bytes. */
  input: Uint8Array;
  /** Output width in px. */
  width: number;
}

const scope = self as unknown as {
  onmessage: (event: MessageEvent<Job>) => void;
  postMessage(message: unknown): void;
};

scope.onmessage = ({ data }) => {
  svgGlue.initSync({
    module: Deno.readFileSync(
      new URL("../../imagecore/pkg/imagecore_svg_bg.wasm", import.meta.url),
    ),
  });
  const start = performance.now();
  let outcome: string;
  try {
    const out = svgGlue.svg_rasterize(data.input, data.width);
    outcome = `ok ${new DataView(out.buffer, out.byteOffset).getUint32(0, true)}px`;
  } catch (error) {
    outcome = typeof error === "string" ? error.split("\t")[0] : `trap (${error})`;
  }
  const ms = performance.now() - start;
  scope.postMessage({ ms, memory: svgGlue.memory_bytes(), outcome });
};
