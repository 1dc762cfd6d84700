/**
 * Logo discovery: find a domain's logo on its own website, safely, and store it.
 *
 * This module puts the steps together; each lives in its own file:
 *
 * - when to look, and whether a find replaces the stored logo: `skip_or_refresh.ts`;
 * - the search itself (home page, candidates, fetch, measure, rank, decode): `search_site.ts`,
 *   over `fetch_site.ts` (every connection through `safeFetch`), `candidates.ts` and `rank.ts`;
 * - what is remembered in KV: `found_memory.ts` (a logo found) and `failure_memory.ts` (none
 *   found: a day for "no usable icon", a short growing delay for network-level failures);
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
  type FailureKind,
  NEGATIVE_TTL_MS,
  readMissing,
  rememberFailure,
} from "./failure_memory.ts";
import { createSiteFetcher } from "./fetch_site.ts";
import { dueDomains, type FoundEntry, readFound, recordFound, touchFound } from "./found_memory.ts";
import { score } from "./rank.ts";
import { resolveWithDeno } from "./pin_address.ts";
import type { Resolver } from "./safe_fetch.ts";
import {
  type FoundWordmark,
  searchSite,
  type TriedCandidate,
  type TriedWordmark,
} from "./search_site.ts";
import { isDue, priorOf, REFRESH_AFTER_MS, replaces, skipReason } from "./skip_or_refresh.ts";

export type { MissingEntry } from "./failure_memory.ts";
export type { FoundEntry } from "./found_memory.ts";
export type { FoundWordmark, TriedCandidate, TriedWordmark } from "./search_site.ts";

/** The part of `LogoStore` discovery uses. */
export interface LogoSink {
  /** The stored record of `domain`, or null. */
  get(domain: string): Promise<{ hash: string; source: string; updatedAt: number } | null>;
  /** Stores `bytes` as the logo of `domain`. */
  put(
    domain: string,
    bytes: Uint8Array,
    meta: { source: string },
  ): Promise<{ record: { hash: string }; changed: boolean }>;
}

/** Configuration of {@link createDiscovery}; everything is injected, nothing read from env. */
export interface DiscoveryConfig {
  /** Where the negative cache and discovery bookkeeping live. */
  kv: Deno.Kv;
  /** Where winners are stored (a `LogoStore`, itself given `imaging` for untrusted bytes). */
  store: LogoSink;
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
  /** How long "the site answered and has no usable icon" is remembered; default one day. */
  negativeTtlMs?: number;
  /** First retry delay after a network-level failure; default 1 min (doubling per failure). */
  retryBaseMs?: number;
  /** Longest retry delay after network-level failures; default 1 h. */
  retryMaxMs?: number;
  /** Where each failed discovery is reported, once, with its reason; default: nowhere. */
  log?: (message: string) => void;
  /** Age after which a discovered logo is looked for again; default 30 days. */
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
  /** Ignore the negative cache and freshness, and replace even an operator's logo. */
  force?: boolean;
}

/** The outcome of a discovery. */
export interface DiscoveryOutcome {
  /** The domain. */
  domain: string;
  /**
   * - `stored`: a logo was found and stored (new, or better/equal and different);
   * - `unchanged`: the logo found is the one already stored;
   * - `kept`: the stored logo was kept (what was found ranks worse, or nothing was found);
   * - `fresh`: a discovered logo younger than the refresh age exists, nothing fetched;
   * - `operator`: an operator-added logo exists, nothing fetched;
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
   * stays SVG), source, kind and why (`wordmark_search.ts`). Returned, not stored: the caller
   * decides (`service.ts` hands it to `DiscoveryServiceOptions.storeWordmark`). Present whenever
   * the site was searched, whatever the icon's `status`.
   */
  wordmark?: FoundWordmark;
  /** When the site was searched: every wordmark candidate and what it turned out to be. */
  wordmarkTried?: TriedWordmark[];
}

/** A discovery service; see the module doc. */
export interface Discovery {
  /** Discovers (or skips, see {@link DiscoveryOutcome}) the logo of a normalised `domain`. */
  discover(domain: string, options?: DiscoverOptions): Promise<DiscoveryOutcome>;
  /**
   * Looks again, one domain after the other, for at most `limit` (default 50) discovered logos
   * older than the refresh age; a worse find never replaces the stored logo.
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
 * import { parseConnectTo } from "./connect_to.ts";
 *
 * const kv = await Deno.openKv(":memory:");
 * const pool = startImagePool();
 * const connectTo = parseConnectTo("acme.test:80:127.0.0.1:8081");
 * const store = new LogoStore(kv, { imaging: pool });
 * const discovery = createDiscovery({ kv, store, imaging: pool, connectTo });
 * const outcome = await discovery.discover("acme.test");
 * console.log(outcome.status, outcome.source);
 * ```
 */
export function createDiscovery(config: DiscoveryConfig): Discovery {
  const clock = config.clock ?? Date.now;
  const refreshAfterMs = config.refreshAfterMs ?? REFRESH_AFTER_MS;
  const acquire = semaphore(config.maxConcurrent ?? 8);
  const running = new SingleFlight<string, DiscoveryOutcome>();
  const { kv, store } = config;
  const log = config.log ?? (() => {});
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
    const prior = priorOf(await store.get(domain), await readFound(kv, domain));
    const { record, discovered } = prior;
    if (!force) {
      const skip = await skipReason(prior, {
        clock,
        refreshAfterMs,
        readMissing: () => readMissing(kv, domain),
      });
      if (skip !== undefined) return { domain, ...skip, tried: [] };
    }
    const found = await searchSite(domain, search);
    const { winner, tried, page, pageError, why, failure, wordmark, wordmarkTried } = found;
    const now = clock();
    const base: Omit<DiscoveryOutcome, "status"> = {
      domain,
      tried,
      ...(page ? { page } : {}),
      ...(pageError ? { pageError } : {}),
      ...(wordmark ? { wordmark } : {}),
      wordmarkTried,
    };
    if (winner === undefined) {
      if (record !== null) {
        if (discovered !== null) await touchFound(kv, domain, discovered, now);
        return { ...base, status: "kept" };
      }
      // Cut short by shutdown: not a verdict on the site, so nothing is remembered.
      if (config.signal?.aborted) return { ...base, status: "not-found" };
      const entry = await rememberFailure(kv, domain, failure.kind, now, failure.reason, {
        negativeTtlMs: config.negativeTtlMs ?? NEGATIVE_TTL_MS,
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
    const outcomes: DiscoveryOutcome[] = [];
    for (const domain of domains) outcomes.push(await discover(domain));
    return outcomes;
  }

  return { discover, refreshStale };
}
