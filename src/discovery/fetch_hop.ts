/**
 * One request of a safe fetch: a GET over `node:http`/`node:https` to the pinned address (whose
 * `lookup` option lets the checked address be pinned while TLS still verifies the host name),
 * one request per connection, the byte cap enforced while the body streams, and the signal
 * aborting it. An `https:` request that fails after the server accepted the connection and before
 * the TLS handshake completed fails with code `tls` ({@link isTlsHandshakeFailure}).
 *
 * @module
 */
import http from "node:http";
import https from "node:https";
import tls from "node:tls";
import { classifyAddress } from "./address_policy.ts";
import { concat, decode } from "./decode_body.ts";
import { bareHost, type Pinned } from "./pin_address.ts";
import { networkError, timeoutError, tlsError, tooLarge } from "./safe_fetch_error.ts";

/** Default byte cap per response: 5 MiB. */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
/** The User-Agent discovery identifies itself with. */
export const USER_AGENT = "LogoLookup-Discovery/0.1 (+https://github.com/logo-lookup)";

/** What {@link fetchHop} needs of the fetch's options. */
export interface HopOptions {
  /** Byte cap for the (decoded) body; default {@link DEFAULT_MAX_BYTES}. */
  maxBytes?: number;
  /** Aborts the request: the overall time budget. */
  signal?: AbortSignal;
  /** `Accept` header. */
  accept?: string;
  /**
   * PEM certificates trusted instead of the default roots (tests; {@link trustedRoots} for the
   * default roots and more).
   */
  caCerts?: string[];
}

/** The answer to one hop. */
export interface HopResult {
  status: number;
  headers: Headers;
  body: Uint8Array;
  location?: string;
}

/**
 * Whether `error`, raised by an `https:` request whose connection was accepted (`connected`) and
 * whose TLS handshake did not complete (`secured` false), is the handshake's failure — a
 * certificate refused (untrusted, for another name, expired), a TLS alert, no TLS spoken — rather
 * than the connection's: a system error (`ECONNRESET`, `EPIPE`, `ETIMEDOUT` …: the peer closed or
 * the network dropped it) is a connection failure, like a refused one.
 *
 * @example
 * ```ts
 * const untrusted = Object.assign(new Error("unable to verify the first certificate"), {
 *   code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
 * });
 * isTlsHandshakeFailure(untrusted, true, false); // true
 * isTlsHandshakeFailure(Object.assign(new Error("reset"), { code: "ECONNRESET" }), true, false); // false
 * ```
 */
export function isTlsHandshakeFailure(error: unknown, connected: boolean, secured: boolean) {
  if (!connected || secured) return false;
  const code = (error as { code?: unknown } | null)?.code;
  return !(typeof code === "string" && /^E[A-Z0-9]+$/.test(code));
}

/**
 * The roots to trust as {@link HopOptions.caCerts} so that `extra` (a private CA's, from
 * `DENO_CERT`: `extra_ca.ts`) is trusted besides the default roots: `node:https` trusts only the
 * certificates given once any are, so the default ones come too.
 *
 * @example
 * ```ts
 * const caCerts = trustedRoots([Deno.readTextFileSync("/etc/logo-lookup/ca.pem")]);
 * ```
 */
export function trustedRoots(extra: readonly string[]): string[] {
  return [...tls.getCACertificates("default"), ...extra];
}

function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/**
 * One request over a connection to the pinned address. A non-2xx answer comes back with an empty
 * body (and its `Location`, if any).
 *
 * @example
 * ```ts
 * import { pin } from "./pin_address.ts";
 *
 * const url = new URL("https://example.com/");
 * const hop = await fetchHop(url, await pin(url, {}), {});
 * console.log(hop.status, hop.body.length);
 * ```
 */
export function fetchHop(url: URL, target: Pinned, options: HopOptions): Promise<HopResult> {
  const href = url.href;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const signal = options.signal;
  return new Promise<HopResult>((resolve, reject) => {
    if (signal?.aborted) return reject(timeoutError(href));
    let settled = false;
    const finish = (error: Error | undefined, result?: HopResult) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      // One request per connection: whatever the outcome, the socket is done with (an endless
      // body of an error page or redirect is not drained).
      req.destroy();
      if (error) reject(error);
      else resolve(result!);
    };
    const onAbort = () => finish(timeoutError(href));
    const hostname = bareHost(url);
    const lookup = (
      _name: string,
      opts: { all?: boolean } | number | undefined,
      callback: (...args: unknown[]) => void,
    ) => {
      const all = typeof opts === "object" && opts?.all === true;
      if (all) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    const requestOptions: https.RequestOptions = {
      host: hostname,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: "GET",
      agent: false,
      lookup: lookup as never,
      headers: {
        host: url.host,
        "user-agent": USER_AGENT,
        accept: options.accept ?? "*/*",
        "accept-encoding": "gzip, deflate",
        connection: "close",
      },
    };
    if (url.protocol === "https:" && classifyAddress(hostname).family === 0) {
      requestOptions.servername = hostname;
    }
    if (options.caCerts !== undefined) requestOptions.ca = options.caCerts;
    const module = url.protocol === "https:" ? https : http;
    const req = module.request(requestOptions, (res) => {
      const status = res.statusCode ?? 0;
      const headers = toHeaders(res.headers);
      const location = headers.get("location") ?? undefined;
      if (status < 200 || status >= 300) {
        return finish(undefined, { status, headers, body: new Uint8Array(0), location });
      }
      const declared = Number(headers.get("content-length") ?? "NaN");
      if (Number.isFinite(declared) && declared > maxBytes) return finish(tooLarge(href, maxBytes));
      const chunks: Uint8Array[] = [];
      let total = 0;
      res.on("data", (chunk: Uint8Array) => {
        total += chunk.length;
        if (total > maxBytes) return finish(tooLarge(href, maxBytes));
        chunks.push(chunk);
      });
      res.on("end", () => {
        decode(concat(chunks, total), headers.get("content-encoding"), href, maxBytes).then(
          (body) => finish(undefined, { status, headers, body, location }),
          (error) => finish(error),
        );
      });
      res.on("error", (error) => finish(networkError(href, error)));
      res.on("aborted", () => finish(networkError(href, new Error("connection closed early"))));
    });
    // Whether the server accepted the connection, and whether TLS then completed: an error in
    // between is the handshake's (a certificate refused …), not a missing server's.
    let connected = false;
    let secured = false;
    if (url.protocol === "https:") {
      req.on("socket", (socket) => {
        socket.once("connect", () => connected = true);
        socket.once("secureConnect", () => secured = true);
      });
    }
    req.on("error", (error) => {
      finish(
        isTlsHandshakeFailure(error, connected, secured)
          ? tlsError(href, error)
          : networkError(href, error),
      );
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    req.end();
  });
}
