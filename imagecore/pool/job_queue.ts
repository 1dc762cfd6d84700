/**
 * The image pool's jobs: queued (at most `maxQueue`, more refused with `busy`), handed to ready
 * workers — in the worker's shared-memory mailbox when the job fits it (`mailbox_wait.ts` waits
 * for the answer), else by message with a deadline timer — and settled by the worker's answer or
 * by a failure (its deadline, the memory watch of `memory_watch.ts`, a worker that died), after
 * which the worker is replaced (`workers.ts`).
 *
 * @example
 * ```ts
 * import { JobQueue } from "./job_queue.ts";
 * import { poolSettings } from "./settings.ts";
 * const jobs = new JobQueue(poolSettings({ size: 1 }));
 * jobs.fill();
 * await jobs.ready();
 * const facts = await jobs.submit({ op: "probe", input: await Deno.readFile("logo.png") });
 * await jobs.close();
 * ```
 * @module
 */
import type { ImagePoolStats, JobOptions } from "../image_pool_types.ts";
import type { TransformOptions } from "../mod.ts";
import { ImageCoreError } from "../refusals.ts";
import { DONE, type MailboxAnswer, postJob } from "../worker_mailbox.ts";
import { MailboxWaits } from "./mailbox_wait.ts";
import { MemoryWatch } from "./memory_watch.ts";
import type { PoolSettings } from "./settings.ts";
import { type Pending, type QueuedJob, type Slot, takeJob, tookTooLong } from "./slot.ts";
import { PoolWorkers } from "./workers.ts";

/** A pool's jobs and the workers that run them (see the module doc). */
export class JobQueue {
  readonly #settings: PoolSettings;
  readonly #queue: Pending[] = [];
  readonly #workers: PoolWorkers;
  readonly #mailboxes: MailboxWaits;
  readonly #memory: MemoryWatch;
  #nextId = 1;
  #closed = false;
  /** Callers of {@link JobQueue.ready} waiting for every worker to be ready... */
  #readyWaiters: (() => void)[] = [];
  /** ...and their rejections, for a worker that cannot even start. */
  #startFailure: ((error: ImageCoreError) => void)[] = [];

