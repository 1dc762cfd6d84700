/**
 * One search of a site for its logo, within one time budget: home page → candidates (links,
 * manifests, fallbacks, JSON-LD, og:image; see `candidates.ts`) → fetch and measure each
 * (sniffed, never trusted; at most `parallelFetches` at once) → rank (`rank.ts`) → fully decode
 * the best until one works. Stores nothing: `discover.ts` decides what to keep.
 *
 * When nothing usable is found, the search says why: `unreachable` when the home page or an icon
 * could not be fetched for network reasons (DNS, connection, TLS, timeout, or the budget ran out
 * first), otherwise `no-icon`.
 *
 * The same search also chooses the site's wordmark (`wordmark_search.ts`): its header logo and
 * declared logos are fetched in the same pool and budget, after the icon candidates. Finding one
 * or not never changes the icon chosen nor the failure reported.
 *
 * @module
 */
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { bimiCandidate, type TxtLookup } from "./bimi.ts";
import { pool } from "./bounded_concurrency.ts";
import type { Candidate } from "./candidate.ts";
import { extractCandidates, manifestCandidates, MAX_CANDIDATES } from "./candidates.ts";
import { type FailureKind, isNetworkFailure } from "./failure_memory.ts";
import {
  decodeText,
  failureReason,
  IMAGE_ACCEPT,
  MANIFEST_ACCEPT,
  type SiteFetcher,
  upgraded,
} from "./fetch_site.ts";
import { type ImageFacts, measureImage, verifyImage } from "./measure_image.ts";
import { compareMeasured, explain, fetchOrder, type Measured, refusal } from "./rank.ts";
import type { WordmarkCandidate } from "./wordmark_candidate.ts";
import {
  chooseWordmark,
  type FoundWordmark,
  MAX_WORDMARK_FETCHES,
  type TriedWordmark,
} from "./wordmark_search.ts";

export type { FoundWordmark, TriedWordmark } from "./wordmark_search.ts";

/** What one candidate turned out to be. */
export interface TriedCandidate {
  /** Its URL. */
  url: string;
  /** Where it was declared. */
  kind: Candidate["kind"];
  /** "png 512x512", or why it was refused ("HTML, not an image", "Refused 127.0.0.1: …"). */
  result: string;
}

/** What a search needs. */
export interface SearchOptions {
  /** Fetches pages and icons. */
  fetcher: SiteFetcher;
  /** Probes and decodes fetched bytes. */
  imaging: ImageWork;
  /** Time budget of the whole search in ms. */
  budgetMs: number;
  /** Candidates fetched at most. */
  maxFetches: number;
  /** Candidate fetches in flight at once. */
  parallelFetches: number;
  /** Aborting it cuts the search short, as if its budget ran out. */
  signal?: AbortSignal;
  /** TXT lookups for the domain's BIMI record (`bimi.ts`); none: BIMI is not read. */
  lookupTxt?: TxtLookup;
}

/** What a search found. */
export interface SearchResult {
  /** The best candidate that fully decoded, with its verified bytes. */
  winner?: { measured: Measured; bytes: Uint8Array };
  /** Every candidate fetched, in fetch order. */
  tried: TriedCandidate[];
  /** The home page's final URL, when one was fetched. */
  page?: string;
  /** Why the home page could not be read, when it could not. */
  pageError?: string;
  /**
   * Why the winner won (its tier and what it is, `rank.ts`), then what it ranked ahead of: the
   * runners-up, best first (at most three).
   */
  why: string[];
  /** Why there is no winner (meaningful only then). */
  failure: { kind: FailureKind; reason: string };
  /** The site's wordmark, when it shows or declares a usable one. */
  wordmark?: FoundWordmark;
  /** Every wordmark candidate, in candidate order, with what it turned out to be. */
  wordmarkTried: TriedWordmark[];
}

/** One fetch of the search: an icon candidate's, or a wordmark candidate's alone. */
interface Job {
  url: string;
  bytes?: Uint8Array;
  facts?: ImageFacts;
  result: string;
  /** Not answered: not fetched before the budget ran out, or a network-level failure. */
  unanswered: boolean;
}

interface Fetched extends Job {
  candidate: Candidate;
  order: number;
}

/**
 * Searches `domain`'s site for its logo; see the module doc.
 *
 * @example
 * ```ts
 * import { startImagePool } from "../../imagecore/image_pool.ts";
 * import { createSiteFetcher } from "./fetch_site.ts";
 * const pool = startImagePool();
 * const result = await searchSite("acme.test", {
 *   fetcher: createSiteFetcher(),
 *   imaging: pool,
 *   budgetMs: 10_000,
 *   maxFetches: 12,
 *   parallelFetches: 4,
 * });
 * console.log(result.winner?.measured.candidate.url ?? result.failure.reason);
 * await pool.close();
 * ```
 */
export async function searchSite(domain: string, options: SearchOptions): Promise<SearchResult> {
  const budget = new AbortController();
  const stop = () => budget.abort();
  const timer = setTimeout(stop, options.budgetMs);
  options.signal?.addEventListener("abort", stop);
  if (options.signal?.aborted) stop();
  try {
    return await searchWithin(domain, budget.signal, options);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", stop);
  }
}

