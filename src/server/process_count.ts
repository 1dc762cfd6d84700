/**
 * How many server processes `deno task start` runs on its port: the `LOGO_PROCESSES` setting, and
 * the variable by which the supervisor (`src/server/processes.ts`) tells a process it started that
 * it is one of several.
 *
 * @example
 * ```ts
 * import { parseProcessCount } from "./process_count.ts";
 * parseProcessCount(undefined, 8); // 1: one process, no supervisor
 * parseProcessCount("auto", 8); // 8: one per core
 * parseProcessCount("3", 8); // 3
 * ```
 * @module
 */

/** Most processes `LOGO_PROCESSES` may ask for. */
export const MAX_PROCESSES = 64;

/**
 * Set by the supervisor in the environment of each process it starts (its index, 1…N): the process
 * then shares its port (`SO_REUSEPORT`), reports when it listens, and stops when the supervisor
 * goes away. Not a setting.
 */
export const PROCESS_INDEX_VARIABLE = "LOGO_PROCESS_INDEX";

/**
 * Reads `LOGO_PROCESSES`: unset or empty is 1 (one process, no supervisor); `auto` is `cores`
 * (at least 1, at most {@link MAX_PROCESSES}); else a whole number from 1 to {@link MAX_PROCESSES}.
 *
 * @throws {RangeError} "Invalid LOGO_PROCESSES …" for anything else.
 */
export function parseProcessCount(value: string | undefined, cores: number): number {
  const text = value?.trim();
  if (!text) return 1;
  if (text === "auto") {
    return Math.min(MAX_PROCESSES, Math.max(1, Number.isSafeInteger(cores) ? cores : 1));
  }
  const count = Number(text);
  if (
    !Number.isSafeInteger(count) || count < 1 || count > MAX_PROCESSES || String(count) !== text
  ) {
    throw new RangeError(
      `Invalid LOGO_PROCESSES "${value}": expected auto (one per core) or a whole number ` +
        `from 1 to ${MAX_PROCESSES}`,
    );
  }
  return count;
}

/**
 * This process's index among the supervisor's processes (1…N), or `undefined` when it was not
 * started by the supervisor.
 */
export function supervisedIndex(env: (name: string) => string | undefined): number | undefined {
  const text = env(PROCESS_INDEX_VARIABLE);
  if (text === undefined) return undefined;
  const index = Number(text);
  return Number.isSafeInteger(index) && index >= 1 ? index : undefined;
}
