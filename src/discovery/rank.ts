/**
 * The one place candidates are ranked: which are worth fetching first ({@link fetchOrder}), which
 * fetched images are not logos at all ({@link refusal}), and which of the rest is the logo
 * ({@link compareMeasured}, with its reasons in {@link explain}). Ties go to the preferred kind of
 * declaration (`KIND_ORDER` in `candidate.ts`).
 *
 * Ranking tiers, best first, measured from the bytes (never from declared sizes or types).
 * "Square" means the longer side is at most 1.25 × the shorter one.
 *
 * 0. a square BIMI logo (the SVG a domain's `default._bimi` DNS record names; `bimi.ts`);
 * 1. a square SVG (a vector scales crisply to every size);
 * 2. a square raster whose side is 256 px or more;
 * 3. a square raster of 64–255 px (e.g. a 180-px apple-touch-icon);
 * 4. a square raster of 32–63 px;
 * 5. a non-square image, SVG or raster (e.g. a 600×60 wordmark): a square logo slot shows it
 *    tiny, so square marks of 32 px or more beat it;
 * 6. a square raster of 16–31 px (a small favicon);
 * 7. a mask icon (`rel=mask-icon`, a one-colour Safari silhouette): last resort, below any colour
 *    icon;
 * 8. an `og:image` (it describes the page — an article photo, a cover — not the brand): last.
 *
 * Within a tier the larger smaller side wins, then the preferred declaration
 * ({@link kindPreference}), then fetch order. A raster smaller than {@link MIN_SIDE} px on a
 * side (a 1×1 GIF) is not a logo. Mask icons and og:images keep their tier whatever their shape.
 *
 * Fetch order (before the fetch cap): by the score a candidate would have if it were what it
 * declares — declared `sizes`, a size in its file name (`-192.png`, `180x180`, `_450x.png`),
 * an SVG `type` or extension, or else the usual size of its kind (an apple-touch-icon, declared or
 * at `/apple-touch-icon.png`, is 180 px; a favicon 32 px) — so the cap drops the candidates least
 * likely to win. The conventional URLs nobody declared are guesses, often missing or duplicates:
 * they are fetched as if one tier lower.
 *
 * @module
 */
import { type Candidate, type CandidateKind, kindPreference } from "./candidate.ts";

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
/** A square raster at least this large on its side is the best raster tier. */
export const LARGE_SIDE = 256;
/** A square raster at least this large beats non-square logos. */
export const ADEQUATE_SIDE = 32;
/** A raster smaller than this on its smaller side is not a logo. */
export const MIN_SIDE = 16;

const TIER_NAMES = [
  "square BIMI logo (the SVG its DNS record names)",
  "square SVG (scales to any size)",
  "square raster of 256 px or more",
  "square raster of 64-255 px",
  "square raster of 32-63 px",
  "non-square image (below square icons of 32 px or more)",
  "square raster of 16-31 px",
  "mask icon (one-colour silhouette): last resort",
  "og:image (describes the page, not the brand): last resort",
] as const;
const TIERS = TIER_NAMES.length;

function aspect(m: Pick<Measured, "width" | "height">): number {
  const small = Math.max(1, Math.min(m.width, m.height));
  return Math.max(m.width, m.height) / small;
}

/**
 * Why a measured image is not a logo at all, or undefined: a raster under {@link MIN_SIDE} px.
 *
 * @example
 * ```ts
 * const candidate = { url: "https://acme.test/spacer.gif", kind: "icon" } as const;
 * refusal({ candidate, format: "gif", width: 1, height: 1, order: 0 }); // "too small to be a logo (under 16 px)"
 * ```
 */
export function refusal(m: Measured): string | undefined {
  if (m.candidate.kind === "bimi" && m.format !== "svg") return "a BIMI logo must be an SVG";
  if (m.format === "svg") return undefined;
  return Math.min(m.width, m.height) < MIN_SIDE
    ? `too small to be a logo (under ${MIN_SIDE} px)`
    : undefined;
}

/**
 * The tier of a measured candidate (0 is best, 8 is an og:image); see the module doc.
 *
 * @example
 * ```ts
 * const candidate = { url: "https://acme.test/icon.png", kind: "icon" } as const;
 * tier({ candidate, format: "png", width: 512, height: 512, order: 0 }); // 2
 * ```
 */
export function tier(m: Measured): number {
  const kind = m.candidate.kind;
  if (kind === "og:image") return 8;
  if (kind === "mask-icon") return 7;
  if (aspect(m) > SQUARE_ASPECT) return 5;
  if (kind === "bimi" && m.format === "svg") return 0;
  const side = Math.min(m.width, m.height);
  if (m.format === "svg") return 1;
  if (side >= LARGE_SIDE) return 2;
  if (side >= 64) return 3;
  if (side >= ADEQUATE_SIDE) return 4;
  return 6;
}

