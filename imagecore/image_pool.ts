/**
 * A bounded pool of pre-warmed image workers for untrusted bytes. A WASM call is synchronous and
 * cannot be interrupted from inside, so every decode of bytes from outside (discovery, `logo add`,
 * `logo import`) runs in a `node:worker_threads` Worker that the pool can terminate:
 *
 * - **Pre-warmed**: a worker loads and instantiates both WASM modules, then posts "ready". A job's
 *   deadline starts when it is handed to a ready worker, so module loading, type-checking and
 *   WASM compilation never count against it.
 * - **Deadline** (`deadlineMs`, per job): past it the worker is terminated, the job rejected with
 *   `ImageCoreError` `timeout`, and a replacement started. A job in the shared-memory mailbox is
 *   also checked by a sweep (`pool/mailbox_wait.ts`), so a wake-up `Atomics.waitAsync` never
 *   delivers can neither lose its answer nor its deadline.
 * - **Memory**: the worker's JS heap is capped by `resourceLimits` (Deno 2.9 enforces it; a Web
 *   Worker has no such option). WASM linear memory lies outside that heap, so while a job runs the
 *   pool samples the process RSS (`pool/memory_watch.ts`) and terminates the worker when it has
 *   grown more than `maxJobMemoryBytes` since the job started (`too_large`). After a job that left
 *   the worker's WASM memory above `recycleAboveBytes` the worker is replaced, which gives the
 *   memory back.
 * - **Errors**: a worker that dies (trap, heap exhausted) fails its job with `internal` or
 *   `too_large`, and is replaced.
 * - **Bounded queue**: at most `maxQueue` jobs wait; more are refused at once with `busy`.
 * - **Start gate**: a worker is created only when `canStartWorker` allows it (`pool/workers.ts`).
 *
 * The parts, one idea each, live in `pool/`: `slot.ts` (one worker and its job), `workers.ts`
 * (starting, replacing and ending them), `job_queue.ts` (the queue and the dispatch to workers),
 * `mailbox_wait.ts`, `memory_watch.ts` and `settings.ts` (the options' defaults); this module is
 * the pool's face.
 *
 * Nothing starts at import time: whoever needs a pool creates it and closes it.
 *
 * @example
 * ```ts
 * import { startImagePool } from "./image_pool.ts";
 * const pool = startImagePool({ deadlineMs: 2000 });
 * await pool.ready();
 * const facts = await pool.probe(await Deno.readFile("logo.png"));
 * await pool.close();
 * ```
 * @module
 */
import type { ProbeResult, TransformResult } from "./mod.ts";
import { type PackedRenditions, unpackRenditions } from "./renditions.ts";
import { JobQueue } from "./pool/job_queue.ts";
import { poolSettings } from "./pool/settings.ts";
import type { ImagePool, ImagePoolOptions } from "./image_pool_types.ts";

export type {
  ImagePool,
  ImagePoolOptions,
  ImagePoolStats,
  ImageWork,
  JobOptions,
  MonogramWork,
  SvgThemeWork,
} from "./image_pool_types.ts";
export { DEFAULT_MAX_HEAP_MB } from "./pool/settings.ts";

/**
 * Starts a pool: its workers begin loading at once; jobs wait until one is ready.
 *
 * @example
 * ```ts
 * const pool = startImagePool({ size: 1, deadlineMs: 2000, maxQueue: 32 });
 * await pool.ready();
 * const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="1"/>');
 * const png = await pool.transform(svg, { width: 1200 });
 * await pool.close();
 * ```
 */
export function startImagePool(options: ImagePoolOptions = {}): ImagePool {
  const jobs = new JobQueue(poolSettings(options));
  const submit = jobs.submit.bind(jobs);
  const close = () => jobs.close();
  jobs.fill();
  return {
    ready: () => jobs.ready(),
    probe: (input, job) => submit({ op: "probe", input }, job) as Promise<ProbeResult>,
    transform: (input, transformOptions = {}, job) =>
      submit({ op: "transform", input, options: transformOptions }, job) as Promise<
        TransformResult
      >,
    renditions: async (input, renditionsOptions, job) =>
      unpackRenditions(
        await submit(
          { op: "renditions", input, options: renditionsOptions },
          job,
        ) as PackedRenditions,
      ),
    monogram: (label, domain, transformOptions = {}, job) =>
      submit({ op: "monogram", options: { ...transformOptions, label, domain } }, job) as Promise<
        TransformResult
      >,
    themeSvg: (svg, themeOptions, job) =>
      submit({ op: "themeSvg", options: { ...themeOptions, svg } }, job) as Promise<string>,
    runForTests: (op, job, signal) => submit({ op, signal }, job),
    stats: () => jobs.stats(),
    close,
    [Symbol.asyncDispose]: close,
  };
}
