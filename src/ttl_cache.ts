/**
 * A small in-memory cache of asynchronous lookups with bounded staleness and size: an answer
 * (found or not) is reused for `ttlMs`, concurrent misses for one key share a single load, a
 * failed load is not remembered, and past `maxEntries` (or, with `sizeOf`, past `maxBytes` of
 * loaded answers) the oldest entry goes first.
 *
 * Used for key lookups and logo records, so the request path reads KV once per key and per domain
 * every few seconds at most.
 *
 * With `confirmedAt` (a change signal: `src/store/logo_change_feed.ts`), an answer lives while the
 * signal keeps confirming it — `ttlMs` after its load or after the signal's last confirmation,
 * whichever is later — up to `maxAgeMs`; whoever hears of a change calls {@link TtlCache.delete}
 * or {@link TtlCache.clear}. When the signal stops confirming, answers fall back to `ttlMs`.
 *
 * With `secondChance`, eviction follows the second-chance (CLOCK) rule instead of load order: a hit
 * marks its entry used, and eviction walks from the oldest, moving a used entry that is still live
 * to the young end (its mark cleared) and dropping the first unused or expired one. Under skewed
 * traffic the popular keys then stay while one-off keys go, where load order evicted a popular
 * key as soon as it was the oldest loaded (the logo record cache: issue 34,
 * bench/results/2026-12-01-store-lookup-zipf.md). A hit never moves its entry itself, so hits do not
 * churn the `Map`. A moved entry keeps its load time, so expired entries are no longer all at the
 * old end: those behind a live one are dropped when asked for or reached by eviction, and never
 * answered.
 *
 * With `admission`, every lookup (hit or miss) is counted in a {@link FrequencySketch}, and a loaded
 * answer that only fits `maxBytes` by evicting is kept only when its key was asked for more often
 * lately than the entry eviction picked; otherwise the answer is still returned to its callers but
 * not kept, and nothing is evicted for it. The long tail of keys asked for once then never pushes
 * the popular ones out (issue 34: at 100,000 logos under Zipf traffic, the record cache's misses
 * with second chance alone were a third above those of keeping the most popular keys).
 *
 * @example
 * ```ts
 * import { TtlCache } from "./ttl_cache.ts";
 * const cache = new TtlCache<string | null>({
 *   ttlMs: 5_000,
 *   maxEntries: 1_000,
 *   load: (domain) => Promise.resolve(domain.toUpperCase()),
 * });
 * await cache.get("example.com"); // "EXAMPLE.COM", loaded once for 5 s
 * ```
 * @module
 */

import { FrequencySketch } from "./frequency_sketch.ts";

/** Options of {@link TtlCache}. */
export interface TtlCacheOptions<V> {
  /** How long an answer is reused, in ms. */
  ttlMs: number;
  /** Most keys held at once. */
  maxEntries: number;
  /** Epoch-ms clock; default `Date.now`. */
  clock?: () => number;
  /** Loads the answer for a key on a miss; {@link TtlCache.get} may pass another. */
  load?: (key: string) => Promise<V>;
  /** Counts lookups answered from memory (`hits`) and loads (`misses`); may be shared. */
  counts?: CacheCounts;
  /** Bytes an answer holds, counted against `maxBytes` once loaded; default none counted. */
  sizeOf?: (value: V) => number;
  /** Most bytes of answers (as `sizeOf` counts them) held at once; default unbounded. */
  maxBytes?: number;
  /**
   * Epoch ms up to which every answer held is known current (see the module documentation);
   * default none: an answer lives `ttlMs`.
   */
  confirmedAt?: () => number;
  /** Longest an answer lives however often it is confirmed, ms; default `ttlMs`. */
  maxAgeMs?: number;
  /** Evict by the second-chance rule (see the module documentation); default load order. */
  secondChance?: boolean;
  /**
   * Keep a loaded answer that needs an eviction to fit `maxBytes` only when its key was asked for
   * more often lately than the entry it would evict (TinyLFU admission, `frequency_sketch.ts`;
   * see the module documentation); default every answer is kept.
   */
  admission?: boolean;
}

/** Lookups of a cache: answered from memory, and loaded. */
export interface CacheCounts {
  /** Lookups answered from memory, a load in flight included. */
  hits: number;
  /** Lookups that called the loader. */
  misses: number;
}

interface Entry<V> {
  readonly value: Promise<V>;
  /** When its load started. */
  readonly loadedAt: number;
  /** Bytes counted for it, once loaded. */
  bytes: number;
  /** Hit since it was loaded or last given a second chance (with `secondChance`). */
  used: boolean;
}

