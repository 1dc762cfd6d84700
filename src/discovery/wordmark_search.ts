/**
 * The wordmark part of one search (`search_site.ts`): from the wordmark candidates of a home page
 * (`candidates.ts`, `header_logos.ts`) and what the search fetched for them, the site's wordmark.
 *
 * Declared and `<img>` candidates are fetched by the search with its icons (the same safe fetch,
 * budget and pool; a URL that is also an icon candidate is fetched once, and at most
 * {@link MAX_WORDMARK_FETCHES} more are fetched for wordmarks alone). Inline `<svg>` logos need no
 * fetch. Each is sniffed and measured from its bytes (`measure_image.ts`), ranked by
 * `wordmark_rank.ts`, and the best one that fully decodes (an SVG is rasterised once by imagecore
 * to prove it renders) is the wordmark, returned with its original bytes: an SVG stays an SVG.
 *
 * @module
 */
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { failureReason } from "./fetch_site.ts";
import { type ImageFacts, measureImage, verifyImage } from "./measure_image.ts";
import type { WordmarkCandidate, WordmarkKind } from "./wordmark_candidate.ts";
import {
  compareWordmarks,
  explainWordmark,
  type MeasuredWordmark,
  wordmarkRefusal,
} from "./wordmark_rank.ts";

/** Wordmark candidates fetched at most beyond the icon candidates that share their URL. */
export const MAX_WORDMARK_FETCHES = 4;

/** The wordmark a search found. */
export interface FoundWordmark {
  /** Its URL; an inline `<svg>` is the page's URL with `#inline-svg-N`. */
  source: string;
  /** Where it was shown or declared. */
  kind: WordmarkKind;
  /** Sniffed format ("svg", "png", …). */
  format: string;
  /** Width in px (an SVG's intrinsic width). */
  width: number;
  /** Height in px. */
  height: number;
  /** Its bytes as fetched (or serialised, for an inline `<svg>`), verified to decode. */
  bytes: Uint8Array;
  /** Why it won (its tier and what it is), then the (at most three) runners-up it ranked ahead of. */
  why: string[];
}

/** What one fetch of the search turned out to be (the search's own record of it). */
export interface FetchedImage {
  /** The bytes, when the fetch answered with an image. */
  bytes?: Uint8Array;
  /** Its measure, when it is an image. */
  facts?: ImageFacts;
  /** "png 512x512", or why it is not usable. */
  result: string;
}

/** What one wordmark candidate turned out to be. */
export interface TriedWordmark {
  /** Its URL. */
  url: string;
  /** Where it was shown or declared. */
  kind: WordmarkKind;
  /** "svg 240x48", "png 512x512: not a wordmark: …", or why it could not be used. */
  result: string;
}

/**
 * The site's wordmark among `candidates`, given what the search fetched (`fetched`, by URL; a
 * candidate absent from it was not fetched), measuring inline SVGs in `imaging`.
 *
 * @example
 * ```ts
 * import { startImagePool } from "../../imagecore/image_pool.ts";
 * const pool = startImagePool();
 * const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 40"><rect width="200" height="40"/></svg>';
 * const inline = new TextEncoder().encode(svg);
 * const candidates = [{ url: "https://acme.test/#inline-svg-1", kind: "header-svg" as const, inline }];
 * const { wordmark } = await chooseWordmark(candidates, new Map(), pool);
 * wordmark?.source; // "https://acme.test/#inline-svg-1"
 * await pool.close();
 * ```
 */
export async function chooseWordmark(
  candidates: readonly WordmarkCandidate[],
  fetched: ReadonlyMap<string, FetchedImage>,
  imaging: ImageWork,
  signal?: AbortSignal,
): Promise<{ wordmark?: FoundWordmark; tried: TriedWordmark[] }> {
  const tried: TriedWordmark[] = [];
  const wide: (MeasuredWordmark & { bytes: Uint8Array; entry: TriedWordmark })[] = [];
  for (const [order, candidate] of candidates.entries()) {
    let image: FetchedImage | undefined = fetched.get(candidate.url);
    if (candidate.inline !== undefined && !signal?.aborted) {
      try {
        const facts = await measureImage(candidate.inline, imaging);
        image = {
          bytes: candidate.inline,
          facts,
          result: `${facts.format} ${facts.width}x${facts.height}`,
        };
      } catch (error) {
        image = { result: failureReason(error) };
      }
    }
    const entry = { url: candidate.url, kind: candidate.kind, result: "not fetched" };
    tried.push(entry);
    if (image === undefined) continue;
    entry.result = image.result;
    if (image.facts === undefined || image.bytes === undefined) continue;
    const { format, width, height } = image.facts;
    const measured = { candidate, format, width, height, order, bytes: image.bytes, entry };
    entry.result = `${format} ${width}x${height}`;
    const refused = wordmarkRefusal(measured);
    if (refused !== undefined) entry.result += `: ${refused}`;
    else wide.push(measured);
  }
  wide.sort(compareWordmarks);
  for (const [i, m] of wide.entries()) {
    if (signal?.aborted) break;
    try {
      await verifyImage(m.bytes, m, imaging);
      const behind = wide.slice(i + 1, i + 4);
      const why = [
        explainWordmark(m),
        ...behind.map((r) => `ahead of ${r.candidate.url}: ${explainWordmark(r)}`),
      ];
      const { candidate, format, width, height, bytes } = m;
      return {
        wordmark: {
          source: candidate.url,
          kind: candidate.kind,
          format,
          width,
          height,
          bytes,
          why,
        },
        tried,
      };
    } catch (error) {
      m.entry.result += `: ${failureReason(error)}`;
    }
  }
  return { tried };
}
