/**
 * A resolve override like curl's `--connect-to`, read from `LOGO_CONNECT_TO`:
 * `"acme.test:80:127.0.0.1:8081,acme.test:443:127.0.0.1:8443"` sends connections for host
 * `acme.test` on port 80 to 127.0.0.1:8081, and so on. The URL, the `Host` header and TLS server
 * name stay the original host's. Only mapped host/port pairs may reach non-public addresses; for
 * every other connection the address policy applies.
 *
 * @module
 */
import { classifyAddress } from "./address_policy.ts";

/** Where one mapped host:port goes. */
export interface ConnectTarget {
  /** IP address to connect to (IPv6 without brackets). */
  address: string;
  /** 4 or 6. */
  family: 4 | 6;
  /** TCP port to connect to. */
  port: number;
}

/** A parsed `LOGO_CONNECT_TO`: "host:port" → target. */
export type ConnectToMap = ReadonlyMap<string, ConnectTarget>;

/** An empty map: no overrides. */
export const NO_CONNECT_TO: ConnectToMap = new Map();

function parsePort(text: string): number | undefined {
  if (!/^[0-9]{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** Lower-cases a host name the way URL parsing does, so lookups match `URL.hostname`. */
function canonicalHost(host: string): string | undefined {
  try {
    const hostname = new URL(`http://${host}/`).hostname;
    return hostname.length > 0 ? hostname : undefined;
  } catch {
    return undefined;
  }
}

function parseEntry(entry: string): [string, ConnectTarget] {
  const invalid = new Error(
    `Invalid LOGO_CONNECT_TO entry "${entry}": expected host:port:address:port`,
  );
  const first = entry.indexOf(":");
  const second = entry.indexOf(":", first + 1);
  if (first <= 0 || second < 0) throw invalid;
  const host = canonicalHost(entry.slice(0, first));
  const port = parsePort(entry.slice(first + 1, second));
  const rest = entry.slice(second + 1);
  const last = rest.lastIndexOf(":");
  if (host === undefined || port === undefined || last <= 0) throw invalid;
  const verdict = classifyAddress(rest.slice(0, last));
  const targetPort = parsePort(rest.slice(last + 1));
  // A bare IPv6 address would make the fields ambiguous: it must be bracketed.
  const bracketsOk = verdict.family !== 6 || rest.startsWith("[");
  if (verdict.family === 0 || targetPort === undefined || !bracketsOk) throw invalid;
  return [`${host}:${port}`, {
    address: verdict.address,
    family: verdict.family,
    port: targetPort,
  }];
}

/**
 * Parses a `LOGO_CONNECT_TO` value (comma-separated `host:port:address:port` entries; IPv6
 * addresses in brackets). Empty or undefined gives an empty map.
 *
 * @throws {Error} "Invalid LOGO_CONNECT_TO entry …" for a malformed entry.
 * @example
 * ```ts
 * const map = parseConnectTo("acme.test:80:127.0.0.1:8081");
 * connectTarget(map, "acme.test", 80); // { address: "127.0.0.1", family: 4, port: 8081 }
 * ```
 */
export function parseConnectTo(value: string | undefined): ConnectToMap {
  const map = new Map<string, ConnectTarget>();
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const [key, target] = parseEntry(entry);
    map.set(key, target);
  }
  return map;
}

/**
 * The override for `host` (a URL hostname) on `port`, or undefined when it is not mapped.
 *
 * @example
 * ```ts
 * connectTarget(parseConnectTo("a.test:80:127.0.0.1:9"), "a.test", 443); // undefined
 * ```
 */
export function connectTarget(
  map: ConnectToMap,
  host: string,
  port: number,
): ConnectTarget | undefined {
  return map.get(`${host.toLowerCase()}:${port}`);
}
