/**
 * Logo discovery: find a domain's logo (its icon) and its wordmark on its own website, safely,
 * and store them.
 *
 * This module puts the steps together; each lives in its own file:
 *
 * - when to look, and whether a find replaces the stored logo: `skip_or_refresh.ts`;
 * - the same for the wordmark, stored through `DiscoveryConfig.wordmarks`: `discover_wordmark.ts`
 *   (a domain whose icon needs no look is searched for its wordmark alone when that is due);
 * - the search itself (home page, candidates, fetch, measure, rank, decode): `search_site.ts`,
 *   over `fetch_site.ts` (every connection through `safeFetch`), `candidates.ts` and `rank.ts`;
 * - what is remembered in KV: `found_memory.ts` (a logo found) and `failure_memory.ts` (none
 *   found: a day for "no usable icon", a short growing delay for network-level failures), and
 *   `wordmark_memory.ts` (the wordmark stored, or that there was none);
 * - concurrency: one discovery per domain at a time (concurrent callers share it, through
 *   `SingleFlight`), at most `maxConcurrent` domains at once (`bounded_concurrency.ts`).
 *
 * Each failed discovery is logged once, with its reason. A discovery cut short by shutdown
 * (`signal`) remembers nothing.
 *
 * @module
 */
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { SingleFlight } from "../single_flight.ts";
import { bimiLookup, type NameServer, type TxtLookup } from "./bimi.ts";
import { semaphore } from "./bounded_concurrency.ts";
import type { ConnectToMap } from "./connect_to.ts";
import {
  describeFailure,
  NEGATIVE_TTL_MS,
  readMissing,
  rememberFailure,
} from "./failure_memory.ts";
import { createSiteFetcher } from "./fetch_site.ts";
import { dueDomains, type FoundEntry, readFound, recordFound, touchFound } from "./found_memory.ts";
import { score } from "./rank.ts";
import { resolveWithDeno } from "./pin_address.ts";
import type { Resolver } from "./safe_fetch.ts";
import { type SearchResult, searchSite } from "./search_site.ts";
import {
  isDue,
  type Prior,
  priorOf,
  REFRESH_AFTER_MS,
  replaces,
  skipReason,
} from "./skip_or_refresh.ts";
import { wordmarkKeeper, type WordmarkOutcome } from "./discover_wordmark.ts";
import type { LogoSink } from "./logo_sink.ts";
import type { DiscoveryOutcome } from "./discovery_outcome.ts";

export type { MissingEntry } from "./failure_memory.ts";
export type { FoundEntry } from "./found_memory.ts";
export type { FoundWordmark, TriedCandidate, TriedWordmark } from "./search_site.ts";
export type { WordmarkOutcome, WordmarkStatus } from "./discover_wordmark.ts";
export type { LogoSink } from "./logo_sink.ts";
export type { DiscoveryOutcome } from "./discovery_outcome.ts";

/** Configuration of {@link createDiscovery}; everything is injected, nothing read from env. */
export interface DiscoveryConfig {
  /** Where the negative cache and discovery bookkeeping live. */
  kv: Deno.Kv;
  /** Where winners are stored (a `LogoStore`, itself given `imaging` for untrusted bytes). */
  store: LogoSink;
  /**
   * Where wordmarks found are stored: `logosOfType(logos, "logo")` of the same `LogoStore`
   * (`src/store/typed_logo_store.ts`). Absent: wordmarks are returned, not stored or remembered.
   */
  wordmarks?: LogoSink;
  /** Where fetched bytes are probed and decoded: an image pool (`imagecore/image_pool.ts`). */
  imaging: ImageWork;
  /** `LOGO_CONNECT_TO` overrides (parsed with `parseConnectTo`). */
  connectTo?: ConnectToMap;
  /** Name resolution; default `Deno.resolveDns` (on `dnsServer` when set). */
  resolve?: Resolver;
  /** `LOGO_DNS_SERVER`: the name server of every lookup (A, AAAA, BIMI TXT); default the system's. */
  dnsServer?: NameServer;
  /** BIMI TXT lookups; default per `bimiLookup` (`bimi.ts`). */
  lookupTxt?: TxtLookup;
  /** PEM certificates trusted instead of the default roots (tests, private deployments). */
  caCerts?: string[];
  /** Epoch-ms clock; default `Date.now`. */
  clock?: () => number;
  /** Time budget of one discovery in ms; default 10 000. */
  budgetMs?: number;
  /** Byte cap per response; default 5 MiB. */
  maxBytes?: number;
  /**
   * How long "the site answered and has no usable icon" is remembered, and "no wordmark" when the
   * home page could not be read; default one day.
   */
  negativeTtlMs?: number;
  /** First retry delay after a network-level failure; default 1 min (doubling per failure). */
  retryBaseMs?: number;
  /** Longest retry delay after network-level failures; default 1 h. */
  retryMaxMs?: number;
  /** Where each failed discovery is reported, once, with its reason; default: nowhere. */
  log?: (message: string) => void;
  /** Age after which a discovered logo or wordmark, or "no wordmark", is looked at again; 30 days. */
  refreshAfterMs?: number;
  /** Candidates fetched per discovery at most; default 12. */
  maxFetches?: number;
  /** Candidate fetches in flight per discovery; default 4. */
  parallelFetches?: number;
  /** Domains discovered at once; more wait their turn. Default 8. */
  maxConcurrent?: number;
  /** Aborting it cuts every discovery short, as if its budget ran out (for shutdown). */
  signal?: AbortSignal;
}

