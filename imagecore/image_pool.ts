/**
 * A bounded pool of pre-warmed image workers for untrusted bytes. A WASM call is synchronous and
 * cannot be interrupted from inside, so every decode of bytes from outside (discovery, `logo add`,
 * `logo import`) runs in a `node:worker_threads` Worker that the pool can terminate:
 *
 * - **Pre-warmed**: a worker loads and instantiates both WASM modules, then posts "ready". A job's
 *   deadline starts when it is handed to a ready worker, so module loading, type-checking and
 *   WASM compilation never count against it.
 * - **Deadline** (`deadlineMs`, per job): past it the worker is terminated, the job rejected with
 *   `ImageCoreError` `timeout`, and a replacement started.
 * - **Memory**: the worker's JS heap is capped by `resourceLimits` (Deno 2.9 enforces it; a Web
 *   Worker has no such option). WASM linear memory lies outside that heap, so while a job runs the
 *   pool samples the process RSS every 20 ms and terminates the worker when it has grown more than
 *   `maxJobMemoryBytes` since the job started (`too_large`). After a job that left the worker's
 *   WASM memory above `recycleAboveBytes` the worker is replaced, which gives the memory back.
 * - **Errors**: a worker that dies (trap, heap exhausted) fails its job with `internal` or
 *   `too_large`, and is replaced.
 * - **Bounded queue**: at most `maxQueue` jobs wait; more are refused at once with `busy`.
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
import { Worker } from "node:worker_threads";
import type { ImageJob, ImageOp, WorkerMessage } from "./image_worker.ts";
import {
  ImageCoreError,
  type ProbeResult,
  type TransformOptions,
  type TransformResult,
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
}

/** A running pool; see the module doc. */
export interface ImagePool extends ImageWork, AsyncDisposable {
  /** Resolves once every worker has loaded imagecore (rejects if one could not start). */
  ready(): Promise<void>;
  /**
   * Runs a `test:` operation (see `image_worker.ts`); for tests of the pool's limits. `signal`
   * releases a `test:hold` once its first Int32 cell is set and notified.
   */
  runForTests(
    op: Exclude<ImageOp, "probe" | "transform">,
    job?: JobOptions,
    signal?: SharedArrayBuffer,
  ): Promise<unknown>;
  /** Counters. */
  stats(): ImagePoolStats;
  /** Rejects waiting jobs, terminates the workers and waits until they have exited. */
  close(): Promise<void>;
}

/** A job before it is posted: its input still a view. */
type QueuedJob = Omit<ImageJob, "id" | "input"> & { input?: Uint8Array };

/** A worker's result with its `bytes` back in a `Uint8Array`. */
function withBytes(result: unknown): unknown {
  const bytes = (result as { bytes?: unknown } | undefined)?.bytes;
  return bytes instanceof ArrayBuffer
    ? { ...result as object, bytes: new Uint8Array(bytes) }
    : result;
}

interface Pending {
  job: QueuedJob;
  deadlineMs: number;
  resolve(value: unknown): void;
  reject(error: ImageCoreError): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  exited: Promise<void>;
  memoryBytes: number;
  running?: Pending & { id: number; timer: ReturnType<typeof setTimeout>; rssAtStart: number };
}

const MIB = 1024 * 1024;
const WATCH_MS = 5;
const WORKER_URL = new URL("./image_worker.ts", import.meta.url);

