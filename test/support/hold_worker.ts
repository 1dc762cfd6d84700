/** Holding a render pool's worker busy for as long as a test wants. */
import assert from "node:assert/strict";
import type { ImagePool } from "../../imagecore/image_pool.ts";

/** Holds the pool's one worker with a `test:hold` job; `release()` lets it finish. */
export function holdWorker(pool: ImagePool): { release(): Promise<void> } {
  const signal = new SharedArrayBuffer(4);
  const held = pool.runForTests("test:hold", { deadlineMs: 60_000 }, signal);
  held.catch(() => {}); // rejected by the pool's close when a test fails first: not what failed
  assert.equal(pool.stats().running, 1, "the hold job runs in the worker");
  return {
    async release() {
      const cell = new Int32Array(signal);
      Atomics.store(cell, 0, 1);
      Atomics.notify(cell, 0);
      await held;
    },
  };
}
