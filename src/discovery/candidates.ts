/**
 * Where a site says its logo is: icon candidates read from a home page and from web app manifests.
 *
 * The page is parsed with htmlparser2 (never regexes). Read, in the order `candidate.ts` declares
 * ({@link KIND_ORDER}): `<link rel>` `icon` (so also `shortcut icon`), `apple-touch-icon(-precomposed)`,
 * `fluid-icon` and `mask-icon`; the icons of the `<link rel="manifest">` (fetched by the caller,
 * parsed by {@link manifestCandidates}); `<meta name="msapplication-TileImage">` and
 * `msapplication-square…logo`; the site's own JSON-LD `logo` (`json_ld_logos.ts`); `og:logo`;
 * the site's own microdata `itemprop="logo"` (`microdata_logos.ts`); the conventional `/favicon.ico`, `/favicon.png`,
 * `/apple-touch-icon.png` and `/apple-touch-icon-precomposed.png`; and `og:image`. Wordmark
 * candidates are read too: the header logo (`header_logos.ts`), then the same own JSON-LD,
 * microdata and `og:logo` declarations.
 * Relative URLs resolve against the first `<base href>` (itself resolved against the page URL),
 * as browsers do. Only `http:`, `https:` and `data:` URLs are kept; duplicates are dropped.
 * Declared `sizes` and `type` are recorded as hints only: images are sniffed and measured later.
 *
 * @module
 */
import { Parser } from "htmlparser2";
import { ownLogos } from "./json_ld_logos.ts";
import { MicrodataLogos } from "./microdata_logos.ts";
import { type Candidate, type CandidateKind, KIND_ORDER } from "./candidate.ts";
import { headerLogos } from "./header_logos.ts";
import type { WordmarkCandidate, WordmarkKind } from "./wordmark_candidate.ts";

/** What a home page declares. */
export interface PageCandidates {
  /** Icon candidates in order of preference (manifest icons not included: fetch `manifests`). */
  candidates: Candidate[];
  /** Web app manifest URLs to fetch and read with {@link manifestCandidates}. */
  manifests: string[];
  /** The URL relative references were resolved against. */
  baseUrl: string;
  /**
   * Wordmark candidates: the logo shown in the page's own header or home link
   * (`header_logos.ts`), then the site's own declared logos (JSON-LD, microdata, `og:logo`).
   */
  wordmarks: WordmarkCandidate[];
}

/** At most this many candidates are returned from one page or manifest. */
export const MAX_CANDIDATES = 24;
const MAX_JSON_LD_BYTES = 256 * 1024;
/** The conventional root URLs tried on every site. */
export const CONVENTIONAL_ICONS: readonly string[] = Object.freeze([
  "/favicon.ico",
  "/favicon.png",
  "/apple-touch-icon.png",
  "/apple-touch-icon-precomposed.png",
]);
const TILE_SIZES: Record<string, string> = {
  "msapplication-tileimage": "144x144",
  "msapplication-square70x70logo": "70x70",
  "msapplication-square150x150logo": "150x150",
  "msapplication-square310x310logo": "310x310",
};

function absolute(href: string | undefined, base: string): string | undefined {
  const trimmed = href?.trim();
  if (!trimmed) return undefined;
  try {
    const url = new URL(trimmed, base);
    if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "data:") {
      return undefined;
    }
    url.hash = "";
    return url.href;
  } catch {
    return undefined;
  }
}

function relKind(rel: string): CandidateKind | "manifest-link" | undefined {
  const tokens = rel.toLowerCase().split(/\s+/).filter(Boolean);
  if (tokens.includes("icon")) return "icon";
  if (tokens.includes("apple-touch-icon") || tokens.includes("apple-touch-icon-precomposed")) {
    return "apple-touch-icon";
  }
  if (tokens.includes("fluid-icon")) return "fluid-icon";
  if (tokens.includes("mask-icon")) return "mask-icon";
  if (tokens.includes("manifest")) return "manifest-link";
  return undefined;
}

interface RawLink {
  kind: CandidateKind | "manifest-link" | "meta";
  href: string;
  sizes?: string;
  type?: string;
}

/** One declaration of a candidate, before it is resolved. */
interface Declared {
  href: string;
  base: string;
  hints?: RawLink;
}

/**
 * Reads the icon candidates a home page declares. `pageUrl` is the page's final URL (after
 * redirects), used for `<base href>`, relative references and the conventional fallbacks;
 * `domain`, the domain discovered, tells the site's own JSON-LD organisation from others.
 *
 * @example
 * ```ts
 * const html = await (await fetch("https://acme.test/")).text();
 * const { candidates, manifests } = extractCandidates(html, "https://acme.test/", "acme.test");
 * ```
 */
