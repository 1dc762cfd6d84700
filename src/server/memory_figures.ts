/**
 * Where a server process's memory is, by part, for `GET /metrics` (`logo_memory_bytes{part}`) and
 * the memory benchmark (`bench/memory_bench.ts`): the serving isolate's V8 heap and the memory
 * outside it (`Deno.memoryUsage()`), the bytes each cache counts against its budget, and the WASM
 * linear memory of imagecore in the serving isolate and in each render worker (the last figure
 * the worker reported). RSS itself is `process_resident_memory_bytes`. docs/operate/capacity.md says what
 * each part is and what to expect.
 *
 * @example
 * ```ts
 * import { memoryFigures } from "./memory_figures.ts";
 * import { createApp } from "../http/app.ts";
 * const app = createApp({ kv: await Deno.openKv(":memory:") });
 * console.log(memoryFigures(app, undefined)); // { heap_used: …, variant_cache: 0, … }
 * ```
 * @module
 */
import type { App } from "../http/app.ts";
import type { ImagePool } from "../../imagecore/image_pool.ts";
import { wasmMemoryBytes } from "../../imagecore/mod.ts";

/** Bytes by part; the keys are the `part` label of `logo_memory_bytes`. */
export type MemoryFigures = Record<string, number>;

/** The memory of this process by part, reading `app`'s caches and `pool`'s workers. */
export function memoryFigures(
  app: Pick<App, "stats">,
  pool: Pick<ImagePool, "stats"> | undefined,
): MemoryFigures {
  const usage = Deno.memoryUsage();
  const stats = app.stats();
  const figures: MemoryFigures = {
    heap_used: usage.heapUsed,
    heap_total: usage.heapTotal,
    external: usage.external,
    variant_cache: stats.variants.bytes,
    source_cache: stats.sources.bytes,
    record_cache: stats.records.bytes,
    wasm_serving_isolate: wasmMemoryBytes(),
  };
  pool?.stats().wasmBytes.forEach((bytes, i) => figures[`wasm_render_worker_${i}`] = bytes);
  return figures;
}
