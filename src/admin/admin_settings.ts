/**
 * The admin CLI's settings: those of the table (`src/settings/settings_table.ts`) it reads — the
 * store (`LOGO_KV`) and discovery's network (`LOGO_CONNECT_TO`, `LOGO_DNS_SERVER`, `DENO_CERT`) —
 * read and checked once when a command is about to run. A bad value is a usage error naming it
 * (exit status 2, nothing written), as the discover commands have always reported it.
 *
 * @example
 * ```ts
 * import { readAdminSettings } from "./admin_settings.ts";
 * const settings = readAdminSettings({ LOGO_KV: ":memory:" });
 * settings.kvLocation; // ":memory:"
 * ```
 * @module
 */
import { readSettings } from "../settings/read_settings.ts";
import type { SettingsEnv } from "../settings/setting.ts";
import type { AdminSettings } from "../settings/settings_table.ts";
import { UsageError } from "./usage.ts";

export type { AdminSettings };

/**
 * The admin CLI's settings from `env`.
 *
 * @throws {UsageError} naming the first bad value (e.g. `LOGO_CONNECT_TO`, `DENO_CERT`).
 */
export function readAdminSettings(env: SettingsEnv): AdminSettings {
  try {
    return readSettings(env, "admin");
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
