/**
 * Step 5 of the request path, resolve: finds the logo record to serve for a domain — the domain
 * itself, else its parents down to the registrable domain (`lookupChain`) — or throws 404
 * `Logo not found`. When nothing is stored and a `discover` function is given, it is called once
 * for the requested domain (concurrent misses share one call) and the chain is read again.
 *
 * A `type=logo` request looks for a wordmark along the same chain first (the domain's, else the
 * nearest parent's); when no domain of the chain has one, it resolves the icon exactly as a
 * `type=icon` request does (discovery included) and says so (`type: "icon"` in the result, which
 * the app sends as `X-Logo-Fallback: icon`). A wordmark anywhere in the chain wins over an icon
 * nearer the domain: the request asked for a wordmark. A discovery stores the wordmark with the
 * icon, so a miss asked with `type=logo` is answered the wordmark found.
 *
 * When the chain has an icon but no wordmark, `discover` is called for the registrable domain (the
 * chain's last entry, so random subdomains share it) once per {@link WORDMARK_LOOK_TTL_MS} in this
 * process, and the wordmark is looked up again: discovery searches the site for a wordmark never
 * looked for (or due again), and answers at once from its KV memory otherwise
 * (`src/discovery/discover_wordmark.ts`). Requests in between do no discovery call and no KV read.
 *
 * Records, and their absence, are cached in memory, and the hot path does no KV read:
 * - with a change feed (`changes`: `src/store/logo_change_feed.ts`, which `src/main.ts` runs), for
 *   as long as the feed keeps confirming them, up to {@link LOGO_CACHE_MAX_AGE_MS}: a domain the
 *   feed names is forgotten, and everything when it says changes were missed. A logo added or
 *   changed by another process is served within about a second (the feed's pause and one read).
 *   When the feed has not confirmed for `ttlMs`, records fall back to the rule below.
 * - without one, or while it fails, for at most `ttlMs` (default 5 s) after their load.
 *
 * A record carries its default rendition's bytes (`src/store/inline_rendition.ts`), so
 * the cache is bounded in bytes (`maxBytes`, default {@link LOGO_CACHE_MAX_BYTES}, counted by
 * {@link recordCacheBytes}); each entry counts at least {@link RECORD_OVERHEAD_BYTES}, which bounds
 * the entries too. Past the budget, the least recently used go first (`TtlCache`'s second chance).
 *
 * @example
 * ```ts
 * import { createResolver } from "./resolve_logo.ts";
 * import { LogoStore } from "../store/logo_store.ts";
 * const resolve = createResolver({ logos: new LogoStore(await Deno.openKv(":memory:")) });
 * const { record, domain } = await resolve("docs.example.com"); // may be example.com's logo
 * const wide = await resolve("example.com", "logo"); // wide.type: "logo", or "icon" when none
 * ```
 * @module
 */
import { lookupChain } from "../domain_name.ts";
import { HttpError } from "../http_error.ts";
import { guardKv } from "../kv_unavailable.ts";
import type { LogoRecord, LogoStore } from "../store/logo_store.ts";
import type { LogoChangeFeed } from "../store/logo_change_feed.ts";
import { SingleFlight } from "../single_flight.ts";
import { STORED_ANSWER_OVERHEAD_BYTES } from "./stored_answer.ts";
import { type CacheCounts, TtlCache } from "../ttl_cache.ts";
import { DEFAULT_TYPE, LOGO_TYPES, type LogoType } from "../sdk/logo_options.ts";

/** The lookup resolution needs from the logo store. */
export type LogoLookup = Pick<LogoStore, "get">;

/** A resolved logo: the record and the domain it is stored under (for `X-Logo-Domain`). */
export interface ResolvedLogo {
  /** The stored record. */
  readonly record: LogoRecord;
  /** The domain whose logo is served: the requested one or a parent. */
  readonly domain: string;
  /** The record's type: `logo` (a wordmark), or `icon` — for a `logo` request, its fallback. */
  readonly type: LogoType;
}

