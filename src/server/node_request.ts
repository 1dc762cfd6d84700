/**
 * The bridge between `node:http`'s request/response objects and the app's `Request → Response`
 * handler (used by `src/server/serve_connections.ts`). Node parses HTTP; this file only translates, and
 * refuses with a bare `400` the requests `Deno.serve` refused before its handler ran (so the
 * documented answers of `test/fixtures/malformed_requests/` hold where Node allows it):
 * a version other than HTTP/1.0 or 1.1, more than {@link MAX_REQUEST_HEADERS} header lines,
 * two `Host` lines, a target that is neither origin-form nor absolute-form.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { refusal, toRequest, writeResponse } from "./node_request.ts";
 * createServer(async (incoming, outgoing) => {
 *   if (refusal(incoming) !== undefined) return void outgoing.writeHead(400).end();
 *   await writeResponse(new Response("ok"), toRequest(incoming).method, outgoing);
 * });
 * ```
 * @module
 */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";

/** Most header lines in a request (as `Deno.serve`, whose hyper parser stops at 100). */
export const MAX_REQUEST_HEADERS = 100;

/** Why `Deno.serve` would have refused `incoming` with a bare 400, or `undefined`. */
export function refusal(incoming: IncomingMessage): string | undefined {
  if (incoming.httpVersion !== "1.1" && incoming.httpVersion !== "1.0") return "version";
  if (incoming.rawHeaders.length / 2 > MAX_REQUEST_HEADERS) return "too many headers";
  let hosts = 0;
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
    if (incoming.rawHeaders[i].toLowerCase() === "host") hosts++;
  }
  if (hosts > 1) return "two Host lines";
  const target = incoming.url ?? "";
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
  const asterisk = target === "*" && incoming.method === "OPTIONS";
  const authority = incoming.method === "CONNECT" && target !== "" && !target.startsWith("/");
  if (!target.startsWith("/") && !absolute && !asterisk && !authority) return "target";
  return undefined;
}

/**
 * The request as `Deno.serve` builds it: its URL is `http://` + the `Host` header as sent + the
 * target, or an absolute-form target as sent — unparsed: the app validates both itself
 * (`src/http/request_target.ts`). Request bodies are not passed on: no endpoint of this service takes
 * one (Node discards an unread body).
 */
export function toRequest(incoming: IncomingMessage): Request {
  const target = incoming.url ?? "/";
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(target)
    ? target
    : `http://${incoming.headers.host ?? ""}${target}`;
  const method = incoming.method ?? "GET";
  let request: Request;
  try {
    request = new Request("http://localhost/", { method });
  } catch {
    // A method `Request` refuses (CONNECT, TRACE, TRACK): the app answers it 405 all the same.
    request = new Request("http://localhost/");
    Object.defineProperty(request, "method", { value: method });
  }
  // Appended to the request's own headers: a `Headers` passed in `RequestInit` is copied again
  // through WebIDL's conversion (8.4 against 2.6 µs for five headers, Deno 2.9.6;
  // bench/request_bridge_bench.ts), and that copy was about a quarter of a cache hit's garbage.
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) request.headers.append(raw[i], raw[i + 1]);
  // `new Request` would normalise (or refuse) the URL; the app reads it raw, as from Deno.serve.
  Object.defineProperty(request, "url", { value: url });
  return request;
}

/**
 * The response's headers as Node's flat raw list `[name, value, name, value…]`, a `set-cookie`
 * once per cookie. Read with `forEach`: in Deno 2.9.6 iterating a `Headers` with `for…of` costs
 * about 12× as much (measured: 34.6 against 2.8 µs for 11 headers; bench/README.md).
 */
function rawHeaders(response: Response): string[] {
  const raw: string[] = [];
  response.headers.forEach((value, name) => raw.push(name, value));
  return raw;
}

/** Sends `response` on `outgoing`; no body for `HEAD` (its `Content-Length` is kept). */
export async function writeResponse(
  response: Response,
  method: string,
  outgoing: ServerResponse,
): Promise<void> {
  outgoing.statusCode = response.status;
  // forEach, not for…of (see rawHeaders); it gives each name once but set-cookie per cookie.
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") outgoing.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing.setHeader("set-cookie", cookies);
  if (method === "HEAD") {
    await response.body?.cancel();
    outgoing.end();
    return;
  }
  // Every answer of this service is an image or a short text held in memory. Read with `bytes()`
  // without touching `body`, whose getter would first wrap the bytes in a stream (3.3 against
  // 8.3 µs for 8 KB, Deno 2.9.6; bench/request_bridge_bench.ts). An empty body ends the response
  // as a missing one does.
  const bytes = await response.bytes();
  outgoing.end(bytes.length > 0 ? bytes : undefined);
}

/** `response` as HTTP/1.1 bytes with `Connection: close`, for a socket Node hands over raw. */
export async function serializeResponse(response: Response): Promise<Uint8Array> {
  const body = new Uint8Array(await response.arrayBuffer());
  const reason = response.statusText || STATUS_CODES[response.status] || "";
  let head = `HTTP/1.1 ${response.status} ${reason}\r\n`;
  const headers = rawHeaders(response);
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i];
    if (name === "content-length" || name === "connection") continue; // set below
    head += `${name}: ${headers[i + 1]}\r\n`;
  }
  head += `content-length: ${body.length}\r\nconnection: close\r\n\r\n`;
  const headBytes = new TextEncoder().encode(head);
  const bytes = new Uint8Array(headBytes.length + body.length);
  bytes.set(headBytes);
  bytes.set(body, headBytes.length);
  return bytes;
}
