/**
 * wrk pinned to CPUs with `taskset`, reporting, beside wrk's figures, the CPU time wrk itself
 * used: when wrk's core is nearly always busy, the client and not the server set the rate.
 * (wrk's CPU time is read from the `sh` that waited for it: `cutime + cstime` in
 * `/proc/$$/stat`.)
 *
 * @example
 * ```ts
 * import { runPinnedWrk } from "./pinned_wrk.ts";
 * const r = await runPinnedWrk("http://127.0.0.1:8000/", {
 *   seconds: 5, connections: 50, threads: 1, cpus: "1",
 * });
 * console.log(r.requestsPerSecond, r.wrkCpuMs);
 * ```
 * @module
 */
import { parseWrk, type WrkResult } from "./wrk.ts";

/** Options of {@link runPinnedWrk}. */
export interface PinnedWrkOptions {
  /** Seconds to run. */
  seconds: number;
  /** Open connections. */
  connections: number;
  /** wrk threads. */
  threads: number;
  /** `taskset -c` CPU list for wrk. */
  cpus: string;
}

/** What one run measured. */
export interface PinnedWrkResult extends WrkResult {
  /** CPU time wrk used (user + system), ms. */
  wrkCpuMs: number;
  /** Wall time of the run, ms. */
  wallMs: number;
}

// $0 is the CPU list, "$@" wrk's arguments; the last line gives the shell's children's CPU ticks.
const SCRIPT = 'taskset -c "$0" wrk "$@"; status=$?; ' +
  'echo "wrk-cpu-ticks $(cut -d " " -f 16,17 /proc/$$/stat)"; exit $status';

/** Runs wrk on `cpus` against `url`. */
export async function runPinnedWrk(
  url: string,
  options: PinnedWrkOptions,
): Promise<PinnedWrkResult> {
  const args = [
    "-c",
    SCRIPT,
    options.cpus,
    "-t",
    String(options.threads),
    "-c",
    String(options.connections),
    "-d",
    `${options.seconds}s`,
    "--latency",
    "--timeout",
    "10s",
    url,
  ];
  const started = performance.now();
  const output = await new Deno.Command("sh", { args, stdout: "piped", stderr: "piped" }).output();
  const wallMs = performance.now() - started;
  const report = new TextDecoder().decode(output.stdout);
  if (!output.success) {
    throw new Error(`wrk failed: ${new TextDecoder().decode(output.stderr)}\n${report}`);
  }
  const ticks = /^wrk-cpu-ticks (\d+) (\d+)$/m.exec(report);
  const wrkCpuMs = ticks ? (Number(ticks[1]) + Number(ticks[2])) * 10 : NaN; // 100 ticks a second
  return { ...parseWrk(report), wrkCpuMs, wallMs };
}
