/**
 * An HTTP GET that is safe to point at URLs taken from strangers' web pages.
 *
 * Every connection, including each redirect hop, is checked before it is made: only `http:` and
 * `https:`; the host name is resolved here (`Deno.resolveDns`) and every address is classified by
 * the address policy; the connection goes to the checked address itself (the name is never
 * resolved again, so DNS rebinding cannot swap it), while the `Host` header and the TLS server name
 * (certificate checked as usual) stay the URL's. `LOGO_CONNECT_TO` mappings take precedence and
 * are the only way to reach a non-public address. A redirect from `https:` to `http:` is refused
 * (a downgrade: what follows could be read or changed on the way); a fetch that starts at `http:`
 * may go on over http. At most 5 redirects; a byte cap per response
 * enforced while the body streams (before and after gzip/deflate decoding); an overall deadline
 * through an `AbortSignal`.
 *
 * It is built on `node:http`/`node:https`, whose `lookup` option lets the checked address be
 * pinned while TLS still verifies the host name.
 *
 * @module
 */
import http from "node:http";
import https from "node:https";
import { classifyAddress } from "./address_policy.ts";
import { connectTarget, type ConnectToMap, NO_CONNECT_TO } from "./connect_to.ts";

/** Default byte cap per response: 5 MiB. */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
/** Default redirect limit. */
export const DEFAULT_MAX_REDIRECTS = 5;
/** The User-Agent discovery identifies itself with. */
export const USER_AGENT = "LogoLookup-Discovery/0.1 (+https://github.com/logo-lookup)";

/** Why {@link safeFetch} gave up. */
export type SafeFetchErrorCode =
  | "bad_url"
  | "bad_scheme"
  | "blocked_address"
  | "dns"
  | "too_many_redirects"
  | "insecure_redirect"
  | "too_large"
  | "timeout"
  | "bad_encoding"
  | "network";

/** A refusal or failure of {@link safeFetch}; never shown to API clients. */
export class SafeFetchError extends Error {
  /** Machine-readable reason. */
  readonly code: SafeFetchErrorCode;
  /** The URL of the hop that failed. */
  readonly url: string;
  /** Creates an error such as `new SafeFetchError("blocked_address", url, "Refused …")`. */
  constructor(code: SafeFetchErrorCode, url: string, message: string) {
    super(message);
    this.name = "SafeFetchError";
    this.code = code;
    this.url = url;
  }
}

/** Resolves a host name to IP addresses (A and AAAA). */
export type Resolver = (hostname: string, signal?: AbortSignal) => Promise<string[]>;

/** Options of {@link safeFetch}. */
export interface SafeFetchOptions {
  /** Resolve overrides; the only way to reach non-public addresses. */
  connectTo?: ConnectToMap;
  /** Name resolution; default {@link resolveWithDeno}. */
  resolve?: Resolver;
  /** Byte cap for the (decoded) body; default {@link DEFAULT_MAX_BYTES}. */
  maxBytes?: number;
  /** Redirect limit; default {@link DEFAULT_MAX_REDIRECTS}. */
  maxRedirects?: number;
  /** Aborts everything: the overall time budget. */
  signal?: AbortSignal;
  /** `Accept` header. */
  accept?: string;
  /** PEM certificates trusted instead of the default roots (tests, private deployments). */
  caCerts?: string[];
}

/** What {@link safeFetch} returns. */
export interface SafeResponse {
  /** The final URL, after redirects. */
  url: string;
  /** Final status code. */
  status: number;
  /** Final response headers. */
  headers: Headers;
  /** The body (decoded from gzip/deflate); empty unless the status is 2xx. */
  body: Uint8Array;
  /** Every URL requested, in order, the first being the one asked for. */
  hops: string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Resolves A and AAAA records with `Deno.resolveDns`; fails only when both fail.
 *
 * @example
 * ```ts
 * const addresses = await resolveWithDeno("example.com");
 * ```
 */
export async function resolveWithDeno(hostname: string, signal?: AbortSignal): Promise<string[]> {
  const [v4, v6] = await Promise.allSettled([
    Deno.resolveDns(hostname, "A", { signal }),
    Deno.resolveDns(hostname, "AAAA", { signal }),
  ]);
  if (v4.status === "rejected" && v6.status === "rejected") throw v4.reason;
  return [
    ...(v4.status === "fulfilled" ? v4.value : []),
    ...(v6.status === "fulfilled" ? v6.value : []),
  ];
}

interface Pinned {
  address: string;
  family: 4 | 6;
  port: number;
}

function defaultPort(url: URL): number {
  return url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

function bareHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith("[") ? host.slice(1, -1) : host;
}

/** Decides where one hop may connect, or refuses. */
async function pin(url: URL, options: SafeFetchOptions): Promise<Pinned> {
  const href = url.href;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SafeFetchError(
      "bad_scheme",
      href,
      `Refused ${url.protocol} URL: only http and https`,
    );
  }
  const port = defaultPort(url);
  const mapped = connectTarget(options.connectTo ?? NO_CONNECT_TO, url.hostname, port);
  if (mapped) return { address: mapped.address, family: mapped.family, port: mapped.port };
  const literal = classifyAddress(bareHost(url));
  if (literal.family !== 0) {
    if (!literal.allowed) {
      throw new SafeFetchError(
        "blocked_address",
        href,
        `Refused ${literal.address}: ${literal.range} address is not public`,
      );
    }
    return { address: literal.address, family: literal.family, port };
  }
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? resolveWithDeno)(url.hostname, options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw timeoutError(href);
    const detail = error instanceof Error ? error.message : String(error);
    throw new SafeFetchError("dns", href, `Cannot resolve ${url.hostname}: ${detail}`);
  }
  const verdicts = addresses.map(classifyAddress);
  const usable = verdicts.find((verdict) => verdict.allowed);
  if (!usable || usable.family === 0) {
    const seen = verdicts.map((v) => `${v.address} (${v.range})`).join(", ") || "no address";
    throw new SafeFetchError(
      addresses.length === 0 ? "dns" : "blocked_address",
      href,
      `Refused ${url.hostname}: resolves to ${seen}, no public address`,
    );
  }
  return { address: usable.address, family: usable.family, port };
}

