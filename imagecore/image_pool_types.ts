/**
 * The image pool's interface ({@link ImagePool}, {@link ImageWork}, {@link MonogramWork}) and
 * options, apart from its implementation in `image_pool.ts`, which re-exports them.
 *
 * @example
 * ```ts
 * import type { ImagePoolOptions } from "./image_pool_types.ts";
 * const options: ImagePoolOptions = { size: 2, deadlineMs: 2000, maxJobMemoryBytes: Infinity };
 * ```
 * @module
 */
import type { ImageOp } from "./image_worker.ts";
import type { SvgThemeOptions } from "./svg_theme.ts";
import type {
  ProbeResult,
  RenditionsOptions,
  RenditionsResult,
  TransformOptions,
  TransformResult,
} from "./mod.ts";

/** imagecore's two calls, done somewhere: in a pool's worker, or in process for trusted bytes. */
export interface ImageWork {
  /** Format and dimensions from the header. */
  probe(input: Uint8Array, job?: JobOptions): Promise<ProbeResult>;
  /** Decode, resize, greyscale, theme, encode. */
  transform(
    input: Uint8Array,
    options?: TransformOptions,
    job?: JobOptions,
  ): Promise<TransformResult>;
  /** Decode once, render the source and further widths as PNG (`./renditions.ts`). */
  renditions(
    input: Uint8Array,
    options: RenditionsOptions,
    job?: JobOptions,
  ): Promise<RenditionsResult>;
}

/**
 * A monogram tile drawn where the work runs: imagecore's SVG module writes the tile's document
 * (`monogramSvg`) and `transform` draws it, so the isolate that asks never loads that module.
 * The image pool offers it.
 */
export interface MonogramWork {
  /**
   * `transform(monogramSvg(label, domain), options)`: the tile of `label`'s first letter on
   * `domain`'s colour.
   */
  monogram(
    label: string,
    domain: string,
    options?: TransformOptions,
    job?: JobOptions,
  ): Promise<TransformResult>;
}

/**
 * `format=svg`'s recolouring (`themeSvg` of `svg_theme.ts`) where the work runs: it draws the
 * document to plan the theme, a render the serving isolate should not run. The image pool offers
 * it.
 */
export interface SvgThemeWork {
  /** `themeSvg(svg, options)`: the sanitised SVG text recoloured for greyscale and theme. */
  themeSvg(svg: string, options: SvgThemeOptions, job?: JobOptions): Promise<string>;
}

/** Per-job options. */
export interface JobOptions {
  /** Wall-clock cap once the job is handed to a worker; default the pool's `deadlineMs`. */
  deadlineMs?: number;
}

/** Options of {@link startImagePool}. */
export interface ImagePoolOptions {
  /** Workers; default 1. */
  size?: number;
  /** Default wall-clock cap of a job, in ms; default 2000. */
  deadlineMs?: number;
  /** Jobs that may wait for a worker; more are refused with `busy`. Default 32. */
  maxQueue?: number;
  /** Process RSS growth during one job that terminates its worker; default 256 MiB. */
  maxJobMemoryBytes?: number;
  /** WASM memory left after a job above which the worker is replaced; default 64 MiB. */
  recycleAboveBytes?: number;
  /**
   * JS heap cap of a worker (V8 old generation), in MiB; default 512. V8 weighs the WASM memory a
   * decode grows against this cap too: at 64 MiB a 4 MB, 1000×1000 PNG already killed the worker.
   */
  maxHeapMb?: number;
  /** Process RSS in bytes; default `Deno.memoryUsage().rss`. */
  rss?: () => number;
  /**
   * Bytes of each worker's shared-memory mailbox (`worker_mailbox.ts`): jobs whose input and
   * result fit skip `postMessage`; default 4 MiB; 0 sends every job by message.
   */
  mailboxBytes?: number;
  /**
   * Nice value each worker thread gives itself at start-up (0–19, `thread_niceness.ts`), so the
   * OS runs the threads that answer requests first; default 0 (the process's priority). Linux
   * only; elsewhere the workers keep the process's priority.
   */
  niceness?: number;
  /**
   * Asked, in the same synchronous turn, before each worker is created; false defers the worker
   * (retried every 250 ms) and, while the pool has none, refuses waiting jobs with `busy`.
   * Default `hasDescriptorHeadroom` (`descriptor_headroom.ts`): a worker created without
   * descriptors to spare ends the process.
   */
  canStartWorker?: () => boolean;
}

/** Counters of a pool. */
export interface ImagePoolStats {
  /** Workers started so far, replacements included. */
  started: number;
  /** Jobs waiting for a worker. */
  queued: number;
  /** Jobs running. */
  running: number;
  /** Each worker's WASM linear memory as it last reported it (after start-up or its last job). */
  wasmBytes: number[];
  /**
   * Each ready worker's thread nice value as it reported it after start-up, or `null` where it
   * was not set (`niceness` 0) or could not be (see {@link ImagePoolOptions.niceness}).
   */
  niceness: (number | null)[];
}

/** A running pool; see the module doc. */
export interface ImagePool extends ImageWork, MonogramWork, SvgThemeWork, AsyncDisposable {
  /** Resolves once every worker has loaded imagecore (rejects if one could not start). */
  ready(): Promise<void>;
  /**
   * Runs a `test:` operation (see `image_worker.ts`); for tests of the pool's limits. `signal`
   * releases a `test:hold` once its first Int32 cell is set and notified.
   */
  runForTests(
    op: Exclude<ImageOp, "probe" | "transform" | "renditions" | "monogram" | "themeSvg">,
    job?: JobOptions,
    signal?: SharedArrayBuffer,
  ): Promise<unknown>;
  /** Counters. */
  stats(): ImagePoolStats;
  /** Rejects waiting jobs, terminates the workers and waits until they have exited. */
  close(): Promise<void>;
}
