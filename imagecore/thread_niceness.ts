/**
 * Lowers the scheduling priority of the calling thread, so that a CPU-bound image worker yields
 * to the threads that answer requests. On Linux the nice value is a property of each thread
 * (`setpriority(PRIO_PROCESS, tid, …)` changes that one thread), and Node's `os.setPriority`,
 * which Deno implements, is that call; the thread's id comes from `/proc/thread-self`.
 *
 * Best effort: where there is no `/proc/thread-self` (not Linux), or reading it or setting the
 * priority is not permitted, nothing changes and the thread runs at its process's priority. It
 * only ever lowers a priority: a thread already at `niceness` or below (a process started with
 * `nice -n 15`) keeps its own, since raising it back needs privileges.
 *
 * @example
 * ```ts
 * import { lowerThreadPriority } from "./thread_niceness.ts";
 * const applied = lowerThreadPriority(10); // 10 on Linux (or more), null where it cannot be set
 * ```
 * @module
 */
import os from "node:os";

/** The highest nice value, the lowest priority (Linux and POSIX). */
export const MAX_NICENESS = 19;

/**
 * `niceness`, checked: a whole number from 0 to {@link MAX_NICENESS}.
 *
 * @throws {RangeError} otherwise.
 */
export function checkNiceness(niceness: number): number {
  if (!Number.isInteger(niceness) || niceness < 0 || niceness > MAX_NICENESS) {
    throw new RangeError(
      `Invalid thread niceness ${niceness}: expected a whole number from 0 to ${MAX_NICENESS}`,
    );
  }
  return niceness;
}

/**
 * Sets the calling thread's nice value to `niceness` (0 to {@link MAX_NICENESS}) unless it is
 * already that high, and returns the value the thread then has, or `null` when it could not be
 * read or set. For 0 it touches nothing (no `/proc` read, no permission asked) and returns `null`.
 *
 * @throws {RangeError} when `niceness` is not a whole number from 0 to {@link MAX_NICENESS}.
 */
export function lowerThreadPriority(niceness: number): number | null {
  if (checkNiceness(niceness) === 0) return null;
  try {
    const tid = Number(Deno.readLinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
    if (niceness > os.getPriority(tid)) os.setPriority(tid, niceness);
    return os.getPriority(tid);
  } catch {
    return null;
  }
}
