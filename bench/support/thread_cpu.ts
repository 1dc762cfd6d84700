/**
 * CPU time of a process's threads, by role, from Linux's `/proc/PID/task/TID/schedstat` (time on
 * a CPU, in ns, per thread): the benchmarks' way to say where a request's CPU went on a machine
 * shared with the load generator, where requests/s alone says little.
 *
 * @example
 * ```ts
 * import { threadCpu, cpuSince } from "./thread_cpu.ts";
 * const before = threadCpu(Deno.pid);
 * // … work …
 * console.log(cpuSince(Deno.pid, before)); // { serving: …, workers: …, v8: …, other: … } in µs
 * ```
 * @module
 */

/** CPU time by role, in µs. */
export interface RoleCpu {
  /** The main thread: in the server, the serving isolate. */
  serving: number;
  /** `node:worker_threads` workers (named `worker-N`): the render pool. */
  workers: number;
  /** V8's platform threads (`V8 DefaultWorker`): concurrent GC and compilation. */
  v8: number;
  /** Every other thread (tokio, the inspector, …). */
  other: number;
}

/** Each thread's CPU time so far, in ns, keyed by thread id and name; empty without /proc. */
export function threadCpu(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  try {
    for (const entry of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        const dir = `/proc/${pid}/task/${entry.name}`;
        const ns = Number(Deno.readTextFileSync(`${dir}/schedstat`).split(" ")[0]);
        const name = entry.name === String(pid)
          ? "serving"
          : Deno.readTextFileSync(`${dir}/comm`).trim();
        threads.set(`${entry.name} ${name}`, ns);
      } catch { /* the thread ended meanwhile */ }
    }
  } catch { /* no /proc */ }
  return threads;
}

function role(name: string): keyof RoleCpu {
  if (name === "serving") return "serving";
  if (/^worker-\d+$/.test(name)) return "workers";
  if (name.startsWith("V8 ")) return "v8";
  return "other";
}

/** CPU time by role used since `before` (a {@link threadCpu} reading), in µs. */
export function cpuSince(pid: number, before: Map<string, number>): RoleCpu {
  const used: RoleCpu = { serving: 0, workers: 0, v8: 0, other: 0 };
  for (const [key, ns] of threadCpu(pid)) {
    const name = key.slice(key.indexOf(" ") + 1);
    used[role(name)] += (ns - (before.get(key) ?? 0)) / 1000;
  }
  return used;
}
