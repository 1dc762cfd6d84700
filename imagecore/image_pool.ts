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
 *   also checked every {@link SWEEP_MS} ms, so a wake-up `Atomics.waitAsync` never delivers can
 *   neither lose its answer nor its deadline.
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
import type { ImageJob, WorkerMessage, WorkerSetup } from "./image_worker.ts";
import { checkNiceness } from "./thread_niceness.ts";
import { hasDescriptorHeadroom } from "./descriptor_headroom.ts";
import { type PackedRenditions, unpackRenditions } from "./renditions.ts";
import {
  createMailbox,
  DEFAULT_MAILBOX_BYTES,
  DONE,
  type Mailbox,
  type MailboxAnswer,
  postJob,
  readAnswer,
} from "./worker_mailbox.ts";
import {
  ImageCoreError,
  type ProbeResult,
  type TransformOptions,
  type TransformResult,
} from "./mod.ts";

export type {
  ImagePool,
  ImagePoolOptions,
  ImagePoolStats,
  ImageWork,
  JobOptions,
  MonogramWork,
} from "./image_pool_types.ts";
import type { ImagePool, ImagePoolOptions, JobOptions } from "./image_pool_types.ts";

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
  /** The thread's nice value the worker reported once ready. */
  niceness: number | null;
  mailbox?: Mailbox;
  /** Sequence number of the last job posted in the mailbox. */
  seq: number;
  /** The running job: `id` of a job sent by message, or minus its mailbox sequence number. */
  running?: Pending & {
    id: number;
    timer?: ReturnType<typeof setTimeout>;
    rssAtStart: number;
    /** A mailbox job's deadline, by `performance.now()`. */
    endsAt?: number;
  };
}

const MIB = 1024 * 1024;
const WATCH_MS = 5;
/**
 * How often the mailbox jobs in flight are checked without waiting for their wake-up: the
 * backstop of {@link awaitMailbox}'s `Atomics.waitAsync`, whose promise was seen, rarely, never to
 * settle (neither the worker's notify nor its own timeout), leaving a request unanswered for ever.
 */
