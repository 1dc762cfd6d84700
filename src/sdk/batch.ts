/**
 * Bounded-concurrency batch work: run a task per input with at most N in flight, yielding each
 * outcome as soon as it settles (completion order), so one slow or failing input neither stops
 * nor holds up the others.
 *
 * @module
 */

/** The outcome of one input: its value or the error it failed with. */
export type Settled<T, R> =
  | { input: T; ok: true; value: R }
  | { input: T; ok: false; error: unknown };

/**
 * Runs `task` for each item of `inputs` (read lazily, so a huge or endless source is fine) with
 * at most `concurrency` tasks in flight, and yields each outcome in the order the tasks finish.
 * Each task gets a signal that aborts when the consumer stops early (`break`) or when `signal`
 * aborts; in the latter case the generator throws the signal's reason. Tasks still in flight
 * when the generator ends are aborted and awaited, so none outlives it.
 *
 * @example
 * ```ts
 * for await (const o of settleBounded([1, 2, 3], 2, async (n) => n * 2)) {
 *   console.log(o.input, o.ok ? o.value : o.error);
 * }
 * ```
 */
export async function* settleBounded<T, R>(
  inputs: Iterable<T> | AsyncIterable<T>,
  concurrency: number,
  task: (input: T, signal: AbortSignal) => Promise<R>,
  signal?: AbortSignal,
): AsyncGenerator<Settled<T, R>, void, undefined> {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError("Invalid concurrency: must be an integer of at least 1");
  }
  signal?.throwIfAborted();
  const stop = new AbortController();
  const taskSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const iterator = Symbol.asyncIterator in inputs
    ? inputs[Symbol.asyncIterator]()
    : (inputs as Iterable<T>)[Symbol.iterator]();
  const running = new Map<number, Promise<{ id: number; outcome: Settled<T, R> }>>();
  let nextId = 0;
  let exhausted = false;
  try {
    while (true) {
      while (!exhausted && running.size < concurrency) {
        const step = await iterator.next();
        if (step.done) {
          exhausted = true;
          break;
        }
        const id = nextId++;
        const input = step.value;
        const settled = (async () => {
          try {
            return { id, outcome: { input, ok: true, value: await task(input, taskSignal) } };
          } catch (error) {
            return { id, outcome: { input, ok: false, error } };
          }
        })() as Promise<{ id: number; outcome: Settled<T, R> }>;
        running.set(id, settled);
      }
      if (running.size === 0) return;
      const { id, outcome } = await Promise.race(running.values());
      running.delete(id);
      signal?.throwIfAborted();
      yield outcome;
    }
  } finally {
    // Stop what is still in flight and wait for it to wind down, so nothing outlives the batch.
    stop.abort(new DOMException("Batch stopped", "AbortError"));
    await Promise.all(running.values());
    if (!exhausted) await iterator.return?.();
  }
}