  /** A queue with `settings`; no worker starts before {@link fill}. */
  constructor(settings: PoolSettings) {
    this.#settings = settings;
    const answered = (slot: Slot, id: number, answer: MailboxAnswer) => {
      this.#finish(slot, id, answer);
      this.dispatch();
    };
    this.#workers = new PoolWorkers(settings, {
      ready: () => this.#onReady(),
      answered,
      failed: (slot, code, message) => this.#fail(slot, code, message),
      none: (error) => this.#refuseQueued(error),
      retry: () => this.fill(),
    });
    const slots = this.#workers.slots;
    this.#mailboxes = new MailboxWaits(slots, {
      answered,
      timedOut: (slot, job) => this.#fail(slot, "timeout", tookTooLong(job.deadlineMs)),
    });
    this.#memory = new MemoryWatch(settings.maxJobMemoryBytes, settings.rss, slots, {
      tooLarge: (slot, message) => this.#fail(slot, "too_large", message),
    });
  }

  /** Starts workers up to the pool's size (one that cannot start now is tried again later). */
  fill(): void {
    this.#workers.fill();
    this.dispatch();
  }

  /** Resolves once every worker is ready; rejects if one cannot start, or once closed. */
  ready(): Promise<void> {
    if (this.#closed) return Promise.reject(new ImageCoreError("internal", "pool closed"));
    if (this.#workers.allReady()) return Promise.resolve();
    this.fill();
    return new Promise<void>((resolve, reject) => {
      this.#readyWaiters.push(resolve);
      this.#startFailure.push(reject);
    });
  }

  /** Queues `job`; its promise settles with the worker's result or an `ImageCoreError`. */
  submit(job: QueuedJob, options: JobOptions = {}): Promise<unknown> {
    if (this.#closed) {
      return Promise.reject(new ImageCoreError("internal", "Cannot process image: pool closed"));
    }
    const { maxQueue } = this.#settings;
    if (this.#queue.length >= maxQueue) {
      return Promise.reject(
        new ImageCoreError("busy", `Cannot process image: ${maxQueue} images are already waiting`),
      );
    }
    return new Promise((resolve, reject) => {
      const deadlineMs = options.deadlineMs ?? this.#settings.deadlineMs;
      this.#queue.push({ job, deadlineMs, resolve, reject });
      this.dispatch();
    });
  }

  /** Hands waiting jobs to idle ready workers, starting workers for them as needed. */
  dispatch(): void {
    if (this.#closed) return;
    if (this.#queue.length > 0) this.#workers.fill();
    for (const slot of this.#workers.slots) {
      if (!slot.ready || slot.running || this.#queue.length === 0) continue;
      this.#start(slot, this.#queue.shift()!);
    }
    this.#memory.update([...this.#workers.slots].some((s) => s.running));
  }

  /** Counters. */
  stats(): ImagePoolStats {
    const slots = [...this.#workers.slots];
    return {
      started: this.#workers.started,
      queued: this.#queue.length,
      running: slots.filter((s) => s.running).length,
      wasmBytes: slots.map((s) => s.memoryBytes),
      niceness: slots.filter((s) => s.ready).map((s) => s.niceness),
    };
  }

  /** Rejects the waiting and running jobs, ends the workers and waits until they have exited. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#memory.stop();
    this.#mailboxes.stop();
    const error = new ImageCoreError("internal", "Cannot process image: pool closed");
    this.#refuseQueued(error);
    for (const reject of this.#startFailure) reject(error);
    for (const slot of this.#workers.slots) takeJob(slot)?.reject(error);
    await this.#workers.close();
  }

  /** Hands `pending` to `slot`'s worker: in its mailbox when the job fits, else by message. */
  #start(slot: Slot, pending: Pending): void {
    const rssAtStart = this.#memory.atStart();
    const { job, deadlineMs } = pending;
    const seq = slot.seq % 0x7fff_ffff + 1;
    const before = slot.mailbox && Atomics.load(slot.mailbox.cells, DONE);
    // `renditions`' results and the strings of `monogram` and `themeSvg` jobs do not fit the
    // mailbox's cells.
    const mailable = job.signal === undefined && job.op !== "renditions" &&
      job.op !== "monogram" && job.op !== "themeSvg";
    if (
      mailable && slot.mailbox &&
      postJob(slot.mailbox, seq, job.op, job.input, job.options as TransformOptions | undefined)
    ) {
      // Posted in shared memory: no message; the deadline is the wait's own timeout, and the
      // sweep's should that wait never settle.
      slot.seq = seq;
      slot.running = { ...pending, id: -seq, rssAtStart, endsAt: performance.now() + deadlineMs };
      this.#mailboxes.wait(slot, seq, before!, deadlineMs);
      return;
    }
    const id = this.#nextId++;
    const timer = setTimeout(() => {
      this.#fail(slot, "timeout", tookTooLong(deadlineMs));
    }, deadlineMs);
    slot.running = { ...pending, id, timer, rssAtStart };
    // The input's own copy, as a transferred buffer (`ImageJob.input` says why not a view).
    const input = job.input?.slice().buffer;
    slot.worker.postMessage({ ...job, input, id }, input ? [input] : []);
  }

  #onReady(): void {
    if (this.#workers.everyReady()) {
      for (const wake of this.#readyWaiters) wake();
      this.#readyWaiters = [];
      this.#startFailure = [];
    }
    this.dispatch();
  }

  /** Settles job `id` of `slot` with its answer, if it still runs there. */
  #finish(slot: Slot, id: number, answer: MailboxAnswer): void {
    if (slot.running?.id !== id || !this.#workers.slots.has(slot)) return;
    slot.memoryBytes = answer.memoryBytes;
    const job = takeJob(slot)!;
    if (answer.error) job.reject(new ImageCoreError(answer.error.code, answer.error.message));
    else job.resolve(answer.result);
    if (answer.memoryBytes > this.#settings.recycleAboveBytes) this.#workers.replace(slot);
  }

  /** Ends `slot`'s worker, fails its job (or, before ready, the waiting ones) and replaces it. */
  #fail(slot: Slot, code: ImageCoreError["code"], message: string): void {
    if (!this.#workers.slots.has(slot)) return;
    const job = takeJob(slot);
    if (job) {
      job.reject(new ImageCoreError(code, message));
    } else if (!slot.ready) {
      // A worker that cannot even start would fail every job: report it instead of retrying.
      const error = new ImageCoreError("internal", `Cannot start the image worker: ${message}`);
      this.#refuseQueued(error);
      for (const reject of this.#startFailure) reject(error);
      this.#startFailure = [];
      this.#readyWaiters = [];
      this.#workers.end(slot);
      return;
    }
    this.#workers.replace(slot);
    this.dispatch();
  }

  /** Rejects every waiting job with `error`. */
  #refuseQueued(error: ImageCoreError): void {
    for (const pending of this.#queue.splice(0)) pending.reject(error);
  }
}