/** Options of one {@link Discovery.discover} call. */
export interface DiscoverOptions {
  /** Ignore the negative cache and freshness, and replace even an operator's logo or wordmark. */
  force?: boolean;
}

/** A discovery service; see the module doc. */
export interface Discovery {
  /** Discovers (or skips, see {@link DiscoveryOutcome}) the logo of a normalised `domain`. */
  discover(domain: string, options?: DiscoverOptions): Promise<DiscoveryOutcome>;
  /**
   * Looks again, one domain after the other, for at most `limit` (default 50) discovered logos,
   * then discovered wordmarks, older than the refresh age; a worse find never replaces the stored
   * logo.
   */
  refreshStale(limit?: number): Promise<DiscoveryOutcome[]>;
}

/**
 * Creates the discovery service.
 *
 * @example
 * ```ts
 * import { startImagePool } from "../../imagecore/image_pool.ts";
 * import { LogoStore } from "../store/logo_store.ts";
 * import { logosOfType } from "../store/typed_logo_store.ts";
 * import { parseConnectTo } from "./connect_to.ts";
 *
 * const kv = await Deno.openKv(":memory:");
 * const pool = startImagePool();
 * const connectTo = parseConnectTo("acme.test:80:127.0.0.1:8081");
 * const store = new LogoStore(kv, { imaging: pool });
 * const wordmarks = logosOfType(store, "logo");
 * const discovery = createDiscovery({ kv, store, wordmarks, imaging: pool, connectTo });
 * const outcome = await discovery.discover("acme.test");
 * console.log(outcome.status, outcome.source, outcome.wordmarkOutcome?.status);
 * ```
 */
