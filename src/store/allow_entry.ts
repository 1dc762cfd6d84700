/**
 * Allowlist entries of a key: what `key create --allow` accepts, the one normalised form stored,
 * and how a request's `Origin` (or `Referer`) is matched against them.
 *
 * Three forms:
 * - an origin, `https://app.example.com` (or `http://localhost:3000`): that scheme, host and port
 *   exactly;
 * - a host, `example.com`: that host name exactly, any scheme and port;
 * - a wildcard, `*.example.com`: any subdomain of `example.com` at any depth, any scheme and port —
 *   but not `example.com` itself (list both to allow both).
 *
 * @example
 * ```ts
 * import { matchAllowlist, normalizeAllowEntry } from "./allow_entry.ts";
 * const allow = ["HTTPS://App.Example.com/", "*.Example.org"].map(normalizeAllowEntry);
 * // ["https://app.example.com", "*.example.org"]
 * matchAllowlist(allow, "https://cdn.example.org"); // "https://cdn.example.org"
 * matchAllowlist(allow, "https://example.org");     // null
 * ```
 * @module
 */
import { normalizeDomain } from "../domain_name.ts";

/**
 * Normalises one allowlist entry: an origin becomes `scheme://host[:port]` (lowercase, punycode,
 * default port dropped, one trailing `/` tolerated); a host or `*.`-wildcard is normalised like a
 * lookup domain, so a wildcard over a bare public suffix (`*.co.uk`) is refused.
 *
 * @throws {RangeError} with a message naming the entry and what is wrong with it.
 */
export function normalizeAllowEntry(input: string): string {
  const entry = typeof input === "string" ? input.trim() : "";
  if (entry === "") throw new RangeError("Invalid allowlist entry: empty");
  if (entry.includes("://")) return normalizeOriginEntry(entry);
  if (entry.startsWith("*.")) {
    const base = normalizeDomain(entry.slice(2));
    if (base === undefined) {
      throw new RangeError(
        `Invalid allowlist entry "${entry}": expected *.DOMAIN with a registrable domain`,
      );
    }
    return `*.${base}`;
  }
  const host = normalizeDomain(entry);
  if (host === undefined) {
    throw new RangeError(
      `Invalid allowlist entry "${entry}": expected https://host[:port], example.com or *.example.com`,
    );
  }
  return host;
}

function normalizeOriginEntry(entry: string): string {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new RangeError(`Invalid allowlist entry "${entry}": not a valid origin`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new RangeError(`Invalid allowlist entry "${entry}": the scheme must be http or https`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new RangeError(`Invalid allowlist entry "${entry}": an origin has no user info`);
  }
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || entry.endsWith("?")) {
    throw new RangeError(
      `Invalid allowlist entry "${entry}": an origin has no path, query or fragment`,
    );
  }
  if (url.hostname.includes("*")) {
    throw new RangeError(
      `Invalid allowlist entry "${entry}": write a wildcard without a scheme, as *.example.com`,
    );
  }
  return url.origin;
}

/**
 * Matches a request's `Origin` header value, or failing that its `Referer` (a full URL), against
 * a normalised allowlist. Returns the request's origin (`scheme://host[:port]`) to reflect in
 * `Access-Control-Allow-Origin` when an entry matches, else `null` — also for an absent, `null`
 * or unparsable value.
 */
export function matchAllowlist(
  allow: readonly string[],
  originOrReferer: string | null | undefined,
): string | null {
  if (!originOrReferer || originOrReferer === "null") return null;
  let url: URL;
  try {
    url = new URL(originOrReferer);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const origin = url.origin;
  const host = url.hostname;
  for (const entry of allow) {
    if (entry.includes("://")) {
      if (entry === origin) return origin;
    } else if (entry.startsWith("*.")) {
      if (host.endsWith(entry.slice(1)) && host.length > entry.length - 1) return origin;
    } else if (entry === host) {
      return origin;
    }
  }
  return null;
}