/** Default JS heap cap of a worker, in MiB: room for the largest legal decode (16.8 MP). */
export const DEFAULT_MAX_HEAP_MB = 512;

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
  const size = options.size ?? 1;
  const deadlineMs = options.deadlineMs ?? 2000;
  const maxQueue = options.maxQueue ?? 32;
  const maxJobMemory = options.maxJobMemoryBytes ?? 256 * MIB;
  const recycleAbove = options.recycleAboveBytes ?? 64 * MIB;
  const maxHeapMb = options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
  const rss = options.rss ?? (() => Deno.memoryUsage().rss);
  const queue: Pending[] = [];
  const slots = new Set<Slot>();
  const exits = new Set<Promise<void>>();
  let started = 0;
  let nextId = 1;
  let closed = false;
  let watch: ReturnType<typeof setInterval> | undefined;
  let startFailure: ((error: ImageCoreError) => void)[] = [];
  let readyWaiters: (() => void)[] = [];

  function spawn(): void {
    started++;
    const worker = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 16 },
    });
    let exited!: () => void;
    const slot: Slot = {
      worker,
      ready: false,
      exited: new Promise((r) => exited = r),
      memoryBytes: 0,
    };
    exits.add(slot.exited);
    slots.add(slot);
    worker.on("message", (message: WorkerMessage) => onMessage(slot, message));
    worker.on("error", (error: Error & { code?: string }) => {
      const outOfMemory = error.code === "ERR_WORKER_OUT_OF_MEMORY";
      fail(
        slot,
        outOfMemory ? "too_large" : "internal",
        outOfMemory
          ? "Cannot process image: it needs more memory than the image worker may use"
          : `Cannot process image: internal error (${error.message})`,
      );
    });
    worker.on("exit", () => {
      exits.delete(slot.exited);
      exited();
      if (slots.has(slot)) fail(slot, "internal", "Cannot process image: the image worker exited");
    });
  }

  function onMessage(slot: Slot, message: WorkerMessage): void {
    slot.memoryBytes = message.memoryBytes;
    if (message.type === "ready") {
      slot.ready = true;
      if ([...slots].every((s) => s.ready)) {
        for (const wake of readyWaiters) wake();
        readyWaiters = [];
        startFailure = [];
      }
    } else {
      const job = slot.running;
      if (job === undefined || job.id !== message.id) return;
      clearTimeout(job.timer);
      slot.running = undefined;
      if (message.error) job.reject(new ImageCoreError(message.error.code, message.error.message));
      else job.resolve(withBytes(message.result));
      if (message.memoryBytes > recycleAbove) replace(slot);
    }
    dispatch();
  }

  /** Ends `slot`'s worker, fails its job (or, before ready, the waiting ones) and replaces it. */
  function fail(slot: Slot, code: ImageCoreError["code"], message: string): void {
    if (!slots.has(slot)) return;
    const job = slot.running;
    if (job) {
      clearTimeout(job.timer);
      slot.running = undefined;
      job.reject(new ImageCoreError(code, message));
    } else if (!slot.ready) {
      // A worker that cannot even start would fail every job: report it instead of retrying.
      const error = new ImageCoreError("internal", `Cannot start the image worker: ${message}`);
      for (const pending of queue.splice(0)) pending.reject(error);
      for (const reject of startFailure) reject(error);
      startFailure = [];
      readyWaiters = [];
      slots.delete(slot);
      void slot.worker.terminate();
      return;
    }
    replace(slot);
    dispatch();
  }

  function replace(slot: Slot): void {
    slots.delete(slot);
    void slot.worker.terminate();
    if (!closed) spawn();
  }

  function dispatch(): void {
    if (closed) return;
    while (slots.size < size && queue.length > 0) spawn();
    for (const slot of slots) {
      if (!slot.ready || slot.running || queue.length === 0) continue;
      const pending = queue.shift()!;
      const id = nextId++;
      const timer = setTimeout(() => {
        fail(slot, "timeout", `Cannot process image: it took longer than ${pending.deadlineMs} ms`);
      }, pending.deadlineMs);
      // Without a memory cap there is nothing to compare against: no RSS read (about 15 µs).
      const rssAtStart = Number.isFinite(maxJobMemory) ? rss() : 0;
      slot.running = { ...pending, id, timer, rssAtStart };
      // The input's own copy, as a transferred buffer (`ImageJob.input` says why not a view).
      const input = pending.job.input?.slice().buffer;
      slot.worker.postMessage({ ...pending.job, input, id }, input ? [input] : []);
    }
    const busy = [...slots].some((s) => s.running);
    if (busy && watch === undefined && Number.isFinite(maxJobMemory)) {
      watch = setInterval(watchMemory, WATCH_MS);
    } else if (!busy && watch !== undefined) {
      clearInterval(watch);
      watch = undefined;
    }
  }

  function watchMemory(): void {
    const now = rss();
    for (const slot of slots) {
      if (slot.running && now - slot.running.rssAtStart > maxJobMemory) {
        const limit = Math.round(maxJobMemory / MIB);
        fail(slot, "too_large", `Cannot decode image: it needs more than ${limit} MiB of memory`);
      }
    }
  }

  function submit(job: QueuedJob, options: JobOptions = {}): Promise<unknown> {
    if (closed) {
      return Promise.reject(new ImageCoreError("internal", "Cannot process image: pool closed"));
    }
    if (queue.length >= maxQueue) {
      return Promise.reject(
        new ImageCoreError("busy", `Cannot process image: ${maxQueue} images are already waiting`),
      );
    }
    return new Promise((resolve, reject) => {
      queue.push({ job, deadlineMs: options.deadlineMs ?? deadlineMs, resolve, reject });
      dispatch();
    });
  }

  async function close(): Promise<void> {
    closed = true;
    if (watch !== undefined) clearInterval(watch);
    const error = new ImageCoreError("internal", "Cannot process image: pool closed");
    for (const pending of queue.splice(0)) pending.reject(error);
    for (const reject of startFailure) reject(error);
    for (const slot of [...slots]) {
      slots.delete(slot);
      if (slot.running) {
        clearTimeout(slot.running.timer);
        slot.running.reject(error);
      }
      void slot.worker.terminate();
    }
    await Promise.all([...exits]);
  }

  for (let i = 0; i < size; i++) spawn();
  return {
    ready() {
      if (closed) return Promise.reject(new ImageCoreError("internal", "pool closed"));
      if (slots.size === size && [...slots].every((s) => s.ready)) return Promise.resolve();
      while (slots.size < size) spawn();
      return new Promise<void>((resolve, reject) => {
        readyWaiters.push(resolve);
        startFailure.push(reject);
      });
    },
    probe: (input, job) => submit({ op: "probe", input }, job) as Promise<ProbeResult>,
    transform: (input, transformOptions = {}, job) =>
      submit({ op: "transform", input, options: transformOptions }, job) as Promise<
        TransformResult
      >,
    runForTests: (op, job, signal) => submit({ op, signal }, job),
    stats: () => ({
      started,
      queued: queue.length,
      running: [...slots].filter((s) => s.running).length,
      wasmBytes: [...slots].map((s) => s.memoryBytes),
    }),
    close,
    [Symbol.asyncDispose]: close,
  };
}
