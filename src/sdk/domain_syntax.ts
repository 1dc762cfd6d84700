/**
 * The syntax of a domain name as Logo Lookup accepts it: what a client typed, trimmed, lowercased,
 * without its trailing dot, internationalised names in punycode — or nothing, for input that cannot
 * be a host name at all. Needs only the `URL` every runtime has, so the SDK runs anywhere `fetch`
 * does.
 *
 * The server applies these rules and one more: the name must have a registrable domain under the
 * public-suffix list (`src/domain_name.ts`), so `co.uk` passes here and the server answers `400`.
 * The list stays on the server: a client would otherwise carry a copy that goes stale.
 *
 * @example
 * ```ts
 * import { normalizeDomainSyntax } from "./domain_syntax.ts";
 * normalizeDomainSyntax("  Docs.Example.CO.UK. "); // "docs.example.co.uk"
 * normalizeDomainSyntax("https://example.com");    // undefined
 * ```
 * @module
 */

/** Longest DNS label, in characters (RFC 1035). */
export const MAX_LABEL_LENGTH = 63;
/** Longest domain name, in characters, without the trailing dot (RFC 1035). */
export const MAX_DOMAIN_LENGTH = 253;

/**
 * Characters that mean the input is a URL or carries something besides a host name: a protocol or
 * port (`:`), a path (`/`, `\`), user info (`@`), a query (`?`), a fragment (`#`), percent-encoding,
 * an IPv6 literal (`[`, `]`) or whitespace inside the name.
 */
const NOT_IN_A_DOMAIN = new Set([":", "/", "\\", "@", "?", "#", "%", "[", "]"]);

/**
 * Normalises what a client sent as a domain: trims it, lowercases it, drops one trailing dot and
 * converts an internationalised name to punycode (`bücher.de` → `xn--bcher-kva.de`).
 *
 * Returns `undefined` for anything that is not a host name of two labels or more: a protocol, path,
 * port, query or user info; an IP literal; a single label (`localhost`); an empty label, a label
 * over 63 or a name over 253 characters; a label outside letters, digits and inner hyphens. Whether
 * the name is a bare public suffix (`co.uk`) is not checked here.
 *
 * @example
 * ```ts
 * normalizeDomainSyntax("Example.com.");        // "example.com"
 * normalizeDomainSyntax("bücher.de");           // "xn--bcher-kva.de"
 * normalizeDomainSyntax("127.0.0.1");           // undefined
 * ```
 */
export function normalizeDomainSyntax(input: string): string | undefined {
  if (typeof input !== "string") return undefined;
  let name = input.trim();
  if (name.endsWith(".")) name = name.slice(0, -1);
  if (name.length === 0) return undefined;
  for (const char of name) {
    if (NOT_IN_A_DOMAIN.has(char) || char.trim() === "") return undefined;
  }

  // The WHATWG URL host parser lowercases, applies UTS #46 mapping and converts IDN to punycode;
  // it throws on forbidden host code points and on invalid IPv4-looking hosts.
  let host: string;
  try {
    host = new URL(`http://${name}/`).hostname;
  } catch {
    return undefined;
  }
  if (host.endsWith(".")) return undefined; // "example.com.." had two trailing dots
  if (host.length > MAX_DOMAIN_LENGTH) return undefined;

  const labels = host.split(".");
  if (labels.length < 2) return undefined;
  for (const label of labels) {
    if (!isHostLabel(label)) return undefined;
  }
  // A last label of digits only is what the URL parser read as IPv4 (`127.1` → `127.0.0.1`).
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return undefined;
  return host;
}

/** Whether `label` is a DNS host label: 1–63 of a–z, 0–9 and `-`, not starting or ending with `-`. */
function isHostLabel(label: string): boolean {
  if (label.length === 0 || label.length > MAX_LABEL_LENGTH) return false;
  if (label.startsWith("-") || label.endsWith("-")) return false;
  for (let i = 0; i < label.length; i++) {
    const code = label.charCodeAt(i);
    const isLetter = code >= 97 && code <= 122; // a-z
    const isDigit = code >= 48 && code <= 57; // 0-9
    if (!isLetter && !isDigit && code !== 45 /* - */) return false;
  }
  return true;
}
