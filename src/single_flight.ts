/**
 * Single-flight: concurrent requests for the same work share one run of it.
 *
 * The first caller for a key starts the work; callers arriving while it runs get the same
 * promise (its value, or its error); once it settles the key is free, so the next caller starts
 * the work again. Nothing is cached beyond that. The work starts on a later microtask, after the
 * key is registered, so work that asks for its own key joins itself instead of starting twice.
 *
 * Used wherever concurrent work is merged: discoveries of one domain (`discovery/discover.ts`),
 * discoveries a request waits for (`resolve_logo.ts`), the refresh sweep
 * (`discovery/service.ts`), variant productions (`variant_cache.ts`) and readiness store reads
 * (`readiness.ts`).
 *
 * @example
 * ```ts
 * import { SingleFlight } from "./single_flight.ts";
 * const flights = new SingleFlight<string, number>();
 * let runs = 0;
 * const work = () => Promise.resolve(++runs);
 * const [a, b] = await Promise.all([flights.run("k", work), flights.run("k", work)]);
 * console.log(a, b, runs); // 1 1 1
 * ```
 * @module
 */

/** Merges concurrent runs of the same work by key; see the module doc. */
export class SingleFlight<K, V> {
  readonly #running = new Map<K, Promise<V>>();

  /**
   * The run in flight for `key`, or a new run of `work` (started on the next microtask; a
   * synchronous throw becomes a rejection).
   */
  run(key: K, work: () => V | PromiseLike<V>): Promise<V> {
    const running = this.#running.get(key);
    if (running !== undefined) return running;
    const promise: Promise<V> = Promise.resolve().then(work).finally(() => {
      if (this.#running.get(key) === promise) this.#running.delete(key);
    });
    this.#running.set(key, promise);
    return promise;
  }

  /** The run in flight for `key`, if any. */
  running(key: K): Promise<V> | undefined {
    return this.#running.get(key);
  }

  /** How many keys have a run in flight. */
  get size(): number {
    return this.#running.size;
  }
}
