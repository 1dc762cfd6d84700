/**
 * What a logo candidate is: one place a site declares a logo may be ({@link Candidate}), and the
 * kinds of declaration ({@link CandidateKind}) in their order of preference ({@link KIND_ORDER}).
 * `candidates.ts` reads a page in that order, `bimi.ts` adds the BIMI one, and `rank.ts` breaks
 * ties with it.
 *
 * @example
 * ```ts
 * import { type Candidate, kindPreference } from "./candidate.ts";
 * const candidate: Candidate = { url: "https://acme.test/favicon.ico", kind: "favicon" };
 * kindPreference(candidate.kind); // 9
 * ```
 * @module
 */

/** Kinds of declaration, preferred first on ties; `candidates.ts` reads a page in this order. */
export const KIND_ORDER = Object.freeze(
  [
    "bimi",
    "icon",
    "apple-touch-icon",
    "fluid-icon",
    "manifest",
    "msapplication",
    "json-ld",
    "og:logo",
    "itemprop-logo",
    "favicon",
    "mask-icon",
    "og:image",
  ] as const,
);

/** Which kind of declaration a candidate came from. */
export type CandidateKind = (typeof KIND_ORDER)[number];

/** One place a logo may be. */
export interface Candidate {
  /** Absolute URL (`http:`, `https:` or `data:`). */
  url: string;
  /** What declared it. */
  kind: CandidateKind;
  /** Declared `sizes` (a hint, e.g. "32x32 64x64" or "any"); never trusted. */
  sizes?: string;
  /** Declared MIME type (a hint); never trusted. */
  type?: string;
}

/**
 * Preference of a kind: lower is preferred; breaks ties in fetch order and ranking.
 *
 * @example
 * ```ts
 * kindPreference("icon") < kindPreference("og:image"); // true
 * ```
 */
export function kindPreference(kind: CandidateKind): number {
  return KIND_ORDER.indexOf(kind);
}
