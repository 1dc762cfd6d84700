/**
 * At most N at once: the two limits discovery puts on its own concurrency. A {@link semaphore}
 * bounds how many domains are discovered at once; {@link pool} bounds how many candidate
 * fetches of one discovery are in flight.
 *
 * @module
 */

/**
 * A counting semaphore: at most `size` holders; the others wait in arrival order. Acquiring
 * resolves to the function that releases.
 *
 * @example
 * ```ts
 * const acquire = semaphore(8);
 * const release = await acquire();
 * try {
 *   // …at most 8 callers are here at once…
 * } finally {
 *   release();
 * }
 * ```
 */
export function semaphore(size: number): () => Promise<() => void> {
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
 * Runs `work` on every item, in order, with at most `limit` in flight; resolves when all are done.
 *
 * @example
 * ```ts
 * const sizes: number[] = [];
 * await pool(["a", "bb", "ccc"], 2, async (text) => { sizes.push(text.length); });
 * ```
 */
export async function pool<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}
