/**
 * The per-job memory watch. A worker's JS heap is capped by `resourceLimits`, but its WASM linear
 * memory lies outside that heap: while a job runs, the process RSS is sampled every
 * {@link WATCH_MS} ms, and a job under which it has grown more than the cap since the job started
 * is reported, for the pool to end its worker (`too_large`).
 *
 * @example
 * ```ts
 * import { MemoryWatch } from "./memory_watch.ts";
 * import type { Slot } from "./slot.ts";
 * const slots = new Set<Slot>();
 * const watch = new MemoryWatch(256 * 1024 * 1024, () => Deno.memoryUsage().rss, slots, {
 *   tooLarge: (_, message) => console.error(message),
 * });
 * watch.update(true); // a job runs
 * watch.update(false); // none does
 * ```
 * @module
 */
import type { Slot } from "./slot.ts";

const MIB = 1024 * 1024;
/** How often the process RSS is sampled while a job runs. */
export const WATCH_MS = 5;

/** What the watch reports. */
export interface MemoryWatchEvents {
  /** `slot`'s job grew the process RSS past the cap; `message` says by how much it may. */
  tooLarge(slot: Slot, message: string): void;
}

/** The memory watch of a pool's jobs (see the module doc). */
export class MemoryWatch {
  readonly #maxJobMemory: number;
  readonly #rss: () => number;
  readonly #slots: ReadonlySet<Slot>;
  readonly #events: MemoryWatchEvents;
  #timer: ReturnType<typeof setInterval> | undefined;

  /**
   * Watches the jobs of `slots` (the pool's, as it changes) against `maxJobMemory` bytes of RSS
   * growth (`Infinity`: no watch), reading the RSS with `rss`.
   */
  constructor(
    maxJobMemory: number,
    rss: () => number,
    slots: ReadonlySet<Slot>,
    events: MemoryWatchEvents,
  ) {
    this.#maxJobMemory = maxJobMemory;
    this.#rss = rss;
    this.#slots = slots;
    this.#events = events;
  }

  /** The RSS a job starting now is measured from. */
  atStart(): number {
    // Without a memory cap there is nothing to compare against: no RSS read (a system call).
    return Number.isFinite(this.#maxJobMemory) ? this.#rss() : 0;
  }

  /** Runs the watch while `busy` (some job runs) and there is a cap; stops it once idle. */
  update(busy: boolean): void {
    if (busy && this.#timer === undefined && Number.isFinite(this.#maxJobMemory)) {
      this.#timer = setInterval(() => this.#check(), WATCH_MS);
    } else if (!busy && this.#timer !== undefined) {
      this.stop();
    }
  }

  /** Stops the watch. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #check(): void {
    const now = this.#rss();
    for (const slot of this.#slots) {
      if (slot.running && now - slot.running.rssAtStart > this.#maxJobMemory) {
        const limit = Math.round(this.#maxJobMemory / MIB);
        this.#events.tooLarge(
          slot,
          `Cannot decode image: it needs more than ${limit} MiB of memory`,
        );
      }
    }
  }
}
