/**
 * The `LOGO_DISCOVERY` setting, apart from discovery itself, so that the server checks it at
 * start-up without loading discovery's modules (they load once the server listens).
 *
 * @example
 * ```ts
 * import { discoveryEnabled } from "./discovery_setting.ts";
 * discoveryEnabled("off"); // false
 * ```
 * @module
 */

/**
 * Reads `LOGO_DISCOVERY`.
 *
 * @throws {Error} "Invalid LOGO_DISCOVERY …" for anything but on/off (and empty).
 */
export function discoveryEnabled(value: string | undefined): boolean {
  const text = (value ?? "").trim().toLowerCase();
  if (text === "" || text === "on") return true;
  if (text === "off") return false;
  throw new Error(`Invalid LOGO_DISCOVERY "${value}": expected on or off`);
}
