/**
 * The logo a site shows in its own header or home link: the `<img>` and inline `<svg>` wordmark
 * candidates of a home page (`kind` `header-img` / `header-svg`), read from the DOM htmlparser2
 * builds. An image is taken when it is
 *
 * - inside a **home link**: an `<a href>` to the site's root (`/`, `/index.html`, `/index.php`, a
 *   locale root such as `/en/` or `/en-gb/`) on the page's own host or the domain discovered
 *   (`www.` aside; another subdomain's root, such as a conference site's, is not the home),
 *   wherever it is on the page; or
 * - inside the page's **banner** — a `<header>` not inside an `<article>` or `<aside>`, an
 *   element with `role="banner"`, or one whose `id`/`class` is `header`, `masthead`, `banner` or
 *   `navbar` (optionally `site-`, `page-`, `global-`, `main-` or `top-` before it, and `box`, `bar`, `wrap`,
 *   `wrapper`, `inner`, `outer` or `container` after it: `headerbox`, `site-header`) — and marked as
 *   the logo: a `class`/`id` with `logo` or `brand` on it or an ancestor within the banner, `logo`
 *   in its file name, or an `alt`/`title`/`aria-label`/`<title>` that says `logo` or begins with the
 *   brand's name (`og:site_name`, `application-name`, or the domain's name: "ACCU Home page", not
 *   "Subscribe to The New Yorker").
 *
 * Never taken: an image inside a link to another site (a partner's, a customer's, an app store's
 * badge), inside an `<article>` or `<aside>` unless in a home link, or marked as someone else's
 * (`partner`, `sponsor`, `client`, `customer`, `award`, `badge`, `featured`, `press`, `powered`,
 * `seen`). Home links inside the banner come first, then other home links, then marked banner
 * images, each in document order; at most {@link MAX_HEADER_LOGOS}. An `<img>`'s URL is the SVG of
 * its `srcset` if it has one (what a browser shows), else its `src`, or (lazy loading) its
 * `data-src`/`data-lazy-src`/`data-original` or the largest `srcset` entry;
 * an inline `<svg>` is serialised by `inline_svg.ts`.
 *
 * @example
 * ```ts
 * import { headerLogos } from "./header_logos.ts";
 * const html = '<header><a href="/"><img src="/brand/acme.svg" alt="Acme"></a></header>';
 * headerLogos(html, "https://acme.test/", "acme.test")[0].url; // "https://acme.test/brand/acme.svg"
 * ```
 * @module
 */
import { DomUtils, parseDocument } from "htmlparser2";
import { getDomainWithoutSuffix } from "tldts";
import { siteMatcher } from "./json_ld_logos.ts";
import { type PageDocument, type PageElement, standaloneSvg } from "./inline_svg.ts";
import type { WordmarkCandidate } from "./wordmark_candidate.ts";

/** At most this many header logos are returned from one page. */
export const MAX_HEADER_LOGOS = 4;

const BANNER_TOKEN =
  /^(site|page|global|main|top)?[-_]?(header|masthead|banner|navbar)([-_]?(box|bar|wrap|wrapper|inner|outer|container))?$/;
const LOGO_WORD = /logo|brand/;
const OTHERS_WORD = /partner|sponsor|client|customer|award|badge|featured|press|powered|seen/;
const HOME_PATH = /^\/(index\.(html?|php))?$|^\/[a-z]{2}([-_][a-z]{2})?\/?$/i;
const LAZY_SOURCES = ["data-src", "data-lazy-src", "data-original"];

