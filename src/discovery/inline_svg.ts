/**
 * An inline `<svg>` of a parsed HTML page as a standalone SVG document, so that it goes through
 * imagecore like any fetched SVG.
 *
 * The element is serialised from the DOM htmlparser2 built (dom-serializer's `foreign` mode, which
 * restores SVG's mixed-case names such as `viewBox` and `linearGradient` that HTML parsing
 * lower-cases), with the SVG namespace added (and the XLink one when `xlink:` attributes are used).
 * A `<use href="#id">` pointing at an element elsewhere in the page (an icon sprite's `<symbol>`)
 * gets a copy of that element inside a `<defs>`, so the logo does not come out empty; nothing
 * outside the page is ever referenced or fetched. Larger than {@link MAX_INLINE_SVG_BYTES}: none.
 *
 * @example
 * ```ts
 * import { DomUtils, parseDocument } from "htmlparser2";
 * import { standaloneSvg } from "./inline_svg.ts";
 * const page = parseDocument('<a href="/"><svg viewBox="0 0 120 30"><path d="M0 0h9v9z"/></svg></a>');
 * const svg = DomUtils.findOne((e) => e.name === "svg", page.children)!;
 * new TextDecoder().decode(standaloneSvg(svg, page)!);
 * // '<svg viewBox="0 0 120 30" xmlns="http://www.w3.org/2000/svg"><path d="M0 0h9v9z"/></svg>'
 * ```
 * @module
 */
import { DomUtils, parseDocument } from "htmlparser2";

/** An element of a parsed page. */
export type PageElement = NonNullable<ReturnType<typeof DomUtils.findOne>>;
/** A parsed page. */
export type PageDocument = ReturnType<typeof parseDocument>;

/** An inline SVG serialising to more than this many bytes is not used. */
export const MAX_INLINE_SVG_BYTES = 256 * 1024;
const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
/** At most this many outside elements are copied in for `<use>` references. */
const MAX_REFERENCES = 8;
/** dom-serializer's mode that writes XML and restores SVG's mixed-case names. */
const FOREIGN = { xmlMode: "foreign" } as const;

function isInside(node: PageElement, ancestor: PageElement): boolean {
  for (let at: PageElement | null = node; at; at = at.parent as PageElement | null) {
    if (at === ancestor) return true;
  }
  return false;
}

/** The outside elements the `<use>` elements of `svg` reference by `#id`, once each. */
function outsideReferences(svg: PageElement, page: PageDocument): PageElement[] {
  const found: PageElement[] = [];
  for (const use of DomUtils.findAll((e) => e.name === "use", svg.children)) {
    const href = use.attribs.href ?? use.attribs["xlink:href"] ?? "";
    if (!href.startsWith("#") || found.length >= MAX_REFERENCES) continue;
    const target = DomUtils.getElementById(href.slice(1), page.children);
    if (target && !isInside(target, svg) && !found.includes(target)) found.push(target);
  }
  return found;
}

/**
 * The standalone SVG bytes of the inline `svg` element of `page`, or undefined when it serialises
 * to more than {@link MAX_INLINE_SVG_BYTES}; see the module doc.
 */
export function standaloneSvg(svg: PageElement, page: PageDocument): Uint8Array | undefined {
  const copy = svg.cloneNode(true);
  const references = outsideReferences(svg, page);
  if (references.length > 0) {
    const defs = parseDocument("<defs></defs>", { xmlMode: true }).children[0] as PageElement;
    for (const target of references) DomUtils.appendChild(defs, target.cloneNode(true));
    DomUtils.prependChild(copy, defs);
  }
  copy.attribs.xmlns = SVG_NS;
  let text = DomUtils.getOuterHTML(copy, FOREIGN);
  if (text.includes("xlink:") && copy.attribs["xmlns:xlink"] === undefined) {
    copy.attribs["xmlns:xlink"] = XLINK_NS;
    text = DomUtils.getOuterHTML(copy, FOREIGN);
  }
  const bytes = new TextEncoder().encode(text);
  return bytes.length > MAX_INLINE_SVG_BYTES ? undefined : bytes;
}
