/**
 * Reads and checks, once, the settings a program uses (`settings_table.ts`), before it opens or
 * starts anything: the first bad value stops it with that setting's one-line message. The server
 * also refuses the retired settings first (`retired_settings.ts`).
 *
 * @example
 * ```ts
 * import { readSettings } from "./read_settings.ts";
 * const settings = readSettings({ LOGO_KV: ":memory:", LOGO_RENDER_WORKERS: "0" }, "serve");
 * settings.kvLocation; // ":memory:"
 * settings.renderWorkers; // 0
 * ```
 * @module
 */
import { retiredSettingsError } from "./retired_settings.ts";
import type { Program, Setting, SettingsEnv } from "./setting.ts";
import { SETTINGS, type SettingsFor } from "./settings_table.ts";

/** The programs that refuse a retired setting: those that serve. */
const REFUSE_RETIRED: readonly Program[] = ["start", "serve"];

/**
 * The settings `program` reads, parsed from `env`, in the table's order.
 *
 * @throws {Error} the one-line message of the first retired setting set or the first bad value.
 */
export function readSettings<P extends Program>(env: SettingsEnv, program: P): SettingsFor<P> {
  if (REFUSE_RETIRED.includes(program)) {
    const retired = retiredSettingsError(env);
    if (retired) throw retired;
  }
  const table: Readonly<Record<string, Setting>> = SETTINGS;
  const settings: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(table)) {
    if (setting.parse === undefined || !setting.usedBy.includes(program)) continue;
    settings[key] = setting.parse(env[setting.name], env);
  }
  return settings as unknown as SettingsFor<P>;
}
