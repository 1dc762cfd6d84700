/**
 * Where a request's domain and options come from: the request target alone (RFC 9112 §3.2), never
 * the `Host` header — and the `Host` header's own check (a malformed one is a 400).
 *
 * `Deno.serve` builds `request.url` by plain concatenation: `http://` + the `Host` header as sent +
 * the target for an origin-form target (`GET /example.com?size=64`), or the absolute-form target
 * as sent (`GET http://host/example.com`). So a `Host` of `h/example.org?token=…` would move the
 * path and query, and one of `a b` makes `new URL(request.url)` throw. Here the `Host` header is
 * validated first (it then holds no `/`, `?`, `#`, `@`, `\` or whitespace), and the target is
 * everything from the first `/` or `?` after the authority; an absolute-form target's scheme and
 * authority are ignored (RFC 9112 §3.2.2 lets the origin server use them instead of `Host`; this
 * service serves the same content whatever the host).
 *
 * @example
 * ```ts
 * import { createHostCheck, requestTarget } from "./request_target.ts";
 * const checkHost = createHostCheck();
 * checkHost("logos.example.com:8000"); // fine
 * checkHost(null);                     // fine: HTTP/1.0, HTTP/2 and fetch() send none
 * // checkHost("exa mple.com")        // throws HttpError 400 "Invalid Host header"
 * requestTarget("http://logos.example.com/example.com?size=64"); // "/example.com?size=64"
 * requestTarget("http://logos.example.com?size=64");             // "/?size=64"
 * ```
 * @module
 */
import { HttpError } from "../http_error.ts";

/** The 400 for a malformed `Host` header. */
export function invalidHost(): HttpError {
  return new HttpError(400, "Invalid Host header");
}

/** The 400 for a request target that is neither origin-form nor absolute-form. */
export function invalidTarget(): HttpError {
  return new HttpError(400, "Invalid request target");
}

/** Longest `Host` header accepted, in characters: a 253-character name, `:` and a port. */
export const MAX_HOST_LENGTH = 260;

/** Valid `Host` values {@link createHostCheck} remembers (a deployment sees a handful). */
const REMEMBERED_HOSTS = 64;

/**
 * Whether `code` may appear in a `Host` header (RFC 3986 `reg-name`, `IP-literal` and `port`):
 * letters, digits, `-._~`, `%`, the sub-delims `!$&'()*+,;=`, `:`, `[` and `]`. Excluded are
 * everything that would end or change an authority in a URL (`/ ? # @ \`), whitespace, controls,
 * and every non-ASCII byte.
 */
function isHostCharacter(code: number): boolean {
  if (code >= 97 && code <= 122) return true; // a-z
  if (code >= 65 && code <= 93) return code !== 92; // A-Z [ ] — not \
  if (code >= 48 && code <= 59) return true; // 0-9 : ;
  switch (code) {
    case 33: // !
    case 36: // $
    case 37: // %
    case 38: // &
    case 39: // '
    case 40: // (
    case 41: // )
    case 42: // *
    case 43: // +
    case 44: // ,
    case 45: // -
    case 46: // .
    case 61: // =
    case 95: // _
    case 126: // ~
      return true;
    default:
      return false;
  }
}

/**
 * Whether `host` is a valid `Host` header value: empty (RFC 9112 §3.2: sent when the target URI
 * has no authority), or `uri-host [":" port]` made of {@link isHostCharacter} characters that the
 * WHATWG URL host parser (built into Deno) accepts as a host: a domain without forbidden code
 * points or broken percent-encoding, an IPv4 address, or a bracketed IPv6 literal; a port of at
 * most 65535.
 *
 * @example
 * ```ts
 * import { isValidHost } from "./request_target.ts";
 * isValidHost("[::1]:8000"); // true
 * isValidHost("x:99999");    // false
 * ```
 */
export function isValidHost(host: string): boolean {
  if (host.length === 0) return true;
  if (host.length > MAX_HOST_LENGTH) return false;
  for (let i = 0; i < host.length; i++) {
    if (!isHostCharacter(host.charCodeAt(i))) return false;
  }
  try {
    const url = new URL(`http://${host}/`);
    return url.hostname !== "" && url.username === "" && url.pathname === "/";
  } catch {
    return false;
  }
}

/**
 * Creates the `Host` check that runs first on every request. It throws `HttpError` 400
 * `Invalid Host header` unless the header is absent or {@link isValidHost}. An absent header is
 * accepted: RFC 9112 asks for a 400 when an HTTP/1.1 request has none, but `Deno.serve` does not
 * tell a handler the protocol version, and HTTP/1.0 and HTTP/2 requests rightly send none; the
 * domain never comes from `Host` anyway. (Duplicate `Host` lines are refused by Deno's HTTP server
 * with a 400 before any handler runs.) The last valid values are remembered, so the check costs
 * a set lookup.
 */
export function createHostCheck(): (host: string | null) => void {
  const valid = new Set<string>();
  return function checkHost(host: string | null): void {
    if (host === null || valid.has(host)) return;
    if (!isValidHost(host)) throw invalidHost();
    if (valid.size >= REMEMBERED_HOSTS) valid.clear();
    valid.add(host);
  };
}

/**
 * The request target — path and query, always starting with `/` — of a request URL as
 * `Deno.serve` builds it: everything from the first `/` or `?` after the scheme's `://`. An
 * absolute-form target with an empty path (`http://host?x`) becomes `/?x`, as RFC 9112 §3.2.2
 * says. Only sound once the `Host` header passed {@link createHostCheck} (or for a URL built by
 * `new Request`): an authority from `Host` then holds no `/` or `?`, and Deno's HTTP parser
 * rejects those in an absolute-form authority.
 *
 * @throws {HttpError} 400 `Invalid request target` when `url` has no `://`.
 */
export function requestTarget(url: string): string {
  const schemeEnd = url.indexOf("://");
  if (schemeEnd < 0) throw invalidTarget();
  let start = schemeEnd + 3;
  while (start < url.length) {
    const code = url.charCodeAt(start);
    if (code === 47 /* / */ || code === 63 /* ? */) break;
    start++;
  }
  if (start === url.length) return "/";
  const target = url.slice(start);
  return target.charCodeAt(0) === 63 ? `/${target}` : target;
}
