/**
 * Runs the real admin CLI (`src/admin/main.ts`, as `deno task admin` does) for a benchmark and
 * measures it: wall-clock time and the CPU time of the whole child process (every thread,
 * imagecore's worker included), read as the growth of this process's reaped-children CPU time
 * (`cutime` + `cstime` of `/proc/self/stat`) across the run.
 *
 * @example
 * ```ts
 * import { runAdmin } from "./admin_run.ts";
 * const run = await runAdmin(["key", "list"], { LOGO_KV: "/tmp/store.kv" });
 * console.log(run.code, run.wallMs, run.cpuMs, run.stdout);
 * ```
 * @module
 */
import { lines } from "../../test/support/lines.ts";

const ADMIN = new URL("../../src/admin/main.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/** CPU time of this process's waited-for children so far, in ms; NaN without /proc. */
export function childrenCpuMs(): number {
  try {
    const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10; // cutime, cstime: ticks of 10 ms
  } catch {
    return NaN;
  }
}

/** What one admin run did. */
export interface AdminRun {
  /** Exit status. */
  code: number;
  /** Everything printed on stdout (the JSON result). */
  stdout: string;
  /** The last lines printed on stderr (messages and progress). */
  stderrTail: string[];
  /** Wall-clock time, ms, from spawn to exit (module loading included: about a second). */
  wallMs: number;
  /** CPU time of the child, ms (10-ms resolution). */
  cpuMs: number;
}

/** Options of {@link runAdmin}. */
export interface RunAdminOptions {
  /** Called with each stderr line (the import prints one per logo when not on a terminal). */
  onStderr?: (line: string) => void;
}

/**
 * Runs `deno run -A src/admin/main.ts ...args` with `env` added to this process's environment.
 * Nothing else of this process's children may exit meanwhile, or its CPU time is counted too.
 */
export async function runAdmin(
  args: string[],
  env: Record<string, string>,
  options: RunAdminOptions = {},
): Promise<AdminRun> {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, ADMIN, ...args],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderrTail: string[] = [];
  const [stdout] = await Promise.all([
    new Response(child.stdout).text(),
    (async () => {
      for await (const line of lines(child.stderr)) {
        stderrTail.push(line);
        if (stderrTail.length > 20) stderrTail.shift();
        options.onStderr?.(line);
      }
    })(),
  ]);
  const { code } = await child.status;
  return {
    code,
    stdout,
    stderrTail,
    wallMs: performance.now() - started,
    cpuMs: childrenCpuMs() - cpuBefore,
  };
}