const SWEEP_MS = 50;
const WORKER_URL = new URL("./image_worker.ts", import.meta.url);
/** How soon a worker that could not be created (see `canStartWorker`) is tried again. */
const START_RETRY_MS = 250;

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
  const mailboxBytes = options.mailboxBytes ?? DEFAULT_MAILBOX_BYTES;
  const niceness = checkNiceness(options.niceness ?? 0);
  const canStartWorker = options.canStartWorker ?? hasDescriptorHeadroom;
  const queue: Pending[] = [];
  const slots = new Set<Slot>();
  const exits = new Set<Promise<void>>();
  let started = 0;
  let nextId = 1;
  let closed = false;
  let watch: ReturnType<typeof setInterval> | undefined;
  let sweep: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let startFailure: ((error: ImageCoreError) => void)[] = [];
  let readyWaiters: (() => void)[] = [];

  /** Creates a worker, or, when `canStartWorker` says no, tries again later and returns false. */
  function spawn(): boolean {
    if (!canStartWorker()) {
      deferStart();
      return false;
    }
    started++;
    const mailbox = mailboxBytes > 0 ? createMailbox(mailboxBytes) : undefined;
    const worker = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 16 },
      workerData: { mailbox: mailbox?.buffer, niceness } satisfies WorkerSetup,
    });
    let exited!: () => void;
    const slot: Slot = {
      worker,
      ready: false,
      exited: new Promise((r) => exited = r),
      mailbox,
      seq: 0,
      memoryBytes: 0,
      niceness: null,
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
    return true;
  }

  /**
   * Schedules the next attempt to fill the pool. With no worker at all, the waiting jobs could only
   * wait for descriptors to come back: they are refused now, as a full queue is.
   */
  function deferStart(): void {
    if (slots.size === 0) {
      const error = new ImageCoreError(
        "busy",
        "Cannot process image: no image worker can start now (no file descriptors to spare)",
      );
      for (const pending of queue.splice(0)) pending.reject(error);
    }
    retry ??= setTimeout(() => {
      retry = undefined;
      if (!closed) fill();
    }, START_RETRY_MS);
  }

  /** Starts workers up to `size` (one that cannot start now is tried again later). */
  function fill(): void {
    while (slots.size < size) if (!spawn()) break;
    dispatch();
  }

  function onMessage(slot: Slot, message: WorkerMessage): void {
    if (message.type === "ready") {
      slot.ready = true;
      slot.memoryBytes = message.memoryBytes;
      slot.niceness = message.niceness;
      if ([...slots].every((s) => s.ready)) {
        for (const wake of readyWaiters) wake();
        readyWaiters = [];
        startFailure = [];
      }
    } else {
      finish(slot, message.id, { ...message, result: withBytes(message.result) as never });
    }
    dispatch();
  }

  /** Settles job `id` of `slot` with its answer, if it still runs there. */
  function finish(slot: Slot, id: number, answer: MailboxAnswer): void {
    const job = slot.running;
    if (job === undefined || job.id !== id || !slots.has(slot)) return;
    slot.memoryBytes = answer.memoryBytes;
    clearTimeout(job.timer);
    slot.running = undefined;
    if (answer.error) job.reject(new ImageCoreError(answer.error.code, answer.error.message));
    else job.resolve(answer.result);
    if (answer.memoryBytes > recycleAbove) replace(slot);
  }

  /** Waits, until its deadline, for the answer of the job posted in `slot`'s mailbox. */
  async function awaitMailbox(slot: Slot, seq: number, before: number, deadline: number) {
    const wait = Atomics.waitAsync(slot.mailbox!.cells, DONE, before, deadline);
    const outcome = wait.async ? await wait.value : wait.value;
    settleMailbox(slot, seq, outcome === "timed-out");
  }

  /**
   * Settles mailbox job `seq` of `slot` when its answer is in; else, when `timedOut`, fails it.
   * Safe to call more than once (the wake-up and the sweep may both come).
   */
  function settleMailbox(slot: Slot, seq: number, timedOut: boolean): void {
    const mailbox = slot.mailbox!;
    const job = slot.running;
    if (job?.id !== -seq || !slots.has(slot)) return; // ended already (fail, close)
    if (Atomics.load(mailbox.cells, DONE) !== seq) {
      if (!timedOut) return;
      fail(slot, "timeout", `Cannot process image: it took longer than ${job.deadlineMs} ms`);
      return;
    }
    const answer = readAnswer(mailbox);
    if (answer.byMessage) return; // the result follows as a message
    finish(slot, -seq, answer);
    dispatch();
  }

  /** The backstop of the mailbox wake-ups (see {@link SWEEP_MS}); runs while mailbox jobs do. */
  function sweepMailboxes(): void {
    const now = performance.now();
    let inFlight = false;
    for (const slot of [...slots]) {
      const job = slot.running;
      if (job?.endsAt === undefined) continue;
      inFlight = true;
      settleMailbox(slot, -job.id, now >= job.endsAt);
    }
    if (!inFlight && sweep !== undefined) {
      clearInterval(sweep);
      sweep = undefined;
    }
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
      release(slot);
      void slot.worker.terminate();
      return;
    }
    replace(slot);
    dispatch();
  }

  function replace(slot: Slot): void {
    slots.delete(slot);
    release(slot);
    void slot.worker.terminate();
    if (!closed) spawn();
  }

  /** Wakes a pool-side wait on `slot`'s mailbox, which then finds its slot gone. */
  function release(slot: Slot): void {
    if (slot.mailbox) Atomics.notify(slot.mailbox.cells, DONE);
  }

  function dispatch(): void {
    if (closed) return;
    while (slots.size < size && queue.length > 0) if (!spawn()) break;
    for (const slot of slots) {
      if (!slot.ready || slot.running || queue.length === 0) continue;
      const pending = queue.shift()!;
      // Without a memory cap there is nothing to compare against: no RSS read (about 15 µs).
      const rssAtStart = Number.isFinite(maxJobMemory) ? rss() : 0;
      const { job, deadlineMs } = pending;
      const seq = slot.seq % 0x7fff_ffff + 1;
      const before = slot.mailbox && Atomics.load(slot.mailbox.cells, DONE);
      // `renditions`' results and a `monogram` job's strings do not fit the mailbox's cells.
      const mailable = job.signal === undefined && job.op !== "renditions" &&
        job.op !== "monogram";
      if (
        mailable && slot.mailbox &&
        postJob(slot.mailbox, seq, job.op, job.input, job.options as TransformOptions | undefined)
      ) {
        // Posted in shared memory: no message; the deadline is the wait's own timeout, and the
        // sweep's should that wait never settle.
        slot.seq = seq;
        slot.running = { ...pending, id: -seq, rssAtStart, endsAt: performance.now() + deadlineMs };
        void awaitMailbox(slot, seq, before!, deadlineMs);
        sweep ??= setInterval(sweepMailboxes, SWEEP_MS);
        continue;
      }
      const id = nextId++;
      const timer = setTimeout(() => {
        fail(slot, "timeout", `Cannot process image: it took longer than ${deadlineMs} ms`);
      }, deadlineMs);
      slot.running = { ...pending, id, timer, rssAtStart };
      // The input's own copy, as a transferred buffer (`ImageJob.input` says why not a view).
      const input = job.input?.slice().buffer;
      slot.worker.postMessage({ ...job, input, id }, input ? [input] : []);
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
    if (sweep !== undefined) clearInterval(sweep);
    if (retry !== undefined) clearTimeout(retry);
    const error = new ImageCoreError("internal", "Cannot process image: pool closed");
    for (const pending of queue.splice(0)) pending.reject(error);
    for (const reject of startFailure) reject(error);
    for (const slot of [...slots]) {
      slots.delete(slot);
      release(slot);
      if (slot.running) {
        clearTimeout(slot.running.timer);
        slot.running.reject(error);
      }
      void slot.worker.terminate();
    }
    await Promise.all([...exits]);
  }

  fill();
  return {
    ready() {
      if (closed) return Promise.reject(new ImageCoreError("internal", "pool closed"));
      if (slots.size === size && [...slots].every((s) => s.ready)) return Promise.resolve();
      fill();
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
    runForTests: (op, job, signal) => submit({ op, signal }, job),
    stats: () => ({
      started,
      queued: queue.length,
      running: [...slots].filter((s) => s.running).length,
      wasmBytes: [...slots].map((s) => s.memoryBytes),
      niceness: [...slots].filter((s) => s.ready).map((s) => s.niceness),
    }),
    close,
    [Symbol.asyncDispose]: close,
  };
}
