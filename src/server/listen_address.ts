/**
 * Where `deno task start` listens: `PORT`, `LOGO_REUSE_PORT`, and `LOGO_HOSTNAME`, an IP address of
 * this machine — `127.0.0.1` (or `::1`) behind a reverse proxy on the same box, so nothing reaches
 * the service around the proxy; `0.0.0.0` (the default, every IPv4 address) or `::` otherwise.
 * Named `LOGO_HOSTNAME` rather than `HOST`/`HOSTNAME`, which shells set to the machine's name.
 *
 * @example
 * ```ts
 * import { parseHostname, urlHost } from "./listen_address.ts";
 * parseHostname(undefined); // "0.0.0.0"
 * parseHostname("127.0.0.1"); // "127.0.0.1"
 * urlHost("::1"); // "[::1]"
 * ```
 * @module
 */
import { isIP } from "node:net";

/** Default port when `PORT` is unset. */
export const DEFAULT_PORT = 8000;

/**
 * Reads the port from `PORT`.
 *
 * @throws {RangeError} "Invalid PORT …" unless it is a whole number from 0 to 65535.
 */
export function parsePort(value: string | undefined): number {
  const text = value?.trim();
  if (!text) return DEFAULT_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535 || String(port) !== text) {
    throw new RangeError(`Invalid PORT "${value}": expected a whole number from 0 to 65535`);
  }
  return port;
}

/** Whether `LOGO_REUSE_PORT` asks to share the port with other processes (`on`/`off`). */
export function parseReusePort(value: string | undefined): boolean {
  const text = value?.trim().toLowerCase();
  if (!text || text === "off") return false;
  if (text === "on") return true;
  throw new RangeError(`Invalid LOGO_REUSE_PORT "${value}": expected on or off`);
}

/** The address listened on when `LOGO_HOSTNAME` is unset: every IPv4 address. */
export const DEFAULT_HOSTNAME = "0.0.0.0";

/**
 * Reads the listen address from `LOGO_HOSTNAME`'s value.
 *
 * @throws {RangeError} "Invalid LOGO_HOSTNAME …" unless it is an IPv4 or IPv6 address.
 */
export function parseHostname(value: string | undefined): string {
  const text = value?.trim();
  if (!text) return DEFAULT_HOSTNAME;
  if (isIP(text) === 0) {
    throw new RangeError(
      `Invalid LOGO_HOSTNAME "${value}": expected an IP address to listen on, such as ` +
        "127.0.0.1 (this machine only), 0.0.0.0 (every IPv4 address) or ::",
    );
  }
  return text;
}

/**
 * The host part of a URL to reach `hostname`: a wildcard address becomes `localhost`, an IPv6
 * address gets its brackets.
 */
export function urlHost(hostname: string): string {
  if (hostname === "0.0.0.0" || hostname === "::") return "localhost";
  return isIP(hostname) === 6 ? `[${hostname}]` : hostname;
}

/**
 * The start-up error of a `LOGO_HOSTNAME` that is not an address of this machine (`Deno.serve`
 * failed with `AddrNotAvailable`), or `undefined` for any other listen error.
 */
export function hostnameError(hostname: string, error: unknown): Error | undefined {
  if (!(error instanceof Deno.errors.AddrNotAvailable)) return undefined;
  return new Error(
    `Cannot listen on LOGO_HOSTNAME=${hostname}: not an address of this machine. Set ` +
      "LOGO_HOSTNAME to one of its addresses, or to 0.0.0.0.",
  );
}