/** The candidates of `domain`, in fetch order, with the page they came from. */
async function collect(domain: string, signal: AbortSignal, options: SearchOptions) {
  const { fetcher, lookupTxt } = options;
  const [home, bimi] = await Promise.all([
    fetcher.homePage(domain, signal),
    lookupTxt ? bimiCandidate(domain, lookupTxt, signal) : undefined,
  ]);
  const { page, reachable, errors, networkFailure } = home;
  const brand = bimi ? [bimi] : [];
  if (page === undefined) {
    const fallbacks = fetchOrder([
      ...brand,
      ...(reachable ? extractCandidates("", reachable).candidates : []),
    ]);
    // Nothing answered on either scheme, and not because we refused to connect.
    const unreachable = reachable === undefined && networkFailure;
    const wordmarks: WordmarkCandidate[] = [];
    return { candidates: fallbacks, pageError: errors.join("; "), unreachable, wordmarks };
  }
  const type = page.headers.get("content-type") ?? "";
  const html = /html|xml/i.test(type) || type === "" ? decodeText(page.body, type) : "";
  const found = extractCandidates(html, page.url, domain);
  const fromManifests = (await Promise.all(found.manifests.map(async (url) => {
    try {
      const manifest = await fetcher.get(upgraded(url, page.url), signal, MANIFEST_ACCEPT);
      return manifestCandidates(decodeText(manifest.body, ""), manifest.url);
    } catch {
      return []; // An unreadable manifest declares nothing.
    }
  }))).flat();
  const seen = new Set<string>();
  const ordered = fetchOrder([...brand, ...found.candidates, ...fromManifests])
    .map((c) => ({ ...c, url: upgraded(c.url, page.url) }))
    .filter((c) => !seen.has(c.url) && seen.add(c.url));
  const candidates = ordered.slice(0, Math.min(options.maxFetches, MAX_CANDIDATES));
  const wordmarks = found.wordmarks.map((w) =>
    w.inline ? w : { ...w, url: upgraded(w.url, page.url) }
  );
  return { candidates, page: page.url, unreachable: false, wordmarks };
}

async function searchWithin(
  domain: string,
  signal: AbortSignal,
  options: SearchOptions,
): Promise<SearchResult> {
  const found = await collect(domain, signal, options);
  const { candidates, page, pageError, unreachable, wordmarks } = found;
  const unfetched = { result: "not fetched: time budget exhausted", unanswered: true };
  const fetched: Fetched[] = candidates.map((candidate, order) => ({
    candidate,
    order,
    url: candidate.url,
    ...unfetched,
  }));
  // Wordmark candidates no icon candidate fetches, after the icons: at most MAX_WORDMARK_FETCHES.
  const wordmarkOnly: Job[] = wordmarks
    .filter((w) => w.inline === undefined && !fetched.some((f) => f.url === w.url))
    .slice(0, MAX_WORDMARK_FETCHES)
    .map((w) => ({ url: w.url, ...unfetched }));
  await pool<Job>([...fetched, ...wordmarkOnly], options.parallelFetches, async (entry) => {
    if (signal.aborted) return;
    try {
      const response = await options.fetcher.get(entry.url, signal, IMAGE_ACCEPT);
      entry.unanswered = false;
      entry.facts = await measureImage(response.body, options.imaging);
      entry.bytes = response.body;
      entry.result = `${entry.facts.format} ${entry.facts.width}x${entry.facts.height}`;
    } catch (error) {
      entry.unanswered = isNetworkFailure(error);
      entry.result = failureReason(error);
    }
  });
  const measured: (Measured & { entry: Fetched })[] = fetched
    .filter((f) => f.facts !== undefined)
    .map((f) => ({ ...f.facts!, candidate: f.candidate, order: f.order, entry: f }))
    .filter((m) => {
      const refused = refusal(m);
      if (refused !== undefined) m.entry.result = `${m.entry.result}: ${refused}`;
      return refused === undefined;
    });
  measured.sort(compareMeasured);
  let winner: SearchResult["winner"];
  let why: string[] = [];
  for (const [i, m] of measured.entries()) {
    try {
      const bytes = await verifyImage(m.entry.bytes!, m.entry.facts!, options.imaging);
      winner = { measured: m, bytes };
      const behind = measured.slice(i + 1, i + 4);
      why = [explain(m), ...behind.map((r) => `ahead of ${r.candidate.url}: ${explain(r)}`)];
      break;
    } catch (error) {
      m.entry.result = `${m.entry.result}: ${failureReason(error)}`;
    }
  }
  const tried = fetched.map((f) => ({
    url: f.candidate.url,
    kind: f.candidate.kind,
    result: f.result,
  }));
  // Icons that could not be fetched for network reasons leave the question open.
  const cutShort = fetched.find((f) => f.unanswered);
  const failure: SearchResult["failure"] = unreachable
    ? { kind: "unreachable", reason: pageError ?? "no answer" }
    : cutShort !== undefined
    ? { kind: "unreachable", reason: `${cutShort.candidate.url}: ${cutShort.result}` }
    : { kind: "no-icon", reason: noIconReason(page, pageError, fetched.length) };
  const jobs = new Map<string, Job>([...fetched, ...wordmarkOnly].map((job) => [job.url, job]));
  const { wordmark, tried: wordmarkTried } = await chooseWordmark(
    wordmarks,
    jobs,
    options.imaging,
    signal,
  );
  return { winner, tried, page, pageError, why, failure, wordmark, wordmarkTried };
}

/** Why nothing usable was found although the site answered, in one line. */
function noIconReason(page: string | undefined, pageError: string | undefined, tried: number) {
  const where = page === undefined ? `home page unusable: ${pageError ?? "no answer"}` : "answered";
  return tried === 0 ? `${where}; no icon declared` : `${where}; none of ${tried} icons usable`;
}