/** A cache of asynchronous lookups; see the module documentation. */
export class TtlCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #clock: () => number;
  readonly #load: ((key: string) => Promise<V>) | undefined;
  readonly #counts: CacheCounts | undefined;
  readonly #sizeOf: ((value: V) => number) | undefined;
  readonly #maxBytes: number;
  readonly #confirmedAt: (() => number) | undefined;
  readonly #maxAgeMs: number;
  readonly #secondChance: boolean;
  readonly #sketch: FrequencySketch | undefined;
  #bytes = 0;

  /** Creates an empty cache. */
  constructor(options: TtlCacheOptions<V>) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries;
    this.#clock = options.clock ?? Date.now;
    this.#load = options.load;
    this.#counts = options.counts;
    this.#sizeOf = options.sizeOf;
    this.#maxBytes = options.maxBytes ?? Infinity;
    this.#confirmedAt = options.confirmedAt;
    this.#maxAgeMs = Math.max(options.maxAgeMs ?? options.ttlMs, options.ttlMs);
    this.#secondChance = options.secondChance ?? false;
    this.#sketch = options.admission ? new FrequencySketch(options.maxEntries) : undefined;
  }

  /** Whether `entry` may still be answered at `now`, the signal having confirmed up to `confirmed`. */
  #live(entry: Entry<V>, now: number, confirmed: number): boolean {
    return now < Math.max(entry.loadedAt, confirmed) + this.#ttlMs &&
      now < entry.loadedAt + this.#maxAgeMs;
  }

  /**
   * The answer for `key`: reused while fresh, else from `load` (default: the constructor's), once
   * for concurrent callers. A rejected load is dropped at once, so the next call loads again.
   *
   * @throws {TypeError} on a miss when no loader was given at all.
   */
  get(key: string, load?: (key: string) => Promise<V>): Promise<V> {
    const now = this.#clock();
    const confirmed = this.#confirmedAt?.() ?? -Infinity;
    this.#dropExpired(now, confirmed);
    this.#sketch?.increment(key);
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      if (this.#live(hit, now, confirmed)) {
        hit.used = true;
        if (this.#counts !== undefined) this.#counts.hits++;
        return hit.value;
      }
      this.delete(key);
    }
    const loader = load ?? this.#load;
    if (loader === undefined) throw new TypeError("Cannot load a cache entry: no loader given");
    if (this.#counts !== undefined) this.#counts.misses++;
    const value = loader(key);
    const entry: Entry<V> = { value, loadedAt: now, bytes: 0, used: false };
    value.then((loaded) => {
      if (this.#sizeOf === undefined || this.#entries.get(key) !== entry) return;
      const bytes = this.#sizeOf(loaded);
      // An answer larger than the whole budget is not kept, and evicts nothing.
      if (bytes > this.#maxBytes) return this.delete(key);
      entry.bytes = bytes;
      this.#bytes += bytes;
      this.#evict(0, this.#clock(), this.#confirmedAt?.() ?? -Infinity, key);
    }, () => {
      if (this.#entries.get(key) === entry) this.delete(key);
    });
    this.#evict(1, now, confirmed);
    this.#entries.set(key, entry);
    return value;
  }

  /**
   * Drops the oldest entries (with `secondChance`, the oldest unused or expired at `now`) until
   * `room` more fit under `maxEntries` and `maxBytes` holds. With `admission` and a `candidate`
   * (the key just loaded), a live victim asked for at least as often as the candidate stays, and
   * the candidate goes instead.
   */
  #evict(room: number, now: number, confirmed: number, candidate?: string): void {
    while (
      this.#entries.size > 0 &&
      (this.#entries.size + room > this.#maxEntries || this.#bytes > this.#maxBytes)
    ) {
      const [key, entry] = this.#entries.entries().next().value!;
      if (this.#secondChance && entry.used && this.#live(entry, now, confirmed)) {
        // Its second chance: to the young end, unmarked. Each entry moves at most once per pass,
        // so the walk ends.
        entry.used = false;
        this.#entries.delete(key);
        this.#entries.set(key, entry);
        continue;
      }
      if (
        candidate !== undefined && this.#sketch !== undefined && key !== candidate &&
        this.#live(entry, now, confirmed) && !this.#sketch.admits(candidate, key)
      ) {
        this.delete(candidate);
        return;
      }
      this.delete(key);
    }
  }

  /**
   * Drops the expired entries at the old end, so the cache holds only answers still usable (not
   * `maxEntries` stale answers, records with their bytes included, until pushed out). Entries are
   * in load order and how long one lives grows with its load time, so the expired ones come first:
   * the walk stops at the first live one, which keeps each call's cost at what it drops plus one.
   * (With `secondChance`, entries given a second chance break the order: see the module doc.)
   */
  #dropExpired(now: number, confirmed: number): void {
    for (const [key, entry] of this.#entries) {
      if (this.#live(entry, now, confirmed)) return;
      this.delete(key);
    }
  }

  /** Forgets every key, so each next {@link get} loads. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** Forgets `key`, so the next {@link get} loads. */
  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  /** Keys held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Bytes of the loaded answers held, as `sizeOf` counts them (0 without `sizeOf`). */
  get bytes(): number {
    return this.#bytes;
  }
}
