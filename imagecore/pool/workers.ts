/**
 * The image pool's workers: started up to the pool's size, each only when `canStartWorker` allows
 * it in the same synchronous turn (else tried again {@link START_RETRY_MS} ms later), replaced when
 * one is ended, and all ended on close.
 *
 * @example
 * ```ts
 * import { PoolWorkers } from "./workers.ts";
 * const workers = new PoolWorkers(
 *   { size: 1, maxHeapMb: 512, mailboxBytes: 0, niceness: 0, canStartWorker: () => true },
 *   { ready() {}, answered() {}, failed() {}, none() {}, retry() {} },
 * );
 * workers.fill();
 * await workers.close();
 * ```
 * @module
 */
import { ImageCoreError } from "../refusals.ts";
import { endSlot, type Slot, type SlotEvents, type SlotSetup, startSlot } from "./slot.ts";

/** How soon a worker that could not be created (see `canStartWorker`) is tried again. */
export const START_RETRY_MS = 250;

/** How many workers, and whether one may be created now. */
export interface WorkersSetup extends SlotSetup {
  /** Workers the pool keeps. */
  size: number;
  /** Asked in the same synchronous turn before each worker is created (`ImagePoolOptions`). */
  canStartWorker: () => boolean;
}

/** What the workers tell the pool: their slots' events, and two of their own. */
export interface WorkersEvents extends Omit<SlotEvents, "exited"> {
  /** A worker could not start and the pool has none: the waiting jobs are refused with `error`. */
  none(error: ImageCoreError): void;
  /** The deferred start is due: fill the pool again. */
  retry(): void;
}

/** The pool's workers (see the module doc). */
export class PoolWorkers {
  /** The pool's slots; a slot leaves when its worker is ended. */
  readonly slots: ReadonlySet<Slot>;
  /** Workers started so far, replacements included. */
  started = 0;
  readonly #slots = new Set<Slot>();
  /** Slots whose thread has not exited yet, the pool's and the ended ones. */
  readonly #living = new Set<Slot>();
  readonly #setup: WorkersSetup;
  readonly #events: WorkersEvents;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /** Workers made as `setup` says, telling `events`; none starts before {@link fill}. */
  constructor(setup: WorkersSetup, events: WorkersEvents) {
    this.slots = this.#slots;
    this.#setup = setup;
    this.#events = events;
  }

  /** Starts a worker, or, when `canStartWorker` says no, tries again later and returns false. */
  start(): boolean {
    if (!this.#setup.canStartWorker()) {
      this.#deferStart();
      return false;
    }
    this.started++;
    const events = this.#events;
    const slot = startSlot(this.#setup, {
      ready: (slot) => events.ready(slot),
      answered: (slot, id, answer) => events.answered(slot, id, answer),
      failed: (slot, code, message) => events.failed(slot, code, message),
      exited: (slot) => {
        this.#living.delete(slot);
        if (this.#slots.has(slot)) {
          events.failed(slot, "internal", "Cannot process image: the image worker exited");
        }
      },
    });
    this.#living.add(slot);
    this.#slots.add(slot);
    return true;
  }

  /** Starts workers up to the pool's size (one that cannot start now is tried again later). */
  fill(): void {
    while (this.#slots.size < this.#setup.size) if (!this.start()) break;
  }

  /** Whether the pool has all its workers and each has loaded imagecore. */
  allReady(): boolean {
    return this.#slots.size === this.#setup.size && this.everyReady();
  }

  /** Whether every worker the pool has now has loaded imagecore. */
  everyReady(): boolean {
    return [...this.#slots].every((s) => s.ready);
  }

  /** Takes `slot` out of the pool and ends its worker. */
  end(slot: Slot): void {
    this.#slots.delete(slot);
    endSlot(slot);
  }

  /** Ends `slot`'s worker and starts another in its place (unless the pool is closed). */
  replace(slot: Slot): void {
    this.end(slot);
    if (!this.#closed) this.start();
  }

  /** Ends every worker and resolves once each thread has exited; none starts afterwards. */
  close(): Promise<void> {
    this.#closed = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    for (const slot of [...this.#slots]) this.end(slot);
    return Promise.all([...this.#living].map((slot) => slot.exited)).then(() => {});
  }

  /**
   * Schedules the next attempt to fill the pool. With no worker at all, the waiting jobs could only
   * wait for descriptors to come back: they are refused now (`none`), as a full queue does.
   */
  #deferStart(): void {
    if (this.#slots.size === 0) {
      this.#events.none(
        new ImageCoreError(
          "busy",
          "Cannot process image: no image worker can start now (no file descriptors to spare)",
        ),
      );
    }
    this.#retry ??= setTimeout(() => {
      this.#retry = undefined;
      if (!this.#closed) this.#events.retry();
    }, START_RETRY_MS);
  }
}
