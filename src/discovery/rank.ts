/**
 * The one place candidate order is decided: which declarations are preferred
 * ({@link KIND_ORDER}), in which order candidates are fetched ({@link fetchOrder}), and which of
 * the decodable ones is the logo ({@link compareMeasured}).
 *
 * Declarations are preferred in this order: `<link rel="icon">`, `apple-touch-icon`, `mask-icon`,
 * web app manifest icons, the conventional `/favicon.ico` and `/apple-touch-icon.png`, JSON-LD
 * `logo`, `og:image`. `candidates.ts` reads a page's declarations in that order (its cap keeps the
 * preferred ones).
 *
 * Fetch order: by kind as above; within a kind, larger declared `sizes` (or `any`, or none) first,
 * so the fetch cap drops small icons rather than large ones. Only the fetch order uses declared
 * sizes; ranking uses measured ones.
 *
 * Ranking tiers, best first (measured from the bytes, never from declared sizes or types):
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
 * ({@link kindPreference}), then fetch order.
 *
 * @module
 */
import type { Candidate, CandidateKind } from "./candidates.ts";

/** Kinds of declaration, preferred first; see the module doc. */
export const KIND_ORDER: readonly CandidateKind[] = Object.freeze(
  [
    "icon",
    "apple-touch-icon",
    "mask-icon",
    "manifest",
    "favicon",
    "json-ld",
    "og:image",
  ] as const,
);

/**
 * Preference of a kind: lower is preferred; orders fetches and breaks ties in ranking.
 *
 * @example
 * ```ts
 * kindPreference("icon") < kindPreference("og:image"); // true
 * ```
 */
export function kindPreference(kind: CandidateKind): number {
  return KIND_ORDER.indexOf(kind);
}

/** The largest smaller side a candidate declares; `any` or no `sizes` counts as largest. */
function declaredSize(c: Candidate): number {
  if (c.sizes === undefined) return Number.MAX_SAFE_INTEGER;
  let best = 0;
  for (const token of c.sizes.toLowerCase().split(/\s+/)) {
    if (token === "any") return Number.MAX_SAFE_INTEGER;
    const [w, h] = token.split("x").map(Number);
    if (Number.isFinite(w) && Number.isFinite(h)) best = Math.max(best, Math.min(w, h));
  }
  return best;
}

/**
 * The order in which to fetch candidates (see the module doc); the sort is stable, so equal
 * candidates keep their declaration order.
 *
 * @example
 * ```ts
 * fetchOrder([
 *   { url: "https://a.test/og.png", kind: "og:image" },
 *   { url: "https://a.test/16.png", kind: "icon", sizes: "16x16" },
 *   { url: "https://a.test/m.png", kind: "manifest", sizes: "512x512" },
 *   { url: "https://a.test/192.png", kind: "icon", sizes: "192x192" },
 * ]).map((c) => c.url); // 192.png, 16.png, m.png, og.png
 * ```
 */
export function fetchOrder(candidates: readonly Candidate[]): Candidate[] {
  return candidates.toSorted((a, b) =>
    kindPreference(a.kind) - kindPreference(b.kind) || declaredSize(b) - declaredSize(a)
  );
}

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
 * const candidate = { url: "https://acme.test/icon.png", kind: "icon" } as const;
 * tier({ candidate, format: "png", width: 512, height: 512, order: 0 }); // 1
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
 * const candidate = { url: "https://acme.test/favicon.ico", kind: "favicon" } as const;
 * const svgIcon = { candidate, format: "svg", width: 64, height: 64, order: 0 };
 * const favicon32 = { candidate, format: "ico", width: 32, height: 32, order: 1 };
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
 * declare const measured: Measured[]; // the candidates that fetched and measured fine
 * const best = measured.toSorted(compareMeasured)[0];
 * ```
 */
export function compareMeasured(a: Measured, b: Measured): number {
  return score(b) - score(a) ||
    kindPreference(a.candidate.kind) - kindPreference(b.candidate.kind) ||
    a.order - b.order;
}