/**
 * A number that orders candidates across discoveries: higher is better. Used to refuse replacing
 * a stored logo with a worse one on refresh. Every score is at least 1 000 000, above every score
 * of the ranking before these tiers (at most 799 999), so a refresh re-picks under these rules.
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
  return (TIERS - tier(m)) * 1_000_000 + side;
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

/**
 * Why a candidate ranks where it does, in one line: its tier and what it is.
 *
 * @example
 * ```ts
 * const candidate = { url: "https://acme.test/t.png", kind: "apple-touch-icon" } as const;
 * explain({ candidate, format: "png", width: 180, height: 180, order: 0 });
 * // "tier 3 of 0-8, square raster of 64-255 px: png 180x180 from apple-touch-icon"
 * ```
 */
export function explain(m: Measured): string {
  const t = tier(m);
  return `tier ${t} of 0-${TIERS - 1}, ${TIER_NAMES[t]}: ` +
    `${m.format} ${m.width}x${m.height} from ${m.candidate.kind}`;
}

/** A guessed conventional URL is fetched as if one tier lower: often missing or a duplicate. */
const GUESS_PENALTY = 1_000_000;

/** The usual smaller side of a kind that declares no size. */
const USUAL_SIDE: Record<CandidateKind, number> = {
  "bimi": 512,
  "icon": 32,
  "apple-touch-icon": 180,
  "fluid-icon": 512,
  "manifest": 192,
  "msapplication": 144,
  "json-ld": 256,
  "og:logo": 256,
  "itemprop-logo": 256,
  "favicon": 32,
  "mask-icon": 16,
  "og:image": 630,
};

/** The largest smaller side in `sizes` ("32x32 64x64"), "any" as Infinity, or undefined. */
function declaredSide(sizes: string | undefined): number | undefined {
  let best: number | undefined;
  for (const token of (sizes ?? "").toLowerCase().split(/\s+/)) {
    if (token === "any") return Infinity;
    const [w, h] = token.split("x").map(Number);
    if (w > 0 && h > 0) best = Math.max(best ?? 0, Math.min(w, h));
  }
  return best;
}

/** A size in the file name: `180x180`, `-192.png`, `_450x.png`; else undefined. */
function nameSide(url: string): number | undefined {
  if (url.startsWith("data:")) return undefined;
  const name = new URL(url).pathname.split("/").pop() ?? "";
  const pair = /(\d{2,4})x(\d{2,4})/i.exec(name);
  const side = pair
    ? Math.min(Number(pair[1]), Number(pair[2]))
    : Number(/[-_.@](\d{2,4})x?\.[a-z]+$/i.exec(name)?.[1] ?? NaN);
  return side > 0 && side <= 4096 ? side : undefined;
}

/**
 * What a candidate would measure as if it were what it declares (see the module doc).
 *
 * @example
 * ```ts
 * expected({ url: "https://a.test/favicon-192.png", kind: "icon" }, 0).width; // 192
 * ```
 */
export function expected(c: Candidate, order: number): Measured {
  const declared = declaredSide(c.sizes);
  const svg = declared === Infinity || /svg/i.test(c.type ?? "") ||
    (!c.url.startsWith("data:") && /\.svgz?$/i.test(new URL(c.url).pathname)) ||
    c.url.startsWith("data:image/svg");
  const touch = c.kind === "favicon" && c.url.includes("/apple-touch-icon");
  const side = (declared === Infinity ? undefined : declared) ?? nameSide(c.url) ??
    (touch ? USUAL_SIDE["apple-touch-icon"] : USUAL_SIDE[c.kind]);
  return { candidate: c, format: svg ? "svg" : "png", width: side, height: side, order };
}

/**
 * The order in which to fetch candidates: by expected score, then kind preference, then
 * declaration order (see the module doc).
 *
 * @example
 * ```ts
 * fetchOrder([
 *   { url: "https://a.test/og.png", kind: "og:image" },
 *   { url: "https://a.test/favicon-16.png", kind: "icon" },
 *   { url: "https://a.test/m.png", kind: "manifest", sizes: "512x512" },
 *   { url: "https://a.test/touch.png", kind: "apple-touch-icon" },
 * ]).map((c) => c.url); // m.png, touch.png, favicon-16.png, og.png
 * ```
 */
export function fetchOrder(candidates: readonly Candidate[]): Candidate[] {
  const value = (m: Measured) => score(m) - (m.candidate.kind === "favicon" ? GUESS_PENALTY : 0);
  return candidates.map((c, i) => expected(c, i))
    .sort((a, b) => value(b) - value(a) || compareMeasured(a, b))
    .map((m) => m.candidate);
}
