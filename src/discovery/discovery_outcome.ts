/**
 * What one discovery (`discover.ts`) answers: what became of the domain's icon (`status`), what
 * the search tried and found, and what became of its wordmark (`wordmarkOutcome`).
 *
 * @module
 */
import type { WordmarkOutcome } from "./discover_wordmark.ts";
import type { FailureKind } from "./failure_memory.ts";
import type { FoundWordmark, TriedCandidate, TriedWordmark } from "./search_site.ts";

/** The outcome of a discovery. */
export interface DiscoveryOutcome {
  /** The domain. */
  domain: string;
  /**
   * - `stored`: a logo was found and stored (new, or better/equal and different);
   * - `unchanged`: the logo found is the one already stored;
   * - `kept`: the stored logo was kept (what was found ranks worse, or nothing was found);
   * - `fresh`: a discovered logo younger than the refresh age exists; it is not looked for (the
   *   site is searched only when its wordmark is due: see {@link DiscoveryOutcome.wordmarkOutcome});
   * - `operator`: an operator-added logo exists; it is not looked for (likewise);
   * - `known-missing`: "no logo found" is remembered, nothing fetched;
   * - `not-found`: no usable logo; remembered (see {@link DiscoveryOutcome.failure}).
   */
  status: "stored" | "unchanged" | "kept" | "fresh" | "operator" | "known-missing" | "not-found";
  /**
   * With `not-found` and `known-missing`: `no-icon` (the site answered, no usable icon; looked
   * for again after a day) or `unreachable` (DNS, connection, TLS or timeout; retried soon).
   */
  failure?: FailureKind;
  /** With `not-found` and `known-missing`: when discovery will look again (epoch ms). */
  retryAt?: number;
  /** With `not-found` and `known-missing`: why nothing was found (URLs without query strings). */
  reason?: string;
  /** The winning candidate's URL, when one was found. */
  source?: string;
  /** The home page's final URL, when one was fetched. */
  page?: string;
  /** Every candidate fetched, in fetch order. */
  tried: TriedCandidate[];
  /** With a winner: why it won (its rank reasons) and what it ranked ahead of. */
  why?: string[];
  /** Why the home page could not be read, when it could not. */
  pageError?: string;
  /**
   * The site's wordmark (its horizontal logo), when the search found one: its bytes (an SVG
   * stays SVG), source, kind and why (`wordmark_search.ts`). Present whenever the site was
   * searched, whatever the icon's `status`; what became of it is `wordmarkOutcome`.
   */
  wordmark?: FoundWordmark;
  /** When the site was searched: every wordmark candidate and what it turned out to be. */
  wordmarkTried?: TriedWordmark[];
  /**
   * With `DiscoveryConfig.wordmarks` (`discover.ts`): what became of the domain's wordmark (stored, kept, …),
   * whether or not the site was searched. Its failures never change the icon's outcome.
   */
  wordmarkOutcome?: WordmarkOutcome;
}
