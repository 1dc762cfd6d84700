/**
 * Which of the decodable candidates is the logo.
 *
 * Tiers, best first (measured from the bytes, never from declared sizes or types):
 *
 * 0. SVG (a vector scales crisply to every size), except mask icons and wide og:images;
 * 1. a square raster (aspect ratio at most 1.25) whose smaller side is 256 px or more;
 * 2. a mask-icon SVG (a monochrome silhouette);
 * 3. a square raster from 64 px (e.g. a 180-px apple-touch-icon);
 * 4. a non-square image that is not a wide og:image (e.g. a JSON-LD wordmark);
 * 5. a small square raster (e.g. a 16- or 32-px favicon);
 * 6. a wide og:image (a social card, rarely the logo) — last.
 *
 * Within a tier the larger smaller side wins, then the preferred declaration
 * (`kindPreference`), then document order.
 *
 * @module
 */
import { type Candidate, kindPreference } from "./candidates.ts";

/** A candidate whose bytes were fetched and measured. */
export interface Measured {
  /** Where it was declared. */
  candidate: Candidate;
  /** Sniffed format: "svg", "png", "ico", "jpeg", "gif", "webp", "bmp". */
  format: string;
  /** Width in px (for SVG, its intrinsic or rasterised width). */
  width: number;
  /** Height in px. */
  height: number;
  /** Position among the candidates, for stable ties. */
  order: number;
}

/** Longest side over shortest side at most this counts as square. */
export const SQUARE_ASPECT = 1.25;
/** A raster at least this large on its smaller side is top tier. */
export const LARGE_SIDE = 256;
/** Below this, a square raster counts as small. */
export const SMALL_SIDE = 64;
const TIERS = 7;

function aspect(m: Measured): number {
  const small = Math.max(1, Math.min(m.width, m.height));
  return Math.max(m.width, m.height) / small;
}

/**
 * The tier of a measured candidate (0 is best, 6 is a wide og:image); see the module doc.
 *
 * @example
 * ```ts
 * tier({ candidate: { url, kind: "icon" }, format: "png", width: 512, height: 512, order: 0 }); // 1
 * ```
 */
export function tier(m: Measured): number {
  const square = aspect(m) <= SQUARE_ASPECT;
  const side = Math.min(m.width, m.height);
  if (m.candidate.kind === "og:image" && !square) return 6;
  if (m.format === "svg") return m.candidate.kind === "mask-icon" ? 2 : 0;
  if (square && side >= LARGE_SIDE) return 1;
  if (square && side >= SMALL_SIDE) return 3;
  if (!square) return 4;
  return 5;
}

/**
 * A number that orders candidates across discoveries: higher is better. Used to refuse replacing
 * a stored logo with a worse one on refresh.
 *
 * @example
 * ```ts
 * score(svgIcon) > score(favicon32); // true
 * ```
 */
export function score(m: Measured): number {
  const side = m.format === "svg" ? 0 : Math.min(m.width, m.height, 99_999);
  return (TIERS - tier(m)) * 100_000 + side;
}

/**
 * Sort comparator: negative when `a` is the better logo.
 *
 * @example
 * ```ts
 * const best = measured.toSorted(compareMeasured)[0];
 * ```
 */
export function compareMeasured(a: Measured, b: Measured): number {
  return score(b) - score(a) ||
    kindPreference(a.candidate.kind) - kindPreference(b.candidate.kind) ||
    a.order - b.order;
}
