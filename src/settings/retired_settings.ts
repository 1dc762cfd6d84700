/**
 * Settings that earlier versions read and this one does not: the process supervisor and the
 * `node:http` connection layer gave way to `Deno.serve` (docs/operate/scaling.md, docs/operate/deploy.md). A
 * setting that silently did nothing would leave an operator believing in a protection or a
 * process count they do not have, so the service refuses to start and says what replaces it
 * (`readSettings` checks them first, for `deno task start` and `deno serve`).
 *
 * @example
 * ```ts
 * import { retiredSettingsError } from "./retired_settings.ts";
 * retiredSettingsError({ LOGO_PROCESSES: "4" })?.message;
 * // "LOGO_PROCESSES is no longer read: run one instance per core … (docs/operate/scaling.md)."
 * ```
 * @module
 */
import type { SettingsEnv } from "./setting.ts";

/** Each retired setting and what to do instead. */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  LOGO_PROCESSES: "run one instance per core, each on its own PORT, behind the nginx recipe, " +
    "started by systemd (logo-lookup@.service) or as container replicas (docs/operate/scaling.md)",
  LOGO_MAX_CONNECTIONS:
    "cap connections per client in the reverse proxy (docs/operate/deploy/nginx.conf)",
  LOGO_HEADERS_TIMEOUT_MS: "set client_header_timeout in the reverse proxy " +
    "(docs/operate/deploy/nginx.conf)",
  LOGO_IDLE_TIMEOUT_MS:
    "set keepalive_timeout in the reverse proxy (docs/operate/deploy/nginx.conf)",
};

/** The start-up error for the first retired setting that is set, or `undefined` when none is. */
export function retiredSettingsError(env: SettingsEnv): Error | undefined {
  for (const [name, instead] of Object.entries(RETIRED_SETTINGS)) {
    if (env[name]?.trim()) return new Error(`${name} is no longer read: ${instead}.`);
  }
  return undefined;
}
