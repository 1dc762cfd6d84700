/**
 * Logo discovery: find a domain's logo on its own website, safely, and store it.
 *
 * Steps: home page (`https://DOMAIN/`, then `http://DOMAIN/`, following redirects to the site's
 * canonical host) → candidates (links, manifests, fallbacks, JSON-LD, og:image) → fetch and
 * measure each (sniffed, never trusted) → rank → fully decode the best until one works → store it
 * with its source URL. Every connection goes through {@link safeFetch}; the whole discovery has one
 * time budget.
 *
 * One discovery per domain runs at a time (concurrent callers share its promise), and at most
 * `maxConcurrent` domains are discovered at once. "The site answered and has no usable icon" is
 * remembered in KV for `negativeTtlMs` (a day); a network-level failure (DNS, connection, TLS,
 * timeout) only until a short retry delay that grows with each consecutive failure (1 min, 2, 4…
 * up to 1 h; see `failure_memory.ts`). Each failed discovery is logged once, with its reason.
 * On an `https://` page, `http://` icon and manifest URLs are fetched as `https://` (as browsers
 * upgrade mixed content), and `safeFetch` refuses redirects from https to http.
 * A stored logo that discovery found is refreshed after
 * `refreshAfterMs` (30 days) and only replaced by one that ranks at least as well; a logo added
 * by an operator (`logo add`, `logo import`, the demo seed) is never touched unless `force`.
 *
 * KV: `["discovery", "missing", domain]` → `MissingEntry` (see `failure_memory.ts`),
 * `["discovery", "found", domain]` → {@link FoundEntry}.
 *
 * @module
 */
import {
  type Candidate,
  extractCandidates,
  manifestCandidates,
  MAX_CANDIDATES,
} from "./candidates.ts";
import { type ConnectToMap, NO_CONNECT_TO } from "./connect_to.ts";
import {
  describeFailure,
  type FailureKind,
  isNetworkFailure,
  type MissingEntry,
  missingKey,
  NEGATIVE_TTL_MS,
  rememberFailure,
} from "./failure_memory.ts";
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { type ImageFacts, measureImage, NotAnImage, verifyImage } from "./measure_image.ts";
import { compareMeasured, type Measured, score } from "./rank.ts";
import { DEFAULT_MAX_BYTES, type Resolver, safeFetch, SafeFetchError } from "./safe_fetch.ts";

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
  /** Name resolution; default `Deno.resolveDns`. */
  resolve?: Resolver;
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

/** What one candidate turned out to be. */
export interface TriedCandidate {
  /** Its URL. */
  url: string;
  /** Where it was declared. */
  kind: Candidate["kind"];
  /** "png 512x512", or why it was refused ("HTML, not an image", "Refused 127.0.0.1: …"). */
  result: string;
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
  /** The winning candidate's URL, when one was found. */
  source?: string;
  /** The home page's final URL, when one was fetched. */
  page?: string;
  /** Every candidate fetched, in ranking order of declaration. */
  tried: TriedCandidate[];
  /** Why the home page could not be read, when it could not. */
  pageError?: string;
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

export type { MissingEntry } from "./failure_memory.ts";

/** `["discovery", "found", domain]`: the last discovery that found the stored logo. */
export interface FoundEntry {
  /** When (epoch ms). */
  at: number;
  /** Rank score of the stored logo (see `rank.ts`). */
  score: number;
  /** Its URL. */
  source: string;
  /** The store's record hash at the time: a different one means an operator replaced it. */
  hash: string;
}

const DAY = NEGATIVE_TTL_MS;
const HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";
const IMAGE_ACCEPT = "image/svg+xml,image/png,image/*;q=0.9,*/*;q=0.5";

interface Fetched {
  candidate: Candidate;
  order: number;
  bytes?: Uint8Array;
  facts?: ImageFacts;
  result: string;
  /** Not answered: not fetched before the budget ran out, or a network-level failure. */
  unanswered: boolean;
}

/** On an https page, an http URL is fetched over https, as browsers upgrade mixed content. */
function upgraded(url: string, pageUrl: string): string {
  if (!pageUrl.startsWith("https:") || !url.startsWith("http:")) return url;
  return `https:${url.slice("http:".length)}`;
}

function reason(error: unknown): string {
  if (error instanceof SafeFetchError || error instanceof NotAnImage) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Runs `work` on every item with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}

/** A counting semaphore: at most `size` holders. */
function semaphore(size: number): () => Promise<() => void> {
  let free = size;
  const waiting: (() => void)[] = [];
  const release = () => {
    const wake = waiting.shift();
    if (wake) wake();
    else free++;
  };
  return async () => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    return release;
  };
}

