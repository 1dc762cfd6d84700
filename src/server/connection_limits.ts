/**
 * How many client connections the server holds at once and how long a slow or idle one may stay:
 * read from the environment, with a default connection cap derived from the process's open-file
 * limit so that accepting a connection can never run out of descriptors (see
 * `docs/operations.md`, "Connections").
 *
 * @example
 * ```ts
 * import { connectionLimits, describeLimits, readDescriptorLimit } from "./connection_limits.ts";
 * const limits = connectionLimits((name) => Deno.env.get(name), readDescriptorLimit());
 * console.log(describeLimits(limits)); // "Connections: at most 19744 at once (…)"
 * ```
 * @module
 */

/** Default of `LOGO_HEADERS_TIMEOUT_MS`: how long a client has to send a whole request. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Default of `LOGO_IDLE_TIMEOUT_MS`: how long a keep-alive connection may wait for a request. */
export const DEFAULT_IDLE_TIMEOUT_MS = 5_000;
/** Descriptors kept free for everything else the server opens (KV, discovery, the image worker). */
export const RESERVED_DESCRIPTORS = 128;
/** The default cap never exceeds this, whatever the open-file limit (memory bounds it too). */
export const MAX_DEFAULT_CONNECTIONS = 10_000;
/** The default cap never goes below this, even when the open-file limit leaves less room. */
export const MIN_CONNECTIONS = 16;

/** The process's open-file limit and how many descriptors it had open when read. */
export interface DescriptorLimit {
  /** The soft `RLIMIT_NOFILE` (`Max open files`), or `undefined` when it is unknown/unlimited. */
  readonly soft: number | undefined;
  /** Descriptors open when it was read. */
  readonly open: number;
}

/** The connection settings in force. */
export interface ConnectionLimits {
  /** Most client connections held at once (`LOGO_MAX_CONNECTIONS`). */
  readonly maxConnections: number;
  /** A request's head (and body) must arrive within this many ms (`LOGO_HEADERS_TIMEOUT_MS`). */
  readonly headersTimeoutMs: number;
  /** A keep-alive connection with no request for this many ms is closed (`LOGO_IDLE_TIMEOUT_MS`). */
  readonly idleTimeoutMs: number;
  /** The open-file limit the default cap was derived from. */
  readonly descriptors: DescriptorLimit;
}

/**
 * Reads the soft open-file limit from `/proc/self/limits` and counts `/proc/self/fd` (Linux).
 * Deno lets only `--allow-all` read them, so without it the limit comes from `sh -c "ulimit -n"`
 * (`--allow-run`, which `deno task start` has). Elsewhere, or when neither works, the limit is
 * `undefined`.
 */
export function readDescriptorLimit(): DescriptorLimit {
  try {
    const limits = Deno.readTextFileSync("/proc/self/limits");
    const line = limits.split("\n").find((text) => text.startsWith("Max open files"));
    const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
    let open = 0;
    for (const _ of Deno.readDirSync("/proc/self/fd")) open++;
    return { soft: positive(soft), open };
  } catch {
    // Deno lets only --allow-all read /proc/self; `deno task start` has --allow-run instead, and
    // a shell started from here reports the same limit and can count our descriptors.
    return askShell();
  }
}

function positive(text: string | undefined): number | undefined {
  const value = Number(text);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

function askShell(): DescriptorLimit {
  try {
    const { success, stdout } = new Deno.Command("sh", {
      args: ["-c", "ulimit -n; ls /proc/$PPID/fd | wc -l"],
      stdin: "null",
      stderr: "null",
    }).outputSync();
    const [soft, open] = new TextDecoder().decode(stdout).trim().split(/\s+/);
    if (!success) return { soft: undefined, open: 0 };
    return { soft: positive(soft), open: positive(open) ?? 0 };
  } catch {
    return { soft: undefined, open: 0 };
  }
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  const text = value?.trim();
  if (!text) return fallback;
  const number = Number(text);
  if (!Number.isSafeInteger(number) || number < 1 || String(number) !== text) {
    throw new RangeError(`Invalid ${name} "${value}": expected a whole number of at least 1`);
  }
  return number;
}

/** The default cap: what the open-file limit leaves after the reserve, within bounds. */
export function defaultMaxConnections(descriptors: DescriptorLimit): number {
  if (descriptors.soft === undefined) return MAX_DEFAULT_CONNECTIONS;
  const room = descriptors.soft - descriptors.open - RESERVED_DESCRIPTORS;
  return Math.min(MAX_DEFAULT_CONNECTIONS, Math.max(MIN_CONNECTIONS, room));
}

/**
 * The connection settings from `env`: `LOGO_MAX_CONNECTIONS` (default
 * {@link defaultMaxConnections}), `LOGO_HEADERS_TIMEOUT_MS` (default
 * {@link DEFAULT_HEADERS_TIMEOUT_MS}), `LOGO_IDLE_TIMEOUT_MS` (default
 * {@link DEFAULT_IDLE_TIMEOUT_MS}).
 *
 * @throws {RangeError} "Invalid LOGO_… …" for a value that is not a whole number of at least 1.
 */
export function connectionLimits(
  env: (name: string) => string | undefined,
  descriptors: DescriptorLimit,
): ConnectionLimits {
  return {
    maxConnections: positiveInteger(
      "LOGO_MAX_CONNECTIONS",
      env("LOGO_MAX_CONNECTIONS"),
      defaultMaxConnections(descriptors),
    ),
    headersTimeoutMs: positiveInteger(
      "LOGO_HEADERS_TIMEOUT_MS",
      env("LOGO_HEADERS_TIMEOUT_MS"),
      DEFAULT_HEADERS_TIMEOUT_MS,
    ),
    idleTimeoutMs: positiveInteger(
      "LOGO_IDLE_TIMEOUT_MS",
      env("LOGO_IDLE_TIMEOUT_MS"),
      DEFAULT_IDLE_TIMEOUT_MS,
    ),
    descriptors,
  };
}

/** The start-up line saying how many connections the server holds and for how long. */
export function describeLimits(limits: ConnectionLimits): string {
  const { soft } = limits.descriptors;
  const fileLimit = soft === undefined ? "open-file limit unknown" : `open-file limit ${soft}`;
  return `Connections: at most ${limits.maxConnections} at once (${fileLimit}); a request must ` +
    `arrive within ${limits.headersTimeoutMs / 1000} s, an idle keep-alive connection is closed ` +
    `after ${limits.idleTimeoutMs / 1000} s.`;
}
