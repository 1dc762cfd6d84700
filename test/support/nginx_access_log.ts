/**
 * The access logs the nginx defences tests read (`nginx_defences_*_test.ts`): nginx's, in the
 * test's own format ({@link ACCESS_LOG}), and the service's (one JSON line per request its handler
 * answers), and what each says about one client connection.
 */
import assert from "node:assert/strict";
import type { MainProcess } from "./main_process.ts";
import type { NginxCache } from "./nginx_cache.ts";
import { rawExchange } from "./raw_http.ts";

/**
 * The test's own access log, on nginx's stderr (`NginxCache.printed`), one JSON line a request
 * after `ACCESS `: the client's port (which exchange), nginx's status, `$upstream_status` (empty
 * when nginx answered itself; one status per attempt), the answer's `Access-Control-Allow-Origin`
 * (which the service's handler always sets, and its HTTP server's own 400 does not), the cache's
 * verdict, and the request.
 */
export const ACCESS_LOG = `
log_format defences escape=json 'ACCESS {"port":$remote_port,"status":$status,'
  '"upstream":"$upstream_status","cors":"$upstream_http_access_control_allow_origin",'
  '"cache":"$upstream_cache_status","method":"$request_method","uri":"$request_uri",'
  '"host":"$host"}';
access_log /dev/stderr defences;
`;

/** One line of {@link ACCESS_LOG}. */
export interface NginxLine {
  readonly port: number;
  readonly status: number;
  readonly upstream: string;
  readonly cors: string;
  readonly cache: string;
  readonly method: string;
  readonly uri: string;
  readonly host: string;
}

/** The statuses the service gave, one per attempt nginx made (`502, 200`: two). */
export function attempts(line: NginxLine): number[] {
  return line.upstream.split(/[,:]\s*/).filter((status) => status.trim() !== "").map(Number);
}

/** Whether nginx passed the request on and the service's HTTP server refused it (no CORS). */
export function refusedByServer(line: NginxLine): boolean {
  return attempts(line).length > 0 && line.cors === "";
}

/** The statuses of the attempts the service's handler answered (and so logged). */
export function handled(line: NginxLine): number[] {
  return refusedByServer(line) ? [] : attempts(line);
}

/** One line of the service's access log (`src/observe/access_log.ts`). */
export interface ServiceLine {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

/** Markers sent so far: each is a new path. */
let marks = 0;

/**
 * The service's access-log lines from index `from` on, once all of them are read: a request
 * straight to the service (not through nginx) marks the end. Its handler logs each answer before
 * sending it, and every request nginx passed on was answered before the marker was sent. A line
 * that is not the access log's is returned as it is, to fail the caller's checks.
 */
export async function serviceLines(
  service: MainProcess,
  from: number,
): Promise<(ServiceLine | string)[]> {
  const mark = `/__mark__/${++marks}`;
  const answer = await rawExchange(
    service.port,
    `GET ${mark} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
  );
  assert.equal(answer.kind, "response", "the service answers the marker");
  const line = await service.line(new RegExp(`"path":"${mark}"`), from);
  return service.printed.slice(from, service.printed.indexOf(line, from)).map((text) => {
    try {
      const { method, path, status } = JSON.parse(text);
      return { method, path, status };
    } catch {
      return text;
    }
  });
}

/** The lines of {@link ACCESS_LOG} in `proxy.printed[from, to)`. */
export function accessLines(proxy: NginxCache, from: number, to: number): NginxLine[] {
  return proxy.printed.slice(from, to).filter((text) => text.startsWith("ACCESS "))
    .map((text) => JSON.parse(text.slice("ACCESS ".length)));
}

/**
 * Sends nginx a request it refuses itself (HTTP/1.1 without `Host`: a 400, never passed on) and
 * resolves once its access-log line is read, with that line's index in `proxy.printed`: every
 * request nginx ended before, its connection closed, is logged above it (one worker, in order).
 */
export async function nginxMark(proxy: NginxCache, from: number): Promise<number> {
  const mark = `/__mark__/${++marks}`;
  await rawExchange(proxy.port, `GET ${mark} HTTP/1.1\r\nConnection: close\r\n\r\n`);
  const line = await proxy.line(new RegExp(`^ACCESS .*"uri":"${mark}"`), from);
  return proxy.printed.indexOf(line, from);
}

/**
 * nginx's lines for the connection from client port `port` among `lines` (one exchange's window
 * of the log), and a problem when the window holds another connection's line.
 */
export function ownLines(lines: NginxLine[], port: number): { own: NginxLine[]; stray?: string } {
  const own = lines.filter((line) => line.port === port);
  const other = lines.find((line) => line.port !== port);
  return other === undefined ? { own } : { own, stray: `nginx logged ${JSON.stringify(other)}` };
}

/**
 * The 5xx nginx may answer itself, to a protocol it does not speak, never sent on to the service:
 * `505 HTTP Version Not Supported` to a request line of HTTP/2 or later (RFC 9110 §15.6.6), and
 * `501 Not Implemented` to a `Transfer-Encoding` other than `chunked` alone (RFC 9112 §6.1: a
 * server SHOULD). Any other 5xx (a 502 or 504 above all: the service failed) is a failure.
 */
export function nginxMayRefuse(status: number, request: string): boolean {
  if (status === 505) return /^[^\r\n]* HTTP\/[2-9]/.test(request);
  if (status === 501) return /\ntransfer-encoding *:/i.test(request);
  return false;
}

/** What is wrong with nginx's lines for one connection: a 5xx, or a refusal not the server's. */
export function fiveHundreds(lines: NginxLine[], request: string): string | undefined {
  for (const line of lines) {
    const passed = attempts(line);
    if (passed.some((status) => status >= 500)) return `the service answered ${passed}`;
    if (line.status >= 500 && !(passed.length === 0 && nginxMayRefuse(line.status, request))) {
      return `nginx answered ${line.status} (upstream: ${line.upstream || "none"})`;
    }
    // Deno.serve's own refusal is an empty 400 (malformed_requests_test.ts).
    if (refusedByServer(line) && passed.join() !== "400") {
      return `the service answered ${passed} without its handler's CORS headers`;
    }
  }
  return undefined;
}

/** What is wrong with what the service logged, given nginx's lines; or `undefined`. */
export function loggedProblem(
  lines: NginxLine[],
  service: (ServiceLine | string)[],
): string | undefined {
  const passed = lines.flatMap(handled);
  const logged = service.map((item) => typeof item === "string" ? item : item.status);
  if (JSON.stringify(logged) === JSON.stringify(passed)) return undefined;
  return `nginx passed ${passed.length} to the handler (${passed}), the service logged ${
    JSON.stringify(logged)
  }`;
}
