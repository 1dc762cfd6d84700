/**
 * The site's own logo in its JSON-LD: only the `logo` of the site's own `Organization` (or a
 * subtype such as `NewsMediaOrganization`, `Corporation`, `LocalBusiness`…), its `WebSite`, or
 * the `publisher` of a top-level node — and only when that organisation matches the site.
 *
 * Never an `author`, a `sponsor`, a profiled company or any other organisation nested deeper:
 * the logo of another organisation is the worst pick discovery can make. An organisation matches
 * the site when its `url` (or, failing that, an absolute `@id`) is on the same registrable domain
 * (tldts) as the discovered domain or the page; one that declares neither is taken as the page's
 * own. Top-level nodes are the script's object, the items of a top-level array, and the items of
 * `@graph`; `{"@id": …}` references (Yoast SEO's `publisher` and `logo`) are followed within the
 * page's JSON-LD.
 *
 * @module
 */
import { getDomain } from "tldts";

type Node = Record<string, unknown>;

/** `@type`s (and microdata `itemtype`s) whose `logo` is the site's own when they match the site. */
export const OWNER_TYPES =
  /(Organization|Organisation|Corporation|Business|Store|Service|WebSite|Brand|Bank|Restaurant|Hotel|Dentist|School|University|Airline)\b/;
const MAX_REFERENCES = 4;

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/** The top-level nodes of one JSON-LD document. */
function topLevel(document: unknown): Node[] {
  const nodes: Node[] = [];
  for (const item of list(document)) {
    if (!isNode(item)) continue;
    const graph = item["@graph"];
    if (Array.isArray(graph)) nodes.push(...graph.filter(isNode));
    if (item["@type"] !== undefined) nodes.push(item);
  }
  return nodes;
}

/**
 * Whether an organisation's URL is on the site: `true` or `false` for an absolute `http(s)` URL
 * (same registrable domain, by tldts, as the page or the discovered `domain`), `undefined` for
 * anything else (a relative `@id` such as "#organization" says nothing about whose it is).
 *
 * @example
 * ```ts
 * const onSite = siteMatcher("https://www.acme.test/", "acme.test");
 * onSite("https://shop.acme.test/about"); // true
 * onSite("https://other.test/"); // false
 * onSite("#organization"); // undefined
 * ```
 */
export function siteMatcher(
  pageUrl: string,
  domain?: string,
): (value: string) => boolean | undefined {
  const own = new Set([getDomain(new URL(pageUrl).hostname), domain && getDomain(domain)]);
  return (value) => {
    try {
      const url = new URL(value);
      if (url.protocol === "http:" || url.protocol === "https:") {
        return own.has(getDomain(url.hostname));
      }
    } catch {
      // not an absolute URL
    }
    return undefined;
  };
}

function types(node: Node): string[] {
  return list(node["@type"]).filter((t): t is string => typeof t === "string");
}

/**
 * The `logo` URLs of the site's own organisation in the JSON-LD `documents` (each a script's
 * text) of the page at `pageUrl`, for `domain`; see the module doc. Broken JSON is skipped.
 *
 * @example
 * ```ts
 * const ld = JSON.stringify({
 *   "@type": "BlogPosting",
 *   author: { "@type": "Organization", url: "https://other.test", logo: "https://other.test/l.png" },
 *   publisher: { "@type": "Organization", url: "https://acme.test", logo: "/logo.png" },
 * });
 * ownLogos([ld], "https://acme.test/", "acme.test"); // ["/logo.png"]
 * ```
 */
export function ownLogos(documents: string[], pageUrl: string, domain?: string): string[] {
  const nodes = documents.flatMap((text) => {
    try {
      return topLevel(JSON.parse(text));
    } catch {
      return []; // Broken JSON-LD is common; it simply declares nothing.
    }
  });
  const byId = new Map<string, Node>();
  for (const node of nodes) {
    if (typeof node["@id"] === "string") byId.set(node["@id"], node);
  }
  const resolve = (value: unknown): unknown => {
    let current = value;
    for (let i = 0; i < MAX_REFERENCES && isNode(current); i++) {
      const id = current["@id"];
      const target = typeof id === "string" ? byId.get(id) : undefined;
      if (target === undefined || target === current) break;
      current = { ...target, ...current };
    }
    return current;
  };
  const onSite = siteMatcher(pageUrl, domain);
  const matches = (node: Node): boolean => {
    for (const key of ["url", "@id"]) {
      const value = node[key];
      const verdict = typeof value === "string" ? onSite(value) : undefined;
      if (verdict !== undefined) return verdict;
    }
    return true;
  };
  const owners: Node[] = [];
  for (const node of nodes) {
    if (types(node).some((t) => OWNER_TYPES.test(t))) owners.push(node);
    for (const publisher of list(node.publisher).map(resolve)) {
      if (isNode(publisher)) owners.push(publisher);
    }
  }
  const logos: string[] = [];
  for (const owner of owners.map(resolve)) {
    if (!isNode(owner) || !matches(owner)) continue;
    for (const logo of list(owner.logo).map(resolve)) {
      const url = typeof logo === "string"
        ? logo
        : isNode(logo)
        ? logo.url ?? logo.contentUrl
        : undefined;
      if (typeof url === "string" && !logos.includes(url)) logos.push(url);
    }
  }
  return logos;
}