export function extractCandidates(html: string, pageUrl: string, domain?: string): PageCandidates {
  const links: RawLink[] = [];
  const jsonLd: string[] = [];
  let baseHref: string | undefined;
  let script: { text: string; jsonLd: boolean } | undefined;
  let depth = 0;
  const microdata = new MicrodataLogos();
  const add = (kind: RawLink["kind"], href: string | undefined, sizes?: string, type?: string) => {
    if (href) links.push({ kind, href, sizes, type });
  };

  const parser = new Parser({
    onopentag(name, attributes) {
      depth++;
      microdata.open(name, attributes, depth);
      if (name === "base" && baseHref === undefined && attributes.href !== undefined) {
        baseHref = attributes.href;
      } else if (name === "link" && attributes.rel && attributes.href) {
        const kind = relKind(attributes.rel);
        if (kind) add(kind, attributes.href, attributes.sizes, attributes.type);
      } else if (name === "meta" && attributes.content) {
        const property = (attributes.property ?? attributes.name ?? "").toLowerCase();
        if (["og:image", "og:image:url", "og:image:secure_url"].includes(property)) {
          add("og:image", attributes.content);
        } else if (property === "og:logo") add("og:logo", attributes.content);
        else if (TILE_SIZES[property]) {
          add("msapplication", attributes.content, TILE_SIZES[property]);
        }
      } else if (name === "script") {
        const type = (attributes.type ?? "").trim().toLowerCase();
        script = { text: "", jsonLd: type === "application/ld+json" };
      }
    },
    ontext(text) {
      if (script?.jsonLd && script.text.length < MAX_JSON_LD_BYTES) script.text += text;
    },
    onclosetag(name) {
      microdata.close(depth);
      depth--;
      if (name === "script" && script) {
        if (script.jsonLd) jsonLd.push(script.text);
        script = undefined;
      }
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();

  const baseUrl = absolute(baseHref, pageUrl) ?? pageUrl;
  const manifests: string[] = [];
  for (const link of links) {
    const url = link.kind === "manifest-link" ? absolute(link.href, baseUrl) : undefined;
    if (url && !url.startsWith("data:") && !manifests.includes(url)) manifests.push(url);
  }
  // Every declaration by kind, in document order; the conventional URLs resolve against the
  // page itself, the others against `<base href>`.
  const declared = (kind: CandidateKind): Declared[] => {
    switch (kind) {
      case "manifest": // read from the manifests, by the caller
      case "bimi": // read from DNS, by the caller
        return [];
      case "favicon":
        return CONVENTIONAL_ICONS.map((href) => ({ href, base: pageUrl }));
      case "json-ld":
        return ownLogos(jsonLd, pageUrl, domain).map((href) => ({ href, base: baseUrl }));
      case "itemprop-logo":
        return microdata.own(pageUrl, domain).map((href) => ({ href, base: baseUrl }));
      default:
        return links.filter((link) => link.kind === kind).map((link) => ({
          href: link.href,
          base: baseUrl,
          hints: link,
        }));
    }
  };
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const kind of KIND_ORDER) {
    for (const { href, base, hints } of declared(kind)) {
      const url = absolute(href, base);
      if (url === undefined || seen.has(url) || candidates.length >= MAX_CANDIDATES) continue;
      seen.add(url);
      const candidate: Candidate = { url, kind };
      if (hints?.sizes) candidate.sizes = hints.sizes;
      if (hints?.type) candidate.type = hints.type;
      candidates.push(candidate);
    }
  }
  const wordmarks = html === "" ? [] : headerLogos(html, pageUrl, domain);
  for (const kind of ["json-ld", "itemprop-logo", "og:logo"] as const satisfies WordmarkKind[]) {
    for (const { href, base } of declared(kind)) {
      const url = absolute(href, base);
      if (url === undefined || wordmarks.some((w) => w.url === url)) continue;
      if (wordmarks.length < MAX_CANDIDATES) wordmarks.push({ url, kind });
    }
  }
  return { candidates, manifests: manifests.slice(0, 2), baseUrl, wordmarks };
}

/**
 * Reads the icons of a web app manifest (`icons[].src`, resolved against the manifest's URL).
 * Icons whose `purpose` is only `monochrome` are skipped. Invalid JSON gives no candidates.
 *
 * @example
 * ```ts
 * manifestCandidates('{"icons":[{"src":"/i.png","sizes":"512x512"}]}', "https://a.test/m.json");
 * ```
 */
export function manifestCandidates(json: string, manifestUrl: string): Candidate[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(json);
  } catch {
    return [];
  }
  const icons = (manifest as { icons?: unknown } | null)?.icons;
  if (!Array.isArray(icons)) return [];
  const out: Candidate[] = [];
  for (const icon of icons) {
    if (out.length >= MAX_CANDIDATES || icon === null || typeof icon !== "object") continue;
    const { src, sizes, type, purpose } = icon as Record<string, unknown>;
    if (typeof src !== "string") continue;
    const purposes = typeof purpose === "string" ? purpose.toLowerCase().split(/\s+/) : ["any"];
    if (purposes.every((p) => p === "monochrome")) continue;
    const url = absolute(src, manifestUrl);
    if (url === undefined || out.some((c) => c.url === url)) continue;
    const candidate: Candidate = { url, kind: "manifest" };
    if (typeof sizes === "string") candidate.sizes = sizes;
    if (typeof type === "string") candidate.type = type;
    out.push(candidate);
  }
  return out;
}
