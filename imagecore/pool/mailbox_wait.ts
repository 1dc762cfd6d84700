/**
 * Waiting for the answers of jobs posted in the workers' shared-memory mailboxes
 * (`worker_mailbox.ts`): each job's `Atomics.waitAsync` until its deadline, and the sweep that
 * backs those waits up ({@link SWEEP_MS}).
 *
 * @example
 * ```ts
 * import { MailboxWaits } from "./mailbox_wait.ts";
 * import type { Slot } from "./slot.ts";
 * const slots = new Set<Slot>();
 * const waits = new MailboxWaits(slots, {
 *   answered: (_, id, answer) => console.log(id, answer.result),
 *   timedOut: (_, job) => job.reject(new Error("late") as never),
 * });
 * waits.stop();
 * ```
 * @module
 */
import { DONE, type MailboxAnswer, readAnswer } from "../worker_mailbox.ts";
import type { RunningJob, Slot } from "./slot.ts";

/**
 * How often the mailbox jobs in flight are checked without waiting for their wake-up: the
 * backstop of `Atomics.waitAsync`, whose promise was seen, rarely, never to settle (neither the
 * worker's notify nor its own timeout), leaving a request unanswered for ever.
 */
export const SWEEP_MS = 50;

/** What becomes of a mailbox job. */
export interface MailboxOutcomes {
  /** The answer to job `id` (minus its mailbox sequence number) of `slot` is in. */
  answered(slot: Slot, id: number, answer: MailboxAnswer): void;
  /** `slot`'s mailbox job `job` ran past its deadline with no answer. */
  timedOut(slot: Slot, job: RunningJob): void;
}

/** The pool's waits on its workers' mailboxes (see the module doc). */
export class MailboxWaits {
  readonly #slots: ReadonlySet<Slot>;
  readonly #outcomes: MailboxOutcomes;
  #sweep: ReturnType<typeof setInterval> | undefined;

  /** Waits on the mailboxes of `slots` (the pool's, as it changes), telling `outcomes`. */
  constructor(slots: ReadonlySet<Slot>, outcomes: MailboxOutcomes) {
    this.#slots = slots;
    this.#outcomes = outcomes;
  }

  /**
   * Waits, until its deadline, for the answer of job `seq`, which `slot.running` holds and which
   * was just posted in `slot`'s mailbox when its `DONE` cell read `before`; the sweep runs while
   * such jobs do.
   */
  wait(slot: Slot, seq: number, before: number, deadlineMs: number): void {
    void this.#await(slot, seq, before, deadlineMs);
    this.#sweep ??= setInterval(() => this.#sweepAll(), SWEEP_MS);
  }

  /** Stops the sweep: the pool is closing. */
  stop(): void {
    if (this.#sweep !== undefined) clearInterval(this.#sweep);
    this.#sweep = undefined;
  }

  async #await(slot: Slot, seq: number, before: number, deadline: number): Promise<void> {
    const wait = Atomics.waitAsync(slot.mailbox!.cells, DONE, before, deadline);
    const outcome = wait.async ? await wait.value : wait.value;
    this.#settle(slot, seq, outcome === "timed-out");
  }

  /**
   * Settles mailbox job `seq` of `slot` when its answer is in; else, when `timedOut`, fails it.
   * Safe to call more than once (the wake-up and the sweep may both come).
   */
  #settle(slot: Slot, seq: number, timedOut: boolean): void {
    const mailbox = slot.mailbox!;
    const job = slot.running;
    if (job?.id !== -seq || !this.#slots.has(slot)) return; // ended already (fail, close)
    if (Atomics.load(mailbox.cells, DONE) !== seq) {
      if (timedOut) this.#outcomes.timedOut(slot, job);
      return;
    }
    const answer = readAnswer(mailbox);
    if (answer.byMessage) return; // the result follows as a message
    this.#outcomes.answered(slot, -seq, answer);
  }

  /** The backstop of the wake-ups (see {@link SWEEP_MS}); stops itself once no job is in flight. */
  #sweepAll(): void {
    const now = performance.now();
    let inFlight = false;
    for (const slot of [...this.#slots]) {
      const job = slot.running;
      if (job?.endsAt === undefined) continue;
      inFlight = true;
      this.#settle(slot, -job.id, now >= job.endsAt);
    }
    if (!inFlight) this.stop();
  }
}
