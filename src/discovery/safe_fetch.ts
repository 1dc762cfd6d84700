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
 * pinned while TLS still verifies the host name. The steps live beside it: `pin_address.ts`
 * (where a hop may connect), `fetch_hop.ts` (one request), `decode_body.ts` (gzip/deflate) and
 * `safe_fetch_error.ts` (how it gives up).
 *
 * @module
 */
import { DEFAULT_MAX_BYTES, fetchHop, USER_AGENT } from "./fetch_hop.ts";
import type { ConnectToMap } from "./connect_to.ts";
import { pin, type Resolver, resolveWithDeno } from "./pin_address.ts";
import { SafeFetchError, type SafeFetchErrorCode } from "./safe_fetch_error.ts";

export {
  DEFAULT_MAX_BYTES,
  type Resolver,
  resolveWithDeno,
  SafeFetchError,
  type SafeFetchErrorCode,
  USER_AGENT,
};

/** Default redirect limit. */
export const DEFAULT_MAX_REDIRECTS = 5;

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
    const result = await fetchHop(current, target, options);
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
