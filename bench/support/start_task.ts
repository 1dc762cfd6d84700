/**
 * What the benchmarks need to know of the real server's processes: the V8 flags and environment
 * of `deno task start`, and the CPU time a process has used. One copy for every benchmark.
 *
 * @module
 */

/** The words of deno.json's `start` task. */
async function startTaskWords(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  const start: string = config.tasks?.start ?? "";
  return start.split(/\s+/);
}

/**
 * The V8 flags `deno task start` passes (`DENO_V8_FLAGS=…` or `--v8-flags=…` in deno.json's
 * `start` task), so the benchmark's server runs with the same heap settings as the real one.
 */
export async function startTaskV8Flags(): Promise<string[]> {
  const prefix = /^(DENO_V8_FLAGS=|--v8-flags=)/;
  return (await startTaskWords()).filter((word) => prefix.test(word))
    .flatMap((word) => word.replace(prefix, "").split(","))
    .filter((flag) => flag !== "");
}

/**
 * The environment `deno task start` sets before `deno run` (its leading `NAME=value` words, other
 * than `DENO_V8_FLAGS`, which {@link startTaskV8Flags} reads), e.g. `{ MALLOC_ARENA_MAX: "2" }`,
 * so the benchmark's server runs with the same allocator settings as the real one.
 */
export async function startTaskEnv(): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const word of await startTaskWords()) {
    const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (assignment === null) break;
    if (assignment[1] !== "DENO_V8_FLAGS") env[assignment[1]] = assignment[2];
  }
  return env;
}

/** CPU time (user + system) a process has used so far, in ms; NaN where /proc is missing. */
export function cpuMs(pid: number): number {
  try {
    const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return NaN;
  }
}