/**
 * Creates the discovery service.
 *
 * @example
 * ```ts
 * const store = new LogoStore(kv, { imaging: pool });
 * const discovery = createDiscovery({ kv, store, imaging: pool, connectTo });
 * const outcome = await discovery.discover("acme.test");
 * console.log(outcome.status, outcome.source);
 * ```
 */
export function createDiscovery(config: DiscoveryConfig): Discovery {
  const clock = config.clock ?? Date.now;
  const budgetMs = config.budgetMs ?? 10_000;
  const maxBytes = config.maxBytes ?? DEFAULT_MAX_BYTES;
  const negativeTtlMs = config.negativeTtlMs ?? DAY;
  const refreshAfterMs = config.refreshAfterMs ?? 30 * DAY;
  const maxFetches = config.maxFetches ?? 12;
  const parallel = config.parallelFetches ?? 4;
  const acquire = semaphore(config.maxConcurrent ?? 8);
  const inFlight = new Map<string, Promise<DiscoveryOutcome>>();
  const kv = config.kv;
  const log = config.log ?? (() => {});

  function fetchUrl(url: string, signal: AbortSignal, accept: string) {
    return safeFetch(url, {
      connectTo: config.connectTo ?? NO_CONNECT_TO,
      resolve: config.resolve,
      caCerts: config.caCerts,
      maxBytes,
      signal,
      accept,
    });
  }

  async function get(url: string, signal: AbortSignal, accept: string) {
    if (url.startsWith("data:")) return await readDataUrl(url);
    const response = await fetchUrl(url, signal, accept);
    if (response.status < 200 || response.status >= 300) {
      throw new Error(`HTTP ${response.status} from ${response.url}`);
    }
    return response;
  }

  async function readDataUrl(url: string) {
    // A data: URL is decoded locally by the built-in fetch; no connection is made.
    const response = await fetch(url);
    const body = new Uint8Array(await response.arrayBuffer());
    if (body.length > maxBytes) throw new Error(`data: URL exceeds ${maxBytes} bytes`);
    return { url, status: 200, headers: response.headers, body, hops: [url] };
  }

  /**
   * The home page, https first. A site that answers with an error status (bots are often
   * refused) is still reachable: its root is returned so the conventional icons can be tried.
   */
  async function homePage(domain: string, signal: AbortSignal) {
    const errors: string[] = [];
    let reachable: string | undefined;
    let networkFailure = false;
    for (const scheme of ["https", "http"]) {
      try {
        const response = await fetchUrl(`${scheme}://${domain}/`, signal, HTML_ACCEPT);
        if (response.status >= 200 && response.status < 300) {
          return { page: response, errors, networkFailure };
        }
        errors.push(`HTTP ${response.status} from ${response.url}`);
        reachable ??= response.url;
      } catch (error) {
        errors.push(reason(error));
        networkFailure ||= isNetworkFailure(error);
        if (signal.aborted) break;
      }
    }
    return { page: undefined, reachable, errors, networkFailure };
  }

  async function collect(domain: string, signal: AbortSignal) {
    const { page, reachable, errors, networkFailure } = await homePage(domain, signal);
    if (page === undefined) {
      const fallbacks = reachable ? extractCandidates("", reachable).candidates : [];
      // Nothing answered on either scheme, and not because we refused to connect.
      const unreachable = reachable === undefined && networkFailure;
      return { candidates: fallbacks, pageError: errors.join("; "), unreachable };
    }
    const type = page.headers.get("content-type") ?? "";
    const html = /html|xml/i.test(type) || type === "" ? decodeText(page.body, type) : "";
    const found = extractCandidates(html, page.url);
    const fromManifests = (await Promise.all(found.manifests.map(async (url) => {
      try {
        const secure = upgraded(url, page.url);
        const manifest = await get(secure, signal, "application/manifest+json,application/json");
        return manifestCandidates(decodeText(manifest.body, ""), manifest.url);
      } catch {
        return []; // An unreadable manifest declares nothing.
      }
    }))).flat();
    const late = (c: Candidate) =>
      c.kind === "favicon" || c.kind === "json-ld" || c.kind === "og:image";
    const seen = new Set<string>();
    const ordered = [
      ...byDeclaredSize(found.candidates.filter((c) => !late(c))),
      ...byDeclaredSize(fromManifests),
      ...found.candidates.filter(late),
    ].map((c) => ({ ...c, url: upgraded(c.url, page.url) })).filter((c) =>
      !seen.has(c.url) && seen.add(c.url)
    );
    const candidates = ordered.slice(0, Math.min(maxFetches, MAX_CANDIDATES));
    return { candidates, page: page.url, unreachable: false };
  }

  async function search(domain: string) {
    const budget = new AbortController();
    const stop = () => budget.abort();
    const timer = setTimeout(stop, budgetMs);
    config.signal?.addEventListener("abort", stop);
    if (config.signal?.aborted) stop();
    try {
      return await searchWithin(domain, budget.signal);
    } finally {
      clearTimeout(timer);
      config.signal?.removeEventListener("abort", stop);
    }
  }

  async function searchWithin(domain: string, signal: AbortSignal) {
    const { candidates, page, pageError, unreachable } = await collect(domain, signal);
    const fetched: Fetched[] = candidates.map((candidate, order) => ({
      candidate,
      order,
      result: "not fetched: time budget exhausted",
      unanswered: true,
    }));
    await pool(fetched, parallel, async (entry) => {
      if (signal.aborted) return;
      try {
        const response = await get(entry.candidate.url, signal, IMAGE_ACCEPT);
        entry.unanswered = false;
        entry.facts = await measureImage(response.body, config.imaging);
        entry.bytes = response.body;
        entry.result = `${entry.facts.format} ${entry.facts.width}x${entry.facts.height}`;
      } catch (error) {
        entry.unanswered = isNetworkFailure(error);
        entry.result = reason(error);
      }
    });
    const measured: (Measured & { entry: Fetched })[] = fetched
      .filter((f) => f.facts !== undefined)
      .map((f) => ({ ...f.facts!, candidate: f.candidate, order: f.order, entry: f }));
    measured.sort(compareMeasured);
    let winner: { measured: Measured; bytes: Uint8Array } | undefined;
    for (const m of measured) {
      try {
        const bytes = await verifyImage(m.entry.bytes!, m.entry.facts!, config.imaging);
        winner = { measured: m, bytes };
        break;
      } catch (error) {
        m.entry.result = `${m.entry.result}: ${reason(error)}`;
      }
    }
    const tried = fetched.map((f) => ({
      url: f.candidate.url,
      kind: f.candidate.kind,
      result: f.result,
    }));
    // Icons that could not be fetched for network reasons leave the question open.
    const cutShort = fetched.find((f) => f.unanswered);
    const failure: { kind: FailureKind; reason: string } = unreachable
      ? { kind: "unreachable", reason: pageError ?? "no answer" }
      : cutShort !== undefined
      ? { kind: "unreachable", reason: `${cutShort.candidate.url}: ${cutShort.result}` }
      : { kind: "no-icon", reason: noIconReason(page, pageError, fetched.length) };
    return { winner, tried, page, pageError, failure };
  }

  async function run(domain: string, options: DiscoverOptions): Promise<DiscoveryOutcome> {
    const force = options.force === true;
    const record = await config.store.get(domain);
    const found = (await kv.get<FoundEntry>(["discovery", "found", domain])).value;
    const discovered = record !== null && found !== null && found.hash === record.hash;
    if (!force && record !== null) {
      if (!discovered) return { domain, status: "operator", tried: [] };
      if (clock() - found.at < refreshAfterMs) {
        return { domain, status: "fresh", source: found.source, tried: [] };
      }
    }
    if (!force && record === null) {
      const missing = (await kv.get<MissingEntry>(missingKey(domain))).value;
      if (missing !== null && missing.until > clock()) {
        const failure = missing.kind ?? "no-icon";
        return { domain, status: "known-missing", failure, retryAt: missing.until, tried: [] };
      }
    }
    const { winner, tried, page, pageError, failure } = await search(domain);
    const now = clock();
    const base = { domain, tried, ...(page ? { page } : {}), ...(pageError ? { pageError } : {}) };
    if (winner === undefined) {
      if (record !== null) {
        if (discovered) await kv.set(["discovery", "found", domain], { ...found, at: now });
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
      return { ...base, status: "not-found", failure: failure.kind, retryAt: entry.until };
    }
    const newScore = score(winner.measured);
    const source = winner.measured.candidate.url;
    if (!force && discovered && found.score > newScore) {
      await kv.set(["discovery", "found", domain], { ...found, at: now });
      return { ...base, status: "kept", source: found.source };
    }
    const { record: stored, changed } = await config.store.put(domain, winner.bytes, {
      source: source.startsWith("data:") ? `${page ?? domain} (inline data: icon)` : source,
    });
    const entry: FoundEntry = { at: now, score: newScore, source, hash: stored.hash };
    await kv.atomic()
      .set(["discovery", "found", domain], entry)
      .delete(missingKey(domain))
      .commit();
    return { ...base, status: changed ? "stored" : "unchanged", source };
  }

  function discover(domain: string, options: DiscoverOptions = {}): Promise<DiscoveryOutcome> {
    const running = inFlight.get(domain);
    if (running) return running;
    const promise = (async () => {
      const release = await acquire();
      try {
        return await run(domain, options);
      } finally {
        release();
        inFlight.delete(domain);
      }
    })();
    inFlight.set(domain, promise);
    return promise;
  }

  async function refreshStale(limit = 50): Promise<DiscoveryOutcome[]> {
    const stale: string[] = [];
    for await (const entry of kv.list<FoundEntry>({ prefix: ["discovery", "found"] })) {
      if (clock() - entry.value.at < refreshAfterMs) continue;
      const domain = entry.key[2] as string;
      const record = await config.store.get(domain);
      if (record === null || record.hash !== entry.value.hash) {
        // Removed or replaced by an operator since: no longer discovery's to refresh.
        await kv.atomic().check(entry).delete(entry.key).commit();
        continue;
      }
      stale.push(domain);
      if (stale.length >= limit) break;
    }
    const outcomes: DiscoveryOutcome[] = [];
    for (const domain of stale) outcomes.push(await discover(domain));
    return outcomes;
  }

  return { discover, refreshStale };
}

/** Why nothing usable was found although the site answered, in one line. */
function noIconReason(page: string | undefined, pageError: string | undefined, tried: number) {
  const where = page === undefined ? `home page unusable: ${pageError ?? "no answer"}` : "answered";
  return tried === 0 ? `${where}; no icon declared` : `${where}; none of ${tried} icons usable`;
}

/**
 * Within each kind, candidates declaring larger `sizes` (or `any`, or nothing) are fetched first,
 * so the fetch cap drops small icons rather than large ones. Only the fetch order uses the hint;
 * ranking uses measured sizes.
 */
function byDeclaredSize(candidates: Candidate[]): Candidate[] {
  const hint = (c: Candidate): number => {
    if (c.sizes === undefined) return Number.MAX_SAFE_INTEGER;
    let best = 0;
    for (const token of c.sizes.toLowerCase().split(/\s+/)) {
      if (token === "any") return Number.MAX_SAFE_INTEGER;
      const [w, h] = token.split("x").map(Number);
      if (Number.isFinite(w) && Number.isFinite(h)) best = Math.max(best, Math.min(w, h));
    }
    return best;
  };
  const kinds = [...new Set(candidates.map((c) => c.kind))];
  return kinds.flatMap((kind) =>
    candidates.filter((c) => c.kind === kind).toSorted((a, b) => hint(b) - hint(a))
  );
}

function decodeText(bytes: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}
