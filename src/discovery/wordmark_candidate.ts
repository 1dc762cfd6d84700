/**
 * What a wordmark candidate is: one place a site declares or shows its horizontal logo
 * ({@link WordmarkCandidate}), and the kinds of place ({@link WORDMARK_KINDS}). `candidates.ts` reads the declared ones (the site's own JSON-LD organisation,
 * microdata `itemprop="logo"`, `og:logo`), `header_logos.ts` the logo shown in the page's own
 * header or home link, and `wordmark_rank.ts` ranks them.
 *
 * @example
 * ```ts
 * import type { WordmarkCandidate } from "./wordmark_candidate.ts";
 * const shown: WordmarkCandidate = { url: "https://acme.test/logo.svg", kind: "header-img" };
 * ```
 * @module
 */

/**
 * Kinds of wordmark candidate: what the site shows its visitors as its logo (an inline `<svg>`, an
 * `<img>`), then what it declares to machines; `wordmark_rank.ts` says how they rank.
 */
export const WORDMARK_KINDS = Object.freeze(
  ["header-svg", "header-img", "json-ld", "itemprop-logo", "og:logo"] as const,
);

/** Where a wordmark candidate came from. */
export type WordmarkKind = (typeof WORDMARK_KINDS)[number];

/** One place a site's wordmark may be. */
export interface WordmarkCandidate {
  /**
   * Absolute URL of the image; for an inline `<svg>`, the page's URL with a fragment naming
   * which one (`#inline-svg-1` for the first inline SVG logo of the page).
   */
  url: string;
  /** What declared or showed it. */
  kind: WordmarkKind;
  /** An inline `<svg>`'s standalone bytes (serialised by `inline_svg.ts`): nothing to fetch. */
  inline?: Uint8Array;
  /** How it was recognised as the logo (e.g. "in the home link inside <header>"). */
  marker?: string;
}