function normalised(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

function tokens(element: PageElement): string[] {
  const { id = "", class: classes = "" } = element.attribs;
  return `${id} ${classes}`.toLowerCase().split(/\s+/).filter(Boolean);
}

/** The accessible words of an image: alt, title, aria-label, an SVG's `<title>`. */
function labels(element: PageElement): string {
  const { alt = "", title = "", "aria-label": aria = "" } = element.attribs;
  const svgTitle = element.name === "svg"
    ? DomUtils.findOne((e) => e.name === "title", element.children)
    : null;
  return `${alt} ${title} ${aria} ${svgTitle ? DomUtils.textContent(svgTitle) : ""}`.toLowerCase();
}

function resolve(href: string | undefined, base: string): URL | undefined {
  try {
    return href?.trim() ? new URL(href.trim(), base) : undefined;
  } catch {
    return undefined;
  }
}

/** The largest entry of a `srcset` ("a.png 1x, b.png 2x" → "b.png"). */
function largestOfSrcset(srcset: string | undefined): string | undefined {
  let best: { url: string; size: number } | undefined;
  for (const entry of (srcset ?? "").split(",")) {
    const [url, descriptor = "1x"] = entry.trim().split(/\s+/);
    const size = parseFloat(descriptor) || 1;
    if (url && (best === undefined || size > best.size)) best = { url, size };
  }
  return best?.url;
}

/** The SVG entry of a `srcset`, if any: a browser shows it over the raster `src`. */
function svgOfSrcset(srcset: string | undefined): string | undefined {
  return (srcset ?? "").split(",").map((entry) => entry.trim().split(/\s+/)[0])
    .find((url) => /\.svgz?(\?|$)/i.test(url ?? ""));
}

function imageSource(img: PageElement): string | undefined {
  const vector = svgOfSrcset(img.attribs.srcset ?? img.attribs["data-srcset"]);
  if (vector) return vector;
  const src = img.attribs.src?.trim();
  const lazy = LAZY_SOURCES.map((name) => img.attribs[name]?.trim()).find(Boolean);
  if (src && !(src.startsWith("data:") && lazy)) return src;
  return lazy ?? largestOfSrcset(img.attribs.srcset ?? img.attribs["data-srcset"]);
}

/** What the page says the brand is called, normalised: og:site_name, application-name, domain. */
function brandNames(page: PageDocument, domain: string | undefined, pageUrl: string): string[] {
  const names = DomUtils.findAll((e) => e.name === "meta", page.children)
    .filter((meta) => {
      const key = (meta.attribs.property ?? meta.attribs.name ?? "").toLowerCase();
      return key === "og:site_name" || key === "application-name";
    })
    .map((meta) => meta.attribs.content ?? "");
  names.push(getDomainWithoutSuffix(domain ?? new URL(pageUrl).hostname) ?? "");
  return names.map(normalised).filter((name) => name.length >= 3);
}

interface Context {
  homeLink: boolean;
  banner: PageElement | undefined;
  offsite: boolean;
  inArticle: boolean;
  marked: boolean;
  others: boolean;
}

/**
 * The header logos of the page at `pageUrl` (its final URL) for `domain`, best first; see the
 * module doc.
 */
export function headerLogos(html: string, pageUrl: string, domain?: string): WordmarkCandidate[] {
  const page = parseDocument(html, { decodeEntities: true });
  const baseTag = DomUtils.findOne((e) => e.name === "base" && !!e.attribs.href, page.children);
  const base = resolve(baseTag?.attribs.href, pageUrl)?.href ?? pageUrl;
  const onSite = siteMatcher(pageUrl, domain);
  const bare = (host: string) => host.replace(/^www\./, "");
  const homes = new Set([bare(new URL(pageUrl).hostname), ...(domain ? [bare(domain)] : [])]);
  const sameHost = (host: string) => homes.has(bare(host));
  const brands = brandNames(page, domain, pageUrl);
  const namesBrand = (words: string) => {
    const text = normalised(words);
    return text.length >= 3 && brands.some((b) => text.startsWith(b) || b.startsWith(text));
  };

  const contextOf = (image: PageElement): Context => {
    const own = `${tokens(image).join(" ")} ${labels(image)}`;
    const src = image.name === "img" ? (imageSource(image) ?? "").toLowerCase() : "";
    const file = src.startsWith("data:") ? "" : src.split(/[?#]/)[0].split("/").pop() ?? "";
    const context: Context = {
      homeLink: false,
      banner: undefined,
      offsite: false,
      inArticle: false,
      marked: LOGO_WORD.test(own) || file.includes("logo") || namesBrand(labels(image)),
      others: OTHERS_WORD.test(own),
    };
    let link: PageElement | undefined;
    const above: PageElement[] = [];
    for (let at = image.parent as PageElement | null; at?.attribs; at = at.parent as PageElement) {
      above.push(at);
      if (at.name === "a" && link === undefined && at.attribs.href !== undefined) link = at;
      if (at.name === "article" || at.name === "aside") context.inArticle = true;
      const banner = at.attribs.role === "banner" ||
        (at.name === "header" && !context.inArticle) ||
        tokens(at).some((token) => BANNER_TOKEN.test(token));
      if (banner && context.banner === undefined) context.banner = at;
    }
    if (link !== undefined) {
      const target = resolve(link.attribs.href, base);
      const web = target?.protocol === "http:" || target?.protocol === "https:";
      if (web && onSite(target.href) === false) context.offsite = true;
      else if (web && sameHost(target.hostname) && HOME_PATH.test(target.pathname)) {
        context.homeLink = true;
      }
      if (namesBrand(labels(link))) context.marked = true;
    }
    for (const at of above) {
      if (at === context.banner) break;
      const words = `${tokens(at).join(" ")} ${at.name === "a" ? labels(at) : ""}`;
      if (OTHERS_WORD.test(words)) context.others = true;
      if (LOGO_WORD.test(tokens(at).join(" "))) context.marked = true;
    }
    return context;
  };

  const found: { candidate: WordmarkCandidate; rank: number }[] = [];
  let inlineCount = 0;
  const images = DomUtils.findAll(
    (e) => e.name === "img" || (e.name === "svg" && !hasSvgAncestor(e)),
    page.children,
  );
  for (const image of images) {
    const c = contextOf(image);
    if (c.offsite || c.others) continue;
    const rank = c.homeLink && c.banner
      ? 0
      : c.homeLink
      ? 1
      : c.banner && c.marked && !c.inArticle
      ? 2
      : undefined;
    if (rank === undefined) continue;
    const where = c.banner ? `the banner ${describe(c.banner)}` : "the page";
    const marker = c.homeLink ? `in the home link of ${where}` : `marked as the logo in ${where}`;
    if (image.name === "svg") {
      const inline = standaloneSvg(image, page);
      if (inline === undefined) continue;
      const url = new URL(pageUrl);
      url.hash = `inline-svg-${++inlineCount}`;
      found.push({ candidate: { url: url.href, kind: "header-svg", inline, marker }, rank });
    } else {
      const url = resolve(imageSource(image), base);
      if (url === undefined || !/^(https?|data):$/.test(url.protocol)) continue;
      url.hash = "";
      if (found.some((f) => f.candidate.url === url.href)) continue;
      found.push({ candidate: { url: url.href, kind: "header-img", marker }, rank });
    }
  }
  return found.sort((a, b) => a.rank - b.rank).slice(0, MAX_HEADER_LOGOS).map((f) => f.candidate);
}

/** `<header>`, `<div id="masthead">`, `<nav class="navbar">`: how an element is named in `why`. */
function describe(element: PageElement): string {
  const { id, class: classes } = element.attribs;
  const name = id ? ` id="${id}"` : classes ? ` class="${classes.trim().split(/\s+/)[0]}"` : "";
  return `<${element.name}${name}>`;
}

function hasSvgAncestor(element: PageElement): boolean {
  for (let at = element.parent as PageElement | null; at?.attribs; at = at.parent as PageElement) {
    if (at.name === "svg") return true;
  }
  return false;
}
