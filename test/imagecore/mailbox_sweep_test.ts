/**
 * The image pool's backstop for its shared-memory mailbox (`SWEEP_MS` in
 * `imagecore/pool/mailbox_wait.ts`): a job whose `Atomics.waitAsync` never settles — neither woken
 * by the worker nor timed out, as was seen under load — is still answered, or still stopped at its
 * deadline. The wait is made to never settle here by replacing `Atomics.waitAsync` in this isolate
 * (the pool's side); the worker, in its own isolate, keeps the real one.
 */
import assert from "node:assert/strict";
import { ImageCoreError, transform } from "../../imagecore/mod.ts";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { flatImage } from "../support/images.ts";

/** `promise`, or a failure when it has not settled after 10 s (a lost job would hang the test). */
async function within10s<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the job was never settled")), 10_000);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `body` with every `Atomics.waitAsync` of this isolate left pending for ever. */
async function withLostWakeUps(body: () => Promise<void>): Promise<void> {
  const real = Atomics.waitAsync;
  Atomics.waitAsync = (() => ({ async: true, value: new Promise<never>(() => {}) })) as never;
  try {
    await body();
  } finally {
    Atomics.waitAsync = real;
  }
}

Deno.test("image pool: a mailbox answer whose wake-up never comes is still delivered", async () => {
  await using pool = startImagePool({ size: 1 });
  await pool.ready();
  const png = flatImage(300, 150, [20, 120, 220, 255]);
  await withLostWakeUps(async () => {
    for (const width of [64, 100, 128]) {
      const out = await within10s(pool.transform(png, { width }));
      assert.deepEqual(out.bytes, transform(png, { width }).bytes, `${width} px`);
    }
  });
});

Deno.test("image pool: a mailbox job whose wait never times out is still stopped at its deadline", async () => {
  await using pool = startImagePool({ size: 1 });
  await pool.ready();
  const large = flatImage(3000, 3000, [200, 30, 30, 255]); // a 9-MP decode: far over 5 ms
  await withLostWakeUps(async () => {
    await assert.rejects(
      within10s(pool.transform(large, { width: 64 }, { deadlineMs: 5 })),
      (error) =>
        error instanceof ImageCoreError && error.code === "timeout" &&
        error.message === "Cannot process image: it took longer than 5 ms",
    );
    // The worker was replaced; the next job is answered.
    assert.equal(
      (await pool.transform(flatImage(40, 20, [0, 0, 0, 255]), { width: 20 })).width,
      20,
    );
  });
  assert.equal(pool.stats().started, 2);
});