/** Options of {@link createResolver}. */
export interface ResolverOptions {
  /** Where logos live. */
  logos: LogoLookup;
  /** Epoch-ms clock; default `Date.now`. */
  clock?: () => number;
  /** How long a record (or its absence) is reused; default {@link LOGO_CACHE_TTL_MS}. */
  ttlMs?: number;
  /** Most domains cached at once; default `maxBytes` ÷ {@link RECORD_OVERHEAD_BYTES}. */
  maxEntries?: number;
  /** Most bytes of records cached at once ({@link recordCacheBytes}); default {@link LOGO_CACHE_MAX_BYTES}. */
  maxBytes?: number;
  /** The change signal that keeps records past `ttlMs` (see the module documentation); optional. */
  changes?: Pick<LogoChangeFeed, "subscribe" | "confirmedAt">;
  /** Called on a miss to try to find and store a logo for the domain; optional. */
  discover?: (domain: string) => Promise<void>;
  /** Where failures are reported; default `console.error`. */
  log?: (message: string, error?: unknown) => void;
  /** Counts the record cache's hits and misses (for metrics); optional. */
  counts?: CacheCounts;
}

/** The resolve step, plus a way to drop a cached domain after changing it in this process. */
export interface Resolver {
  /**
   * Resolves `domain` (normalised) to the record to serve for `type` (default `icon`).
   *
   * @throws {HttpError} 404 `Logo not found`; 503 when KV fails.
   */
  (domain: string, type?: LogoType): Promise<ResolvedLogo>;
  /** Forgets what is cached for `domain` (icon and wordmark), so the next request reads KV. */
  forget(domain: string): void;
  /**
   * Domains cached, the bytes counted for them ({@link recordCacheBytes}), and the cache's lookups
   * answered from memory (`hits`) and read from the store (`misses`).
   */
  stats(): { entries: number; bytes: number; hits: number; misses: number };
  /** Stops listening to the change feed. */
  close(): void;
}

/** Longest a record, or its absence, is served from memory without a change feed confirming it. */
export const LOGO_CACHE_TTL_MS = 5_000;
/**
 * Longest a record is served from memory however often the change feed confirms it: a bound on
 * staleness should a writer ever not mark its change (one from before the feed existed).
 */
export const LOGO_CACHE_MAX_AGE_MS = 10 * 60_000;
/**
 * Default bytes of the record cache: 64 MiB, thousands of records with their default image inside
 * and the default answer made of it (`stored_answer.ts`); the least recently used go first.
 * `LOGO_RECORD_CACHE_MB` sets it in the server.
 */
export const LOGO_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * How long a process remembers it asked discovery for a registrable domain's wordmark (see the
 * module documentation): one hour.
 */
export const WORDMARK_LOOK_TTL_MS = 60 * 60_000;

/** Most domains whose lookup chain (`lookupChain`) is remembered, at about 150 bytes each. */
export const CHAIN_MEMO_MAX_ENTRIES = 50_000;

/** What one record's fields besides rendition bytes are counted as in the record cache. */
export const RECORD_OVERHEAD_BYTES = 1024;

/**
 * Bytes a cached record (or absence) is counted as: {@link RECORD_OVERHEAD_BYTES} plus the bytes of
 * the renditions it holds, plus {@link STORED_ANSWER_OVERHEAD_BYTES} for a `default` it holds (the
 * answer made from it, kept on the record: `stored_answer.ts`), counted at load whether or not
 * the answer is made.
 */
export function recordCacheBytes(record: LogoRecord | null): number {
  let bytes = RECORD_OVERHEAD_BYTES;
  if (record === null) return bytes;
  for (const name in record.renditions) bytes += record.renditions[name].data?.byteLength ?? 0;
  if (record.renditions.default?.data !== undefined) bytes += STORED_ANSWER_OVERHEAD_BYTES;
  return bytes;
}

/**
 * The record cache's key of `domain`'s image of `type`: the domain itself for the icon (as before
 * wordmarks), `logo domain` for the wordmark (a domain never holds a space).
 */
function cacheKey(type: LogoType, domain: string): string {
  return type === DEFAULT_TYPE ? domain : `${type} ${domain}`;
}

/** The type and domain of a {@link cacheKey}. */
function fromCacheKey(key: string): [LogoType, string] {
  const space = key.indexOf(" ");
  return space < 0 ? [DEFAULT_TYPE, key] : [key.slice(0, space) as LogoType, key.slice(space + 1)];
}

/** The 404 (spec text). */
export function logoNotFound(): HttpError {
  return new HttpError(404, "Logo not found");
}

