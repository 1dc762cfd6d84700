/**
 * The render pool: the image pool (`imagecore/image_pool.ts`) that runs the request path's cold
 * renders, so that a render never runs in the isolate that serves requests and a cache hit never
 * waits behind one.
 *
 * - **Size**: `LOGO_RENDER_WORKERS` workers, by default one per core
 *   (`navigator.hardwareConcurrency`, see {@link defaultRenderWorkers}); with one instance per
 *   core, set 1 per instance (docs/operate/deploy/logo-lookup@.service does). `0` renders inline, in the
 *   serving isolate (small boxes, runtimes without workers, and the benchmark's "before").
 * - **Queue**: at most {@link RENDER_QUEUE_PER_WORKER} renders wait per worker; past that a render
 *   fails with `busy`, which the render step answers `503` with `Retry-After`.
 * - **Priority**: each worker thread lowers its own priority to nice
 *   {@link RENDER_WORKER_NICENESS} (Linux), so when the cores are busy the OS runs the serving
 *   thread first and a cache hit does not wait for a render's time slice to end.
 * - **Trusted input**: a render's input is one of the service's own stored PNG renditions
 *   (≤ 1200 px), so the pool runs without the RSS watchdog (`maxJobMemoryBytes: Infinity`); the
 *   deadline, the heap cap and the recycling of a worker left large stay (docs/internals/render_pool.md
 *   gives the measured costs).
 *
 * @example
 * ```ts
 * import { renderWorkers, startRenderPool, stopRenderPool } from "./render_pool.ts";
 * const pool = startRenderPool(renderWorkers("2")); // LOGO_RENDER_WORKERS, src/settings/
 * await pool?.ready();
 * // createApp({ kv, imaging: pool }) … then at shutdown:
 * await stopRenderPool(pool);
 * ```
 * @module
 */
import { type ImagePool, startImagePool } from "../../imagecore/image_pool.ts";

/**
 * Renders that may wait per worker before `503`: a fraction of a second of logo renders, and room
 * for a burst of monogram tiles shared by two workers (`deno task bench:monogram`).
 */
export const RENDER_QUEUE_PER_WORKER = 128;
/** Wall-clock cap of one render once a worker has it, in ms; past it the answer is `503`. */
export const RENDER_DEADLINE_MS = 2_000;
/**
 * Nice value of the render worker threads: below the serving thread's 0, so it preempts them, and
 * far from 19, so a render still gets about a tenth of a core against each busy thread of normal
 * priority (CFS weights 110 against 1024) and meets {@link RENDER_DEADLINE_MS} on a loaded box.
 */
export const RENDER_WORKER_NICENESS = 10;
/** How long shutdown waits for the render workers to exit. */
export const RENDER_POOL_CLOSE_TIMEOUT_MS = 1_000;
/** Most render workers `LOGO_RENDER_WORKERS` may ask for. */
export const MAX_RENDER_WORKERS = 256;

/**
 * Default number of image workers on a machine with `cores` logical cores shared by `processes`
 * processes that each start a pool: the cores divided among them, rounded, at least 1 — one per
 * core for one process. Used for the render pool and for `logo import`.
 * docs/internals/render_pool.md has the measured comparison of sizes.
 *
 * @example
 * ```ts
 * defaultRenderWorkers(2); // 2
 * defaultRenderWorkers(8, 4); // 2 per process
 * ```
 */
export function defaultRenderWorkers(
  cores: number = navigator.hardwareConcurrency,
  processes = 1,
): number {
  if (!Number.isInteger(cores) || cores < 1) return 1;
  return Math.max(1, Math.round(cores / Math.max(1, processes)));
}

/**
 * Reads `LOGO_RENDER_WORKERS`: unset or empty gives {@link defaultRenderWorkers} of `cores` and
 * `processes`.
 *
 * @throws {RangeError} "Invalid LOGO_RENDER_WORKERS …" unless a whole number from 0 to
 * {@link MAX_RENDER_WORKERS}.
 *
 * @example
 * ```ts
 * renderWorkers("0"); // 0: render inline
 * renderWorkers(undefined, 4); // 4
 * ```
 */
export function renderWorkers(
  value: string | undefined,
  cores: number = navigator.hardwareConcurrency,
  processes = 1,
): number {
  const text = value?.trim();
  if (!text) return defaultRenderWorkers(cores, processes);
  const workers = Number(text);
  if (!Number.isInteger(workers) || workers < 0 || workers > MAX_RENDER_WORKERS) {
    throw new RangeError(
      `Invalid LOGO_RENDER_WORKERS "${value}": expected a whole number from 0 (render inline) ` +
        `to ${MAX_RENDER_WORKERS}`,
    );
  }
  return workers;
}

/** Longest `LOGO_RENDER_DEADLINE_MS` accepted: a minute. */
export const MAX_RENDER_DEADLINE_MS = 60_000;

/**
 * Reads `LOGO_RENDER_DEADLINE_MS`: unset or empty gives {@link RENDER_DEADLINE_MS}. A slower
 * machine, or a test suite sharing its cores with another, may need more.
 *
 * @throws {RangeError} "Invalid LOGO_RENDER_DEADLINE_MS …" unless a whole number of ms from 100
 * to {@link MAX_RENDER_DEADLINE_MS}.
 *
 * @example
 * ```ts
 * renderDeadlineMs(undefined); // 2000
 * renderDeadlineMs("10000"); // 10000
 * ```
 */
export function renderDeadlineMs(value: string | undefined): number {
  const text = value?.trim();
  if (!text) return RENDER_DEADLINE_MS;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 100 || ms > MAX_RENDER_DEADLINE_MS || String(ms) !== text) {
    throw new RangeError(
      `Invalid LOGO_RENDER_DEADLINE_MS "${value}": expected a whole number of ms from 100 to ` +
        `${MAX_RENDER_DEADLINE_MS}`,
    );
  }
  return ms;
}

/**
 * Starts the render pool of `workers` workers, or nothing for 0 (renders run inline), each render
 * bounded by `deadlineMs` once a worker has it.
 *
 * @example
 * ```ts
 * const pool = startRenderPool(2);
 * await pool?.ready();
 * await pool?.close();
 * ```
 */
export function startRenderPool(
  workers: number,
  deadlineMs: number = RENDER_DEADLINE_MS,
): ImagePool | undefined {
  if (workers === 0) return undefined;
  return startImagePool({
    size: workers,
    deadlineMs,
    maxQueue: RENDER_QUEUE_PER_WORKER * workers,
    maxJobMemoryBytes: Infinity,
    niceness: RENDER_WORKER_NICENESS,
  });
}

/**
 * Closes the render pool at shutdown, waiting at most `timeoutMs` for its workers to exit, and
 * says which it was on `log`: "Render workers stopped." or that they did not stop in time.
 * Nothing to do (and nothing said) for inline renders.
 *
 * @example
 * ```ts
 * const pool = startRenderPool(1);
 * await pool?.ready();
 * await stopRenderPool(pool); // prints "Render workers stopped."
 * ```
 */
export async function stopRenderPool(
  pool: ImagePool | undefined,
  log: (line: string) => void = console.log,
  timeoutMs: number = RENDER_POOL_CLOSE_TIMEOUT_MS,
): Promise<void> {
  if (pool === undefined) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => timer = setTimeout(resolve, timeoutMs, false));
  const closed = pool.close().then(() => true, () => true);
  const stopped = await Promise.race([closed, late]);
  clearTimeout(timer);
  log(
    stopped
      ? "Render workers stopped."
      : `Render workers did not stop within ${timeoutMs} ms; exiting without them.`,
  );
}
