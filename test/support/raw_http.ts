/**
 * One raw HTTP/1.1 exchange over a real TCP socket: the request is sent byte for byte as given
 * (odd `Host` headers, absolute-form targets, malformed lines — things `fetch` refuses to send),
 * and the answer is read back as a status, headers and body, or reported as a closed connection.
 *
 * Hand-written on purpose: no maintained client sends malformed requests verbatim. The response
 * side reads only what `Deno.serve` sends: a status line, headers, then a body delimited by
 * `Content-Length`, chunked encoding or the end of the connection.
 *
 * @example
 * ```ts
 * import { rawExchange } from "./raw_http.ts";
 * const result = await rawExchange(8000, "GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n");
 * if (result.kind === "response") console.log(result.status, result.text);
 * ```
 * @module
 */
import { latin1 } from "./latin1.ts";

/** An answer read completely. */
export interface RawResponse {
  readonly kind: "response";
  /** The status code of the final (non-1xx) answer. */
  readonly status: number;
  /** Its headers. */
  readonly headers: Headers;
  /** Its body. */
  readonly body: Uint8Array;
  /** The body as UTF-8. */
  readonly text: string;
}

/** The connection ended (closed or reset) before a complete answer was read. */
export interface RawClosed {
  readonly kind: "closed";
  /** What was read before it ended, as Latin-1 text. */
  readonly received: string;
  /** The error that ended it, when it was not a clean close. */
  readonly error?: string;
}

/** What one raw exchange gave. */
export type RawResult = RawResponse | RawClosed;

/** Options of {@link rawExchange}. */
export interface RawExchangeOptions {
  /** Host to connect to; default `127.0.0.1`. */
  hostname?: string;
  /** Fail when no complete answer or close came within this many ms; default 15000. */
  timeoutMs?: number;
  /** Told of the connection once it is made, before anything is sent (e.g. its local port). */
  onConnect?: (conn: Deno.TcpConn) => void;
}

const HEAD_END = [13, 10, 13, 10];

function indexOfSequence(bytes: Uint8Array, sequence: number[], from = 0): number {
  outer: for (let i = from; i <= bytes.length - sequence.length; i++) {
    for (let j = 0; j < sequence.length; j++) if (bytes[i + j] !== sequence[j]) continue outer;
    return i;
  }
  return -1;
}

/** Decodes a chunked body, or returns `undefined` while its last chunk has not arrived. */
function dechunk(bytes: Uint8Array): Uint8Array | undefined {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = indexOfSequence(bytes, [13, 10], at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(latin1(bytes.subarray(at, lineEnd)).split(";")[0], 16);
    if (Number.isNaN(size)) throw new Error("Malformed chunked body in the answer");
    const start = lineEnd + 2;
    if (size === 0) {
      const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
      let offset = 0;
      for (const part of parts) joined.set(part, (offset += part.length) - part.length);
      return joined;
    }
    if (bytes.length < start + size + 2) return undefined;
    parts.push(bytes.subarray(start, start + size));
    at = start + size + 2;
  }
}

/**
 * Parses `bytes` as a response to a request (`head`: to a `HEAD`). Returns it once complete;
 * `undefined` while more bytes are needed (`ended`: no more will come).
 */
function parseResponse(bytes: Uint8Array, head: boolean, ended: boolean): RawResponse | undefined {
  let offset = 0;
  for (;;) {
    const end = indexOfSequence(bytes, HEAD_END, offset);
    if (end < 0) return undefined;
    const lines = latin1(bytes.subarray(offset, end)).split("\r\n");
    const match = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0]);
    if (match === null) throw new Error(`Not an HTTP/1.1 status line: ${JSON.stringify(lines[0])}`);
    const status = Number(match[1]);
    const headers = new Headers();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    const bodyStart = end + 4;
    if (status >= 100 && status < 200) {
      offset = bodyStart; // an interim answer: the final one follows
      continue;
    }
    const rest = bytes.subarray(bodyStart);
    let body: Uint8Array | undefined;
    if (head || status === 204 || status === 304) body = new Uint8Array();
    else if (headers.get("transfer-encoding")?.toLowerCase() === "chunked") body = dechunk(rest);
    else if (headers.has("content-length")) {
      const length = Number(headers.get("content-length"));
      body = rest.length >= length ? rest.slice(0, length) : undefined;
    } else body = ended ? rest.slice() : undefined;
    if (body === undefined) return undefined;
    return { kind: "response", status, headers, body, text: new TextDecoder().decode(body) };
  }
}

/**
 * Sends `request` (a string is sent as UTF-8) to `port` and reads one answer. Resolves with the
 * answer, or with `closed` when the server ended the connection without a complete one.
 *
 * @throws {Error} when nothing conclusive arrived within `timeoutMs`.
 */
export async function rawExchange(
  port: number,
  request: string | Uint8Array,
  options: RawExchangeOptions = {},
): Promise<RawResult> {
  const bytes = typeof request === "string" ? new TextEncoder().encode(request) : request;
  const head = latin1(bytes.subarray(0, 5)) === "HEAD ";
  const conn = await Deno.connect({ hostname: options.hostname ?? "127.0.0.1", port });
  options.onConnect?.(conn);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    conn.close();
  }, options.timeoutMs ?? 15_000);
  let received = new Uint8Array();
  let ended: string | undefined;
  try {
    // The server may answer and close before reading everything (a huge request): keep reading.
    await conn.write(bytes).catch((error) => {
      ended = String(error);
    });
    const buffer = new Uint8Array(64 * 1024);
    for (;;) {
      let n: number | null;
      try {
        n = await conn.read(buffer);
      } catch (error) {
        if (timedOut) throw new Error(`No answer within ${options.timeoutMs ?? 15_000} ms`);
        ended = String(error);
        break;
      }
      if (n === null) break;
      const grown = new Uint8Array(received.length + n);
      grown.set(received);
      grown.set(buffer.subarray(0, n), received.length);
      received = grown;
      const response = parseResponse(received, head, false);
      if (response !== undefined) return response;
    }
    return parseResponse(received, head, true) ??
      { kind: "closed", received: latin1(received), ...(ended ? { error: ended } : {}) };
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // already closed
    }
  }
}
