/**
 * Domain names as the server understands them: the SDK's syntax rules (`sdk/domain_syntax.ts`)
 * plus the public-suffix list, which decides that `co.uk` is no domain of its own and that a lookup
 * falls back from `www.example.co.uk` to `example.co.uk` and no further.
 *
 * The list (npm:tldts) is the server's: the published SDK leaves a bare public suffix to the
 * server's `400`, so it has no dependency to resolve.
 *
 * @example
 * ```ts
 * import { lookupChain, normalizeDomain } from "./domain_name.ts";
 * const domain = normalizeDomain("  Docs.Example.CO.UK. "); // "docs.example.co.uk"
 * lookupChain(domain!); // ["docs.example.co.uk", "example.co.uk"]
 * ```
 * @module
 */
import { parse } from "tldts";
import { normalizeDomainSyntax } from "./sdk/domain_syntax.ts";

/** Public-suffix options: private suffixes such as `github.io` count, so no site falls back to them. */
const PSL_OPTIONS = { allowPrivateDomains: true, detectIp: true } as const;

/**
 * Normalises what a client sent as a domain: trims it, lowercases it, drops one trailing dot and
 * converts an internationalised name to punycode (`bücher.de` → `xn--bcher-kva.de`).
 *
 * Returns `undefined` for anything that is not a plain registrable domain or subdomain: what
 * `normalizeDomainSyntax` refuses (a protocol, path, port, query or user info; an IP literal; a
 * single label; an empty label, a label over 63 or a name over 253 characters; a label outside
 * letters, digits and inner hyphens), and a bare public suffix (`co.uk`, `github.io`).
 *
 * @example
 * ```ts
 * normalizeDomain("Example.com.");        // "example.com"
 * normalizeDomain("https://example.com"); // undefined
 * normalizeDomain("co.uk");               // undefined
 * ```
 */
export function normalizeDomain(input: string): string | undefined {
  const host = normalizeDomainSyntax(input);
  if (host === undefined) return undefined;
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
