/**
 * The one place wordmark candidates are ranked (`rank.ts` does the same for icons): which
 * measured images cannot be a wordmark at all ({@link wordmarkRefusal}), which of the rest is the
 * site's wordmark ({@link compareWordmarks}), and why ({@link explainWordmark}).
 *
 * A wordmark is **wide**: at least {@link WORDMARK_ASPECT} times as wide as it is tall. A square
 * or tall image — a symbol, a stacked lock-up, an app icon — is not one, even when the site
 * declares it as its `logo` (Yoast and many CMSs declare the square site icon there): the icon
 * already serves it. A raster under `MIN_SIDE` (16 px) tall is not legible.
 *
 * Tiers, measured from the bytes (never from declared sizes or types):
 *
 * 0. a wide SVG (a vector scales to every width);
 * 1. a wide raster at least {@link WIDE_RASTER_WIDTH} px wide (serves `size=400` without
 *    upscaling);
 * 2. a narrower wide raster.
 *
 * Within a tier what the site shows in its header (an inline `<svg>` or an `<img>`) wins over what
 * it declares (JSON-LD, then microdata, then `og:logo`), then candidate order: header logos come
 * in the order `header_logos.ts` gives them (the home link in the banner first), declared logos in
 * document order. Width does not decide: a wider image further from the home link (a conference
 * banner, a promotion) is not more likely to be the wordmark.
 *
 * @module
 */
import { MIN_SIDE } from "./rank.ts";
import type { WordmarkCandidate, WordmarkKind } from "./wordmark_candidate.ts";

/** A wordmark candidate whose bytes were measured. */
export interface MeasuredWordmark {
  /** Where it was declared or shown. */
  candidate: WordmarkCandidate;
  /** Sniffed format: "svg", "png", "jpeg", "gif", "webp", "ico", "bmp". */
  format: string;
  /** Width in px (for SVG, its intrinsic width). */
  width: number;
  /** Height in px. */
  height: number;
  /** Position among the candidates, for stable ties. */
  order: number;
}

/** A wordmark is at least this many times as wide as it is tall. */
export const WORDMARK_ASPECT = 1.5;
/** A raster wordmark at least this wide is the better raster tier. */
export const WIDE_RASTER_WIDTH = 400;

const TIER_NAMES = [
  "wide SVG (scales to any width)",
  `wide raster of ${WIDE_RASTER_WIDTH} px or more`,
  `wide raster under ${WIDE_RASTER_WIDTH} px`,
] as const;

/**
 * Why a measured image cannot be the wordmark, or undefined; see the module doc.
 *
 * @example
 * ```ts
 * const candidate = { url: "https://acme.test/logo.png", kind: "json-ld" } as const;
 * wordmarkRefusal({ candidate, format: "png", width: 512, height: 512, order: 0 });
 * // "not a wordmark: 512x512 is not at least 1.5 times as wide as tall"
 * ```
 */
export function wordmarkRefusal(m: MeasuredWordmark): string | undefined {
  if (m.width < WORDMARK_ASPECT * m.height) {
    return `not a wordmark: ${m.width}x${m.height} is not at least ${WORDMARK_ASPECT} times as ` +
      "wide as tall";
  }
  if (m.format !== "svg" && m.height < MIN_SIDE) {
    return `not a wordmark: under ${MIN_SIDE} px tall`;
  }
  return undefined;
}

/**
 * The tier of a wide wordmark candidate (0 is best); see the module doc.
 *
 * @example
 * ```ts
 * const candidate = { url: "https://acme.test/logo.png", kind: "og:logo" } as const;
 * wordmarkTier({ candidate, format: "png", width: 600, height: 60, order: 0 }); // 1
 * ```
 */
export function wordmarkTier(m: MeasuredWordmark): number {
  if (m.format === "svg") return 0;
  return m.width >= WIDE_RASTER_WIDTH ? 1 : 2;
}

/**
 * Sort comparator of wide candidates: negative when `a` is the better wordmark.
 *
 * @example
 * ```ts
 * declare const wide: MeasuredWordmark[]; // the candidates with no wordmarkRefusal
 * const best = wide.toSorted(compareWordmarks)[0];
 * ```
 */
export function compareWordmarks(a: MeasuredWordmark, b: MeasuredWordmark): number {
  return wordmarkTier(a) - wordmarkTier(b) ||
    SOURCE_RANK[a.candidate.kind] - SOURCE_RANK[b.candidate.kind] ||
    a.order - b.order;
}

/** Shown before declared; among declared, JSON-LD, microdata, then `og:logo`. */
const SOURCE_RANK: Record<WordmarkKind, number> = {
  "header-svg": 0,
  "header-img": 0,
  "json-ld": 1,
  "itemprop-logo": 2,
  "og:logo": 3,
};

/**
 * Why a wordmark candidate ranks where it does, in one line.
 *
 * @example
 * ```ts
 * const candidate = { url: "https://acme.test/#inline-svg-1", kind: "header-svg" } as const;
 * explainWordmark({ candidate, format: "svg", width: 180, height: 40, order: 0 });
 * // "tier 0 of 0-2, wide SVG (scales to any width): svg 180x40 from header-svg"
 * ```
 */
export function explainWordmark(m: MeasuredWordmark): string {
  const t = wordmarkTier(m);
  const marker = m.candidate.marker ? ` (${m.candidate.marker})` : "";
  return `tier ${t} of 0-${TIER_NAMES.length - 1}, ${TIER_NAMES[t]}: ` +
    `${m.format} ${m.width}x${m.height} from ${m.candidate.kind}${marker}`;
}
