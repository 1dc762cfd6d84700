/**
 * An in-memory cache of encoded images under a byte budget, evicting the least recently used by
 * the second-chance (CLOCK) rule: a hit only marks its entry used; eviction walks from the oldest,
 * moving a used entry to the young end (its mark cleared) and dropping the first unused one. A
 * hit never changes the `Map`: re-inserting on every hit rebuilt the Map's table every few
 * hundred requests, and the tables that lived through a young-generation GC filled the old
 * generation with garbage, so a full GC paused the server every second or so (found with the
 * heap profiler; `bench/results/` has the run). Identical concurrent misses share one producer
 * call, so a burst of requests for a new variant renders it once.
 *
 * @example
 * ```ts
 * import { VariantCache } from "./variant_cache.ts";
 * const cache = new VariantCache({ maxBytes: 64 * 1024 * 1024 });
 * const variant = await cache.getOrCreate("etag", async () => ({
 *   bytes: new Uint8Array(10),
 *   contentType: "image/png",
 * }));
 * ```
 * @module
 */
import { FrequencySketch } from "../frequency_sketch.ts";
import { SingleFlight } from "../single_flight.ts";

/** An encoded image ready to send. */
export interface Variant {
  /** The body. */
  readonly bytes: Uint8Array;
  /** Exact `Content-Type`, e.g. `image/png`. */
  readonly contentType: string;
}

/** A rendered image with its strong entity tag and dimensions. */
export interface TaggedVariant extends Variant {
  /** Strong `ETag`, quoted. */
  readonly etag: string;
  /** Width of the image in px (sent as `X-Logo-Width`). */
  readonly width: number;
  /** Height of the image in px (sent as `X-Logo-Height`). */
  readonly height: number;
}

/** Options of {@link VariantCache}. */
export interface VariantCacheOptions {
  /** Total bytes of images kept; default {@link DEFAULT_VARIANT_CACHE_BYTES}. */
  maxBytes?: number;
  /**
   * Largest single image kept, in bytes; default a quarter of `maxBytes`, so one huge image never
   * empties the cache.
   */
  maxEntryBytes?: number;
  /**
   * Copies of each entry's bytes the process may hold while the entry is cached; default 1. The
   * rendered-variant cache passes 2: the prepared response `respond.ts` keeps for a variant from
   * its second 200 on holds its own copy (Deno's `Response` constructor copies a `Uint8Array`
   * body). An entry is counted at the most it can hold, whether or not it was answered twice.
   */
  copies?: number;
  /**
   * Keep a new entry that needs an eviction to fit only when its key was asked for more often
   * lately than the entry it would evict (TinyLFU admission: `src/frequency_sketch.ts`, sized for
   * the entries of {@link TYPICAL_IMAGE_BYTES} × `copies` that `maxBytes` holds); default every
   * entry is kept. A value not kept is still returned to whoever asked.
   */
  admission?: boolean;
}

/** Counters of a {@link VariantCache}. */
export interface VariantCacheStats {
  /** Lookups answered from memory (including shared in-flight productions). */
  hits: number;
  /** Producer calls. */
  misses: number;
  /** Entries dropped to stay under the budget. */
  evictions: number;
  /** Entries held. */
  entries: number;
  /** Bytes held, as counted against the budget (see {@link VariantCacheOptions.copies}). */
  bytes: number;
}

/**
 * Default byte budget: 32 MiB (rendered answers; default answers are kept on their records, in the
 * record cache's budget: `stored_answer.ts`).
 */
export const DEFAULT_VARIANT_CACHE_BYTES = 32 * 1024 * 1024;

/** What a cached image is expected to weigh, to size the admission sketch: a 128-px PNG logo. */
export const TYPICAL_IMAGE_BYTES = 6 * 1024;

/** Rough per-entry bookkeeping cost counted against the budget besides the image bytes. */
const ENTRY_OVERHEAD_BYTES = 128;

/**
 * The memory `bytes` keeps alive: its whole `ArrayBuffer`, which a view (`subarray`) may leave far
 * larger than the view.
 */
export function heldBytes(bytes: Uint8Array): number {
  return Math.max(bytes.byteLength, bytes.buffer.byteLength);
}

