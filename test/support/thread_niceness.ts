/**
 * The nice value of each thread of a process, from Linux's `/proc/PID/task/TID/stat` (field 19),
 * with the thread's name: what the tests of the image workers' priority read.
 *
 * @example
 * ```ts
 * import { threadNiceness } from "./thread_niceness.ts";
 * const threads = threadNiceness(Deno.pid); // [{ tid, name: "worker-1", nice: 10 }, …]
 * ```
 * @module
 */

/** One thread of a process. */
export interface ThreadNiceness {
  /** Thread id. */
  tid: number;
  /** Its name (`comm`): `worker-N` for a `node:worker_threads` worker. */
  name: string;
  /** Its nice value. */
  nice: number;
}

/** Every thread of `pid` and its nice value; threads that end meanwhile are left out. */
export function threadNiceness(pid: number): ThreadNiceness[] {
  const threads: ThreadNiceness[] = [];
  for (const entry of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/task/${entry.name}/stat`);
      // After "pid (comm) ", the fields from the 3rd on; the nice value is the 19th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      threads.push({ tid: Number(entry.name), name, nice: Number(fields[19 - 3]) });
    } catch { /* the thread ended meanwhile */ }
  }
  return threads;
}