/** Creates the resolve step over a logo store. */
export function createResolver(options: ResolverOptions): Resolver {
  const { logos, discover, changes } = options;
  const maxBytes = options.maxBytes ?? LOGO_CACHE_MAX_BYTES;
  const maxEntries = options.maxEntries ??
    Math.max(1, Math.floor(maxBytes / RECORD_OVERHEAD_BYTES));
  const log = options.log ?? console.error;
  const counts = options.counts ?? { hits: 0, misses: 0 };
  // Each domain's record, or its absence; concurrent misses share one KV read.
  const records = new TtlCache<LogoRecord | null>({
    ttlMs: options.ttlMs ?? LOGO_CACHE_TTL_MS,
    maxEntries,
    maxBytes,
    sizeOf: recordCacheBytes,
    clock: options.clock,
    load: (key) => {
      const [type, domain] = fromCacheKey(key);
      return guardKv(() => logos.get(domain, type), { log });
    },
    counts,
    confirmedAt: changes && (() => changes.confirmedAt()),
    maxAgeMs: changes && LOGO_CACHE_MAX_AGE_MS,
    // Popular domains stay while one-off ones go, and do not push popular ones out (issue 34).
    secondChance: true,
    admission: true,
  });
  const unsubscribe = changes?.subscribe({
    changed: (domains) => {
      for (const domain of domains) forget(domain);
    },
    cleared: () => records.clear(),
  });
  const discovering = new SingleFlight<string, void>();
  const chains = new Map<string, readonly string[]>();
  const chainEntries = Math.min(maxEntries, CHAIN_MEMO_MAX_ENTRIES);
  // Registrable domains whose wordmark discovery was asked for lately (one call shared by all).
  const wordmarkLooks = new TtlCache<true>({
    ttlMs: WORDMARK_LOOK_TTL_MS,
    maxEntries: chainEntries,
    clock: options.clock,
  });

  async function firstInChain(
    chain: readonly string[],
    type: LogoType = DEFAULT_TYPE,
  ): Promise<ResolvedLogo | null> {
    for (const candidate of chain) {
      const found = await records.get(cacheKey(type, candidate));
      if (found !== null) return { record: found, domain: candidate, type };
    }
    return null;
  }

  /**
   * Runs discovery for `domain` once at a time, then forgets the cached misses of its chain; a
   * failure is logged and counts as a miss.
   */
  function discoverOnce(
    domain: string,
    chain: readonly string[],
    run: (domain: string) => Promise<void>,
  ): Promise<void> {
    return discovering.run(domain, async () => {
      try {
        await run(domain);
      } catch (error) {
        log(`Discovery failed for ${domain}`, error);
      } finally {
        for (const candidate of chain) forget(candidate);
      }
    });
  }

  function forget(domain: string): void {
    for (const type of LOGO_TYPES) records.delete(cacheKey(type, domain));
  }

  /** `lookupChain` of a domain, remembered: the public-suffix lookup runs once per domain. */
  function chainOf(domain: string): readonly string[] {
    let chain = chains.get(domain);
    if (chain === undefined) {
      chain = lookupChain(domain);
      if (chains.size >= chainEntries) chains.delete(chains.keys().next().value!);
      chains.set(domain, chain);
    }
    return chain;
  }

  const resolve = async (
    domain: string,
    type: LogoType = DEFAULT_TYPE,
  ): Promise<ResolvedLogo> => {
    const chain = chainOf(domain);
    if (type !== DEFAULT_TYPE) {
      const wordmark = await firstInChain(chain, type);
      if (wordmark !== null) return wordmark;
    }
    const found = await firstInChain(chain);
    if (found !== null) {
      if (type === DEFAULT_TYPE || discover === undefined) return found;
      const target = chain.at(-1) ?? domain;
      const look = () => discoverOnce(target, [target], discover).then(() => true as const);
      await wordmarkLooks.get(target, look);
      return (await firstInChain(chain, type)) ?? found;
    }
    if (discover === undefined) throw logoNotFound();
    await discoverOnce(domain, chain, discover);
    const wordmark = type === DEFAULT_TYPE ? null : await firstInChain(chain, type);
    if (wordmark !== null) return wordmark;
    const discovered = await firstInChain(chain);
    if (discovered === null) throw logoNotFound();
    return discovered;
  };
  return Object.assign(resolve, {
    forget,
    stats: () => ({
      entries: records.size,
      bytes: records.bytes,
      hits: counts.hits,
      misses: counts.misses,
    }),
    close: () => unsubscribe?.(),
  });
}