/** A cached value and whether it was read since it was stored or last given a second chance. */
interface Slot<V> {
  readonly value: V;
  used: boolean;
}

/** A cache of {@link Variant}s by key, bounded in bytes; see the module documentation. */
export class VariantCache<V extends Variant = Variant> {
  readonly #entries = new Map<string, Slot<V>>();
  readonly #inflight = new SingleFlight<string, V>();
  readonly #maxBytes: number;
  readonly #maxEntryBytes: number;
  readonly #copies: number;
  readonly #sketch: FrequencySketch | undefined;
  #bytes = 0;
  #hits = 0;
  #misses = 0;
  #evictions = 0;

  /** Creates an empty cache. */
  constructor(options: VariantCacheOptions = {}) {
    this.#maxBytes = options.maxBytes ?? DEFAULT_VARIANT_CACHE_BYTES;
    this.#maxEntryBytes = options.maxEntryBytes ?? Math.floor(this.#maxBytes / 4);
    this.#copies = options.copies ?? 1;
    this.#sketch = options.admission
      ? new FrequencySketch(Math.ceil(this.#maxBytes / (TYPICAL_IMAGE_BYTES * this.#copies)))
      : undefined;
    if (!(this.#maxBytes >= 0) || !(this.#maxEntryBytes >= 0)) {
      throw new RangeError("Cannot create variant cache: byte budgets must be non-negative");
    }
    if (!Number.isInteger(this.#copies) || this.#copies < 1) {
      throw new RangeError("Cannot create variant cache: copies must be a whole number ≥ 1");
    }
  }

  /** The cached value for `key`, marked used, or `undefined`. Counts a lookup of `key`. */
  get(key: string): V | undefined {
    this.#sketch?.increment(key);
    const slot = this.#entries.get(key);
    if (slot === undefined) return undefined;
    slot.used = true;
    this.#hits++;
    return slot.value;
  }

  /** Whether `key` is held, without counting a lookup or refreshing its age. */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /**
   * The value for `key`: from memory, from a production already in flight, or by calling
   * `produce` once. A failed production is not cached; every waiter sees its error.
   */
  getOrCreate(key: string, produce: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const pending = this.#inflight.running(key);
    if (pending !== undefined) {
      this.#hits++;
      return pending;
    }
    this.#misses++;
    return this.#inflight.run(key, async () => {
      const value = await produce();
      this.set(key, value);
      return value;
    });
  }

  /** What `value` counts against the budget: the memory it keeps alive, times `copies`. */
  #size(value: V): number {
    return this.#copies * heldBytes(value.bytes) + ENTRY_OVERHEAD_BYTES;
  }

  /**
   * Stores `value` under `key` (unless larger than the per-entry limit), evicting the oldest
   * unused; with `admission`, only if `key` was asked for more often than each entry it evicts.
   */
  set(key: string, value: V): void {
    const size = this.#size(value);
    this.delete(key);
    if (size > this.#maxEntryBytes || size > this.#maxBytes) return;
    while (this.#bytes + size > this.#maxBytes && this.#entries.size > 0) {
      const [oldest, slot] = this.#entries.entries().next().value!;
      if (slot.used) {
        // Its second chance: to the young end, unmarked. Each entry moves at most once per pass,
        // so the walk ends.
        slot.used = false;
        this.#entries.delete(oldest);
        this.#entries.set(oldest, slot);
        continue;
      }
      if (this.#sketch !== undefined && !this.#sketch.admits(key, oldest)) return;
      this.delete(oldest);
      this.#evictions++;
    }
    this.#entries.set(key, { value, used: false });
    this.#bytes += size;
  }

  /** Drops `key`; returns whether it was held. */
  delete(key: string): boolean {
    const slot = this.#entries.get(key);
    if (slot === undefined) return false;
    this.#entries.delete(key);
    this.#bytes -= this.#size(slot.value);
    return true;
  }

  /** Counters and current size. */
  stats(): VariantCacheStats {
    return {
      hits: this.#hits,
      misses: this.#misses,
      evictions: this.#evictions,
      entries: this.#entries.size,
      bytes: this.#bytes,
    };
  }
}