export function createDiscovery(config: DiscoveryConfig): Discovery {
  const clock = config.clock ?? Date.now;
  const refreshAfterMs = config.refreshAfterMs ?? REFRESH_AFTER_MS;
  const acquire = semaphore(config.maxConcurrent ?? 8);
  const running = new SingleFlight<string, DiscoveryOutcome>();
  const { kv, store } = config;
  const log = config.log ?? (() => {});
  const negativeTtlMs = config.negativeTtlMs ?? NEGATIVE_TTL_MS;
  const keeper = config.wordmarks && wordmarkKeeper({
    kv,
    wordmarks: config.wordmarks,
    clock,
    refreshAfterMs,
    negativeTtlMs,
    log,
    signal: config.signal,
  });
  const dnsServer = config.dnsServer;
  const resolve = config.resolve ??
    (dnsServer
      ? (host: string, signal?: AbortSignal) => resolveWithDeno(host, signal, dnsServer)
      : undefined);
  const search = {
    fetcher: createSiteFetcher({ ...config, resolve }),
    lookupTxt: bimiLookup(config),
    imaging: config.imaging,
    budgetMs: config.budgetMs ?? 10_000,
    maxFetches: config.maxFetches ?? 12,
    parallelFetches: config.parallelFetches ?? 4,
    signal: config.signal,
  };

  async function run(domain: string, options: DiscoverOptions): Promise<DiscoveryOutcome> {
    const force = options.force === true;
    const [record, found, plan] = await Promise.all([
      store.get(domain),
      readFound(kv, domain),
      keeper?.plan(domain, force),
    ]);
    const prior = priorOf(record, found);
    const skip = force ? undefined : await skipReason(prior, {
      clock,
      refreshAfterMs,
      readMissing: () => readMissing(kv, domain),
    });
    // The icon needs no look: nothing is fetched unless the wordmark is due (then the site is
    // searched for it alone, below); an icon known missing (a failing site) fetches nothing.
    if (skip !== undefined && (plan?.skip !== undefined || skip.status === "known-missing")) {
      const retryAt = skip.status === "known-missing" ? skip.retryAt : undefined;
      const wordmarkOutcome: WordmarkOutcome = plan?.skip ?? { status: "known-missing", retryAt };
      return { domain, ...skip, tried: [], ...(plan ? { wordmarkOutcome } : {}) };
    }
    if (skip !== undefined && plan === undefined) return { domain, ...skip, tried: [] };
    const searched = await searchSite(domain, search);
    const { tried, page, pageError, wordmark, wordmarkTried } = searched;
    const base: Omit<DiscoveryOutcome, "status"> = {
      domain,
      tried,
      ...(page ? { page } : {}),
      ...(pageError ? { pageError } : {}),
      ...(wordmark ? { wordmark } : {}),
      wordmarkTried,
    };
    // Stored beside the icon, not after it: the wordmark's work never delays or fails the icon.
    const kept = plan && keeper!.keep(domain, plan, searched, force);
    const icon = skip !== undefined
      ? { ...base, ...skip }
      : await keepIcon(domain, prior, searched, base, force);
    return kept ? { ...icon, wordmarkOutcome: await kept } : icon;
  }

  /** Stores the icon a search found, per `skip_or_refresh.ts`, and says what became of it. */
  async function keepIcon(
    domain: string,
    prior: Prior,
    found: SearchResult,
    base: Omit<DiscoveryOutcome, "status">,
    force: boolean,
  ): Promise<DiscoveryOutcome> {
    const { record, discovered } = prior;
    const { winner, page, why, failure } = found;
    const now = clock();
    if (winner === undefined) {
      if (record !== null) {
        if (discovered !== null) await touchFound(kv, domain, discovered, now);
        return { ...base, status: "kept" };
      }
      // Cut short by shutdown: not a verdict on the site, so nothing is remembered.
      if (config.signal?.aborted) return { ...base, status: "not-found" };
      const entry = await rememberFailure(kv, domain, failure.kind, now, failure.reason, {
        negativeTtlMs,
        retryBaseMs: config.retryBaseMs,
        retryMaxMs: config.retryMaxMs,
      });
      log(describeFailure(domain, entry));
      const { until: retryAt, reason } = entry;
      const why = reason ? { reason } : {};
      return { ...base, status: "not-found", failure: failure.kind, retryAt, ...why };
    }
    base.why = why;
    const newScore = score(winner.measured);
    const source = winner.measured.candidate.url;
    if (!replaces(prior, newScore, force)) {
      await touchFound(kv, domain, discovered!, now);
      return { ...base, status: "kept", source: discovered!.source };
    }
    const { record: stored, changed } = await store.put(domain, winner.bytes, {
      source: source.startsWith("data:") ? `${page ?? domain} (inline data: icon)` : source,
    });
    const entry: FoundEntry = { at: now, score: newScore, source, hash: stored.hash };
    await recordFound(kv, domain, entry);
    return { ...base, status: changed ? "stored" : "unchanged", source };
  }

  function discover(domain: string, options: DiscoverOptions = {}): Promise<DiscoveryOutcome> {
    return running.run(domain, async () => {
      const release = await acquire();
      try {
        return await run(domain, options);
      } finally {
        release();
      }
    });
  }

  async function refreshStale(limit = 50): Promise<DiscoveryOutcome[]> {
    const due = (found: FoundEntry) => isDue(found, clock(), refreshAfterMs);
    const domains = await dueDomains(kv, store, due, limit);
    for (const domain of await keeper?.due(limit - domains.length) ?? []) {
      if (!domains.includes(domain)) domains.push(domain);
    }
    const outcomes: DiscoveryOutcome[] = [];
    for (const domain of domains) outcomes.push(await discover(domain));
    return outcomes;
  }

  return { discover, refreshStale };
}
