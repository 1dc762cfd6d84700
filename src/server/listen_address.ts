/**
 * The address `deno task start` listens on: `LOGO_HOSTNAME`, an IP address of this machine —
 * `127.0.0.1` (or `::1`) behind a reverse proxy on the same box, so nothing reaches the service
 * around the proxy; `0.0.0.0` (the default, every IPv4 address) or `::` otherwise. Named
 * `LOGO_HOSTNAME` rather than `HOST`/`HOSTNAME`, which shells set to the machine's name.
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
