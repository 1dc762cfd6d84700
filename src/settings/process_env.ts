/**
 * The process's environment as the settings are read from it: the one place in `src/` that reads
 * `Deno.env`, and only the variables the settings table and the retired settings name (so it
 * works with `--allow-env=LIST` too). The entry points call it and pass the record on.
 *
 * @example
 * ```ts
 * import { processEnv } from "./process_env.ts";
 * import { readSettings } from "./read_settings.ts";
 * const settings = readSettings(processEnv(), "serve");
 * ```
 * @module
 */
import { RETIRED_SETTINGS } from "./retired_settings.ts";
import type { Setting, SettingsEnv } from "./setting.ts";
import { SETTINGS } from "./settings_table.ts";

/** The value of every variable a setting names, read now. */
export function processEnv(): SettingsEnv {
  const table: Readonly<Record<string, Setting>> = SETTINGS;
  const names = [
    ...Object.values(table).map((setting) => setting.name),
    ...Object.keys(RETIRED_SETTINGS),
  ];
  return Object.fromEntries(names.map((name) => [name, Deno.env.get(name)]));
}
