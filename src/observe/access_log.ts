/**
 * The access log: one line per answered request on stdout, as JSON or logfmt, for all requests
 * or a random sample of them. Settings (read by `main.ts`, listed in its USAGE):
 *
 * - `LOGO_ACCESS_LOG`: `off` (default), `json` or `logfmt`;
 * - `LOGO_ACCESS_LOG_SAMPLE`: the share of requests logged, above 0 and at most 1 (default 1).
 *
 * A line carries the time the request arrived, method, path (never the query string), status,
 * body bytes sent, duration in ms (until the answer's headers were ready), the key id (never a
 * token), the served domain, and the render outcome (see {@link RenderOutcome}). Absent values
 * are `null` in JSON and empty in logfmt. Token-shaped text in the method, path or domain is
 * removed however it is written — percent-encoded, double-encoded, split by escapes
 * (`redactSecrets`, `src/safe_log.ts`).
 *
 * @example
 * ```ts
 * import { createAccessLog, parseAccessLogSettings } from "./access_log.ts";
 * const settings = parseAccessLogSettings("logfmt", "0.5");
 * const write = createAccessLog(settings, { write: (line) => console.log(line) });
 * write?.({
 *   time: Date.now(), method: "GET", path: "/example.com", status: 200, bytes: 1234,
 *   durationMs: 1.25, keyId: "key_1", domain: "example.com", outcome: "cache",
 * });
 * ```
 * @module
 */
import { redactSecrets } from "../safe_log.ts";

/**
 * How the answer's body came about: `stored` (a stored rendition sent as is), `rendered`
 * (imagecore ran for this answer, or one identical in flight), `cache` (from the rendered-variant
 * cache), `not_modified` (a 304, nothing rendered), `none` (no image: an error, a probe, metrics).
 */
export type RenderOutcome = "stored" | "rendered" | "cache" | "not_modified" | "none";

/** One request as the access log sees it. */
export interface AccessEntry {
  /** When the request arrived, epoch ms. */
  time: number;
  /** The HTTP method. */
  method: string;
  /** The path, without the query string. */
  path: string;
  /** The status answered. */
  status: number;
  /** Body bytes sent (0 for `HEAD` and 304). */
  bytes: number;
  /** ms from arrival to the answer's headers. */
  durationMs: number;
  /** The id of the key that authenticated, if any (never a token). */
  keyId: string | undefined;
  /** The domain whose logo was served, if any. */
  domain: string | undefined;
  /** How the body came about. */
  outcome: RenderOutcome;
}

/** The line formats. */
export type AccessLogFormat = "json" | "logfmt";

/** Access-log settings; `format` undefined means off. */
export interface AccessLogSettings {
  /** The line format, or undefined when the log is off. */
  format: AccessLogFormat | undefined;
  /** Share of requests logged, in (0, 1]. */
  sample: number;
}

/**
 * Reads `LOGO_ACCESS_LOG`: the line format, or undefined when the log is off (unset, `off`).
 *
 * @throws {Error} "Invalid LOGO_ACCESS_LOG …" for anything but off, json or logfmt.
 */
export function parseAccessLogFormat(value: string | undefined): AccessLogFormat | undefined {
  const name = (value ?? "").trim().toLowerCase();
  if (name === "json" || name === "logfmt") return name;
  if (name !== "" && name !== "off") {
    throw new Error(`Invalid LOGO_ACCESS_LOG "${value}": expected off, json or logfmt`);
  }
  return undefined;
}

/**
 * Reads `LOGO_ACCESS_LOG_SAMPLE`: the share of requests logged, default 1.
 *
 * @throws {Error} "Invalid LOGO_ACCESS_LOG_SAMPLE …" unless above 0 and at most 1.
 */
export function parseAccessLogSample(value: string | undefined): number {
  const text = (value ?? "").trim();
  const share = text === "" ? 1 : Number(text);
  if (!Number.isFinite(share) || share <= 0 || share > 1) {
    throw new Error(
      `Invalid LOGO_ACCESS_LOG_SAMPLE "${value}": expected a number above 0 and at most 1`,
    );
  }
  return share;
}

/**
 * Reads `LOGO_ACCESS_LOG` and `LOGO_ACCESS_LOG_SAMPLE`.
 *
 * @throws {Error} "Invalid LOGO_ACCESS_LOG …" or "Invalid LOGO_ACCESS_LOG_SAMPLE …".
 */
export function parseAccessLogSettings(
  format: string | undefined,
  sample: string | undefined,
): AccessLogSettings {
  return { format: parseAccessLogFormat(format), sample: parseAccessLogSample(sample) };
}

/** Options of {@link createAccessLog}. */
export interface AccessLogOptions {
  /** Where a line goes; default `console.log` (stdout). */
  write?: (line: string) => void;
  /** A number in [0, 1) per request, for sampling; default `Math.random`. */
  random?: () => number;
}

/** Writes one entry's line (if sampled). */
export type AccessLog = (entry: AccessEntry) => void;

/** The access log for `settings`, or `undefined` when it is off. */
export function createAccessLog(
  settings: AccessLogSettings,
  options: AccessLogOptions = {},
): AccessLog | undefined {
  const { format, sample } = settings;
  if (format === undefined) return undefined;
  const write = options.write ?? console.log;
  const random = options.random ?? Math.random;
  const line = format === "json" ? jsonLine : logfmtLine;
  return (entry) => {
    if (sample < 1 && random() >= sample) return;
    write(line(entry));
  };
}

function fields(entry: AccessEntry): [string, string | number | null][] {
  return [
    ["time", new Date(entry.time).toISOString()],
    // A client chooses the method too (`sk_… /x HTTP/1.1` is answered 405).
    ["method", redactSecrets(entry.method)],
    ["path", redactSecrets(entry.path)],
    ["status", entry.status],
    ["bytes", entry.bytes],
    ["duration_ms", Math.round(entry.durationMs * 100) / 100],
    ["key", entry.keyId ?? null],
    ["domain", entry.domain === undefined ? null : redactSecrets(entry.domain)],
    ["outcome", entry.outcome],
  ];
}

/** The entry as one JSON object. */
export function jsonLine(entry: AccessEntry): string {
  return JSON.stringify(Object.fromEntries(fields(entry)));
}

/** A logfmt value: bare when it can be, else quoted with `\` escapes; `null` is empty. */
function logfmtValue(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  return isBare(text) ? text : JSON.stringify(text);
}

/** Whether `text` is non-empty with no space, control character, quote, `=` or backslash. */
function isBare(text: string): boolean {
  if (text === "") return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x22 || code === 0x3d || code === 0x5c || code === 0x7f) {
      return false;
    }
  }
  return true;
}

/** The entry as one logfmt line (`key=value` pairs). */
export function logfmtLine(entry: AccessEntry): string {
  return fields(entry).map(([name, value]) => `${name}=${logfmtValue(value)}`).join(" ");
}