function timeoutError(href: string): SafeFetchError {
  return new SafeFetchError("timeout", href, `Gave up on ${href}: time budget exhausted`);
}

interface HopResult {
  status: number;
  headers: Headers;
  body: Uint8Array;
  location?: string;
}

function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

function tooLarge(href: string, maxBytes: number): SafeFetchError {
  return new SafeFetchError("too_large", href, `Refused ${href}: body exceeds ${maxBytes} bytes`);
}

/** One request over a connection to the pinned address. */
function request(url: URL, target: Pinned, options: SafeFetchOptions): Promise<HopResult> {
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
    req.on("error", (error) => finish(networkError(href, error)));
    signal?.addEventListener("abort", onAbort, { once: true });
    req.end();
  });
}

function networkError(href: string, error: unknown): SafeFetchError {
  if (error instanceof SafeFetchError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new SafeFetchError("network", href, `Cannot fetch ${href}: ${detail}`);
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** Undoes gzip/deflate with the byte cap applied to the decoded output too. */
async function decode(
  body: Uint8Array,
  encoding: string | null,
  href: string,
  maxBytes: number,
): Promise<Uint8Array> {
  const name = (encoding ?? "identity").trim().toLowerCase();
  if (name === "identity" || name === "") return body;
  if (name !== "gzip" && name !== "x-gzip" && name !== "deflate") {
    throw new SafeFetchError("bad_encoding", href, `Cannot decode ${href}: ${name} encoding`);
  }
  const format = name === "deflate" ? "deflate" : "gzip";
  const stream = new Blob([body as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new DecompressionStream(format),
  );
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += chunk.length;
      if (total > maxBytes) throw tooLarge(href, maxBytes);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof SafeFetchError) throw error;
    throw new SafeFetchError("bad_encoding", href, `Cannot decode ${href}: corrupt ${name} body`);
  }
  return concat(chunks, total);
}

/**
 * GETs `url` safely (see the module doc): checks and pins every hop, follows at most
 * `maxRedirects` redirects, caps the body at `maxBytes`, and stops when `signal` aborts.
 * A non-2xx final status is returned (with an empty body), not thrown.
 *
 * @throws {SafeFetchError} for every refusal and failure.
 * @example
 * ```ts
 * const res = await safeFetch("https://example.com/", { signal: AbortSignal.timeout(5000) });
 * if (res.status === 200) console.log(res.url, res.body.length);
 * ```
 */
export async function safeFetch(
  url: string | URL,
  options: SafeFetchOptions = {},
): Promise<SafeResponse> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new SafeFetchError("bad_url", String(url), `Cannot fetch "${url}": not a URL`);
  }
  const hops: string[] = [];
  for (let redirects = 0;; redirects++) {
    current.hash = "";
    hops.push(current.href);
    const target = await pin(current, options);
    const result = await request(current, target, options);
    if (!REDIRECTS.has(result.status) || result.location === undefined) {
      return {
        url: current.href,
        status: result.status,
        headers: result.headers,
        body: result.body,
        hops,
      };
    }
    if (redirects >= maxRedirects) {
      throw new SafeFetchError(
        "too_many_redirects",
        current.href,
        `Gave up on ${hops[0]}: more than ${maxRedirects} redirects`,
      );
    }
    let next: URL;
    try {
      next = new URL(result.location, current);
    } catch {
      throw new SafeFetchError(
        "bad_url",
        current.href,
        `Cannot follow redirect from ${current.href}: bad Location`,
      );
    }
    if (current.protocol === "https:" && next.protocol === "http:") {
      next.search = "";
      next.hash = "";
      throw new SafeFetchError(
        "insecure_redirect",
        current.href,
        `Refused redirect from ${current.href} to ${next.href}: https must not downgrade to http`,
      );
    }
    current = next;
  }
}
