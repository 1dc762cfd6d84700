/**
 * One worker of the image pool and the job it runs. The worker thread is created with its JS
 * heap cap and its shared-memory mailbox; what it says (ready, an answer, an error, its exit) is
 * handed to the slot's owner as {@link SlotEvents}.
 *
 * @example
 * ```ts
 * import { endSlot, startSlot } from "./slot.ts";
 * const slot = startSlot({ maxHeapMb: 512, mailboxBytes: 0, niceness: 0 }, {
 *   ready: (slot) => endSlot(slot),
 *   answered: () => {},
 *   failed: (_, code, message) => console.error(code, message),
 *   exited: () => console.log("ended"),
 * });
 * ```
 * @module
 */
import { Worker } from "node:worker_threads";
import type { ImageJob, WorkerMessage, WorkerSetup } from "../image_worker.ts";
import type { ImageCoreError } from "../refusals.ts";
import { createMailbox, DONE, type Mailbox, type MailboxAnswer } from "../worker_mailbox.ts";

/** A job before it is posted: its input still a view. */
export type QueuedJob = Omit<ImageJob, "id" | "input"> & { input?: Uint8Array };

/** A job waiting for a worker, with the promise it settles. */
export interface Pending {
  /** What to do. */
  job: QueuedJob;
  /** Its wall-clock cap once handed to a worker. */
  deadlineMs: number;
  /** Settles the job with its result. */
  resolve(value: unknown): void;
  /** Settles the job with a refusal. */
  reject(error: ImageCoreError): void;
}

/** A job handed to a worker. */
export interface RunningJob extends Pending {
  /** `id` of a job sent by message, or minus its mailbox sequence number. */
  id: number;
  /** The deadline of a job sent by message. */
  timer?: ReturnType<typeof setTimeout>;
  /** Process RSS when the job started (0 when there is no memory cap to compare with). */
  rssAtStart: number;
  /** A mailbox job's deadline, by `performance.now()`. */
  endsAt?: number;
}

/** One worker and what it runs. */
export interface Slot {
  /** The worker thread. */
  worker: Worker;
  /** Whether the worker has loaded imagecore. */
  ready: boolean;
  /** Resolves once the worker's thread has ended. */
  exited: Promise<void>;
  /** The worker's WASM linear memory as it last reported it. */
  memoryBytes: number;
  /** The thread's nice value the worker reported once ready. */
  niceness: number | null;
  /** The worker's shared-memory mailbox (`worker_mailbox.ts`), if it has one. */
  mailbox?: Mailbox;
  /** Sequence number of the last job posted in the mailbox. */
  seq: number;
  /** The running job. */
  running?: RunningJob;
}

/** How each worker is made. */
export interface SlotSetup {
  /** JS heap cap of the worker (V8 old generation), in MiB. */
  maxHeapMb: number;
  /** Bytes of its mailbox; 0 for none. */
  mailboxBytes: number;
  /** Nice value its thread gives itself (`thread_niceness.ts`). */
  niceness: number;
}

/** What a slot's worker tells the slot's owner. */
export interface SlotEvents {
  /** The worker has loaded imagecore (`slot.ready` is now set). */
  ready(slot: Slot): void;
  /** The worker answered job `id` by message. */
  answered(slot: Slot, id: number, answer: MailboxAnswer): void;
  /** The worker died of an error: its job fails with `code` and `message`. */
  failed(slot: Slot, code: ImageCoreError["code"], message: string): void;
  /** The worker's thread has ended, for whatever reason. */
  exited(slot: Slot): void;
}

const WORKER_URL = new URL("../image_worker.ts", import.meta.url);

/**
 * Creates a worker and its slot; the worker begins loading imagecore at once.
 *
 * @example
 * ```ts
 * const events = { ready() {}, answered() {}, failed() {}, exited() {} };
 * const slot = startSlot({ maxHeapMb: 512, mailboxBytes: 4 * 1024 * 1024, niceness: 0 }, events);
 * endSlot(slot);
 * await slot.exited;
 * ```
 */
export function startSlot(setup: SlotSetup, events: SlotEvents): Slot {
  const mailbox = setup.mailboxBytes > 0 ? createMailbox(setup.mailboxBytes) : undefined;
  const worker = new Worker(WORKER_URL, {
    resourceLimits: { maxOldGenerationSizeMb: setup.maxHeapMb, maxYoungGenerationSizeMb: 16 },
    workerData: { mailbox: mailbox?.buffer, niceness: setup.niceness } satisfies WorkerSetup,
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
  listen(slot, events, exited);
  return slot;
}

/** Hands what `slot`'s worker says to `events`; `exited` resolves `slot.exited`. */
function listen(slot: Slot, events: SlotEvents, exited: () => void): void {
  const { worker } = slot;
  worker.on("message", (message: WorkerMessage) => {
    if (message.type === "ready") {
      slot.ready = true;
      slot.memoryBytes = message.memoryBytes;
      slot.niceness = message.niceness;
      events.ready(slot);
    } else {
      events.answered(slot, message.id, { ...message, result: withBytes(message.result) as never });
    }
  });
  worker.on("error", (error: Error & { code?: string }) => {
    const outOfMemory = error.code === "ERR_WORKER_OUT_OF_MEMORY";
    events.failed(
      slot,
      outOfMemory ? "too_large" : "internal",
      outOfMemory
        ? "Cannot process image: it needs more memory than the image worker may use"
        : `Cannot process image: internal error (${error.message})`,
    );
  });
  worker.on("exit", () => {
    exited();
    events.exited(slot);
  });
}

/** Takes the running job off `slot`, its deadline timer cleared. */
export function takeJob(slot: Slot): RunningJob | undefined {
  const job = slot.running;
  if (job === undefined) return undefined;
  clearTimeout(job.timer);
  slot.running = undefined;
  return job;
}

/**
 * Terminates `slot`'s worker, and wakes a pool-side wait on its mailbox, which then finds its
 * slot gone.
 */
export function endSlot(slot: Slot): void {
  if (slot.mailbox) Atomics.notify(slot.mailbox.cells, DONE);
  void slot.worker.terminate();
}

/** The refusal of a job that ran past its deadline. */
export function tookTooLong(deadlineMs: number): string {
  return `Cannot process image: it took longer than ${deadlineMs} ms`;
}

/** A worker's result with its `bytes` back in a `Uint8Array`. */
function withBytes(result: unknown): unknown {
  const bytes = (result as { bytes?: unknown } | undefined)?.bytes;
  return bytes instanceof ArrayBuffer
    ? { ...result as object, bytes: new Uint8Array(bytes) }
    : result;
}
