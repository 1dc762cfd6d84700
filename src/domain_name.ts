/**
 * Domain names as Logo Lookup understands them: normalising what a client typed into the one
 * canonical form the stores are keyed by, and the chain of parents a lookup may fall back to.
 *
 * Pure (no Deno APIs): the published SDK imports this module too.
 *
 * @example
 * ```ts
 * import { lookupChain, normalizeDomain } from "./domain.ts";
 * const domain = normalizeDomain("  Docs.Example.CO.UK. "); // "docs.example.co.uk"
 * lookupChain(domain!); // ["docs.example.co.uk", "example.co.uk"]
 * ```
 * @module
 */
import { parse } from "tldts";

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

/** Public-suffix options: private suffixes such as `github.io` count, so no site falls back to them. */
const PSL_OPTIONS = { allowPrivateDomains: true, detectIp: true } as const;

/**
 * Normalises what a client sent as a domain: trims it, lowercases it, drops one trailing dot and
 * converts an internationalised name to punycode (`bücher.de` → `xn--bcher-kva.de`).
 *
 * Returns `undefined` for anything that is not a plain registrable domain or subdomain: a protocol,
 * path, port, query or user info; an IP literal; a single label (`localhost`); an empty label,
 * a label over 63 or a name over 253 characters; a label outside letters, digits and inner
 * hyphens; or a bare public suffix (`co.uk`, `github.io`).
 *
 * @example
 * ```ts
 * normalizeDomain("Example.com.");        // "example.com"
 * normalizeDomain("https://example.com"); // undefined
 * normalizeDomain("co.uk");               // undefined
 * ```
 */
export function normalizeDomain(input: string): string | undefined {
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

  const parsed = parse(host, PSL_OPTIONS);
  if (parsed.isIp) return undefined;
  if (parsed.domain === null || parsed.hostname !== host) return undefined;
  return host;
}

/**
 * The domains a lookup for `domain` tries, in order: the domain itself, then each parent down to
 * its registrable domain. Public-suffix aware, so `foo.github.io` never falls back to `github.io`
 * and `www.example.co.uk` stops at `example.co.uk`.
 *
 * `domain` should already be normalised by {@link normalizeDomain}; for anything without a
 * registrable domain the chain is just `[domain]`.
 *
 * @example
 * ```ts
 * lookupChain("a.b.example.com"); // ["a.b.example.com", "b.example.com", "example.com"]
 * lookupChain("foo.github.io");   // ["foo.github.io"]
 * ```
 */
export function lookupChain(domain: string): string[] {
  const registrable = parse(domain, PSL_OPTIONS).domain;
  const chain = [domain];
  if (registrable === null || registrable === domain || !domain.endsWith(`.${registrable}`)) {
    return chain;
  }
  let current = domain;
  while (current !== registrable) {
    current = current.slice(current.indexOf(".") + 1);
    chain.push(current);
  }
  return chain;
}

/**
 * The brand label of a normalised `domain`: its registrable domain without the public suffix
 * (`www.example.co.uk` → `example`, `foo.github.io` → `foo`), in the ASCII (punycode) form the
 * domain has; for a domain without a registrable part, its first label that is not `www`.
 *
 * @example
 * ```ts
 * brandLabel("www.example.co.uk"); // "example"
 * brandLabel("xn--bcher-kva.de");  // "xn--bcher-kva"
 * ```
 */
export function brandLabel(domain: string): string {
  const label = parse(domain, PSL_OPTIONS).domainWithoutSuffix;
  if (label !== null && label !== "") return label;
  const labels = domain.split(".");
  return labels.find((l) => l !== "www") ?? labels[0];
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
