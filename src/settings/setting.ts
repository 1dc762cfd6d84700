/**
 * What one setting is: the environment variable, what it does, its default, which programs read
 * it and how its value is parsed and checked. The settings themselves are the table of
 * `settings_table.ts`; this is the shape of one row.
 *
 * @module
 */

/**
 * The programs that read settings: `start` is `deno task start` (`src/main.ts`), `serve` the
 * handler alone under `deno serve src/serve.ts` or Deno Deploy, `admin` is `deno task admin`.
 */
export type Program = "start" | "serve" | "admin";

/** Every program, in the order `--help` names them. */
export const PROGRAMS: readonly Program[] = ["start", "serve", "admin"];

/**
 * The environment as settings are read from it: variable name → value, an unset variable absent
 * or `undefined`. `processEnv()` gives the process's; a test passes a plain object.
 */
export type SettingsEnv = Readonly<Record<string, string | undefined>>;

/** One row of the settings table. */
export interface Setting<T = unknown> {
  /** The environment variable. */
  readonly name: string;
  /** What it does, in one sentence (wrapped by `--help`). */
  readonly help: string;
  /** Its default as `--help` shows it. */
  readonly default: string;
  /** The programs that read it. */
  readonly usedBy: readonly Program[];
  /**
   * Parses the value (`undefined` when unset) into what the programs use; `env` is there for the
   * one setting whose meaning depends on another (`LOGO_KV` on Deno Deploy). Absent for a variable
   * Deno itself reads (it is listed in `--help` all the same).
   *
   * @throws {Error} a one-line message naming the variable and what it expects.
   */
  readonly parse?: (value: string | undefined, env: SettingsEnv) => T;
}
