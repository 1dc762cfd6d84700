import assert from "node:assert/strict";
import {
  encodeRgba,
  ImageCoreError,
  type ImageCoreErrorCode,
  transform,
} from "../../imagecore/mod.ts";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { flatImage } from "../support/images.ts";
import { threadNiceness } from "../support/thread_niceness.ts";

const SVG = new TextEncoder().encode(
  `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="4"><rect width="8" height="4"/></svg>`,
);

function refusedWith(code: ImageCoreErrorCode, message?: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof ImageCoreError, `not an ImageCoreError: ${error}`);
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  };
}

Deno.test("image pool: a job's deadline starts when a ready worker takes it, not while loading", async () => {
  // Submitted before the worker has even loaded imagecore (type-checked and compiled on a first
  // run): a per-call Worker counted that loading against the deadline and timed out.
  // 1 s: far below loading on a first run, far above the render on a loaded 2-core machine
  // (300 ms timed out there under a parallel test run with other work).
  await using pool = startImagePool({ deadlineMs: 1_000 });
  const out = await pool.transform(SVG, { width: 40 });
  assert.deepEqual([out.width, out.height, out.format], [40, 20, "png"]);
  assert.equal(pool.stats().started, 1);
});

Deno.test("image pool: results and imagecore's refusals come back with their codes", async () => {
  await using pool = startImagePool();
  await pool.ready();
  const png = flatImage(300, 200, [10, 20, 30, 255]);
  assert.deepEqual(await pool.probe(png), { format: "png", width: 300, height: 200 });
  const out = await pool.transform(png, { width: 30, format: "webp" });
  assert.deepEqual([out.width, out.height, out.format], [30, 20, "webp"]);
  assert.ok(out.bytes instanceof Uint8Array && out.bytes.length > 0);
  await assert.rejects(pool.probe(new Uint8Array([1, 2, 3])), refusedWith("unsupported_format"));
  await assert.rejects(pool.transform(png, { width: 0 }), refusedWith("invalid_argument"));
});

Deno.test("image pool: bytes cross as whole buffers; the caller's input stays usable", async () => {
  await using pool = startImagePool();
  await pool.ready();
  // A view into a larger buffer, as a cached source or a KV read may be.
  const png = flatImage(64, 32, [200, 0, 0, 255]);
  const backing = new Uint8Array(png.length + 16);
  backing.set(png, 8);
  const view = backing.subarray(8, 8 + png.length);
  const out = await pool.transform(view, { width: 16 });
  assert.equal(view.byteLength, png.length, "the caller's bytes were not transferred away");
  assert.deepEqual(view, png);
  assert.ok(out.bytes instanceof Uint8Array);
  assert.deepEqual(out.bytes, transform(png, { width: 16 }).bytes);
});

Deno.test("image pool: without a memory cap, jobs never read the process RSS", async () => {
  let reads = 0;
  const rss = () => (reads++, Deno.memoryUsage().rss);
  await using uncapped = startImagePool({ maxJobMemoryBytes: Infinity, rss });
  await uncapped.ready();
  await uncapped.transform(flatImage(64, 32, [0, 90, 200, 255]), { width: 16 });
  assert.equal(reads, 0, "the render pool's trusted jobs skip the watchdog's reads");
  await using capped = startImagePool({ rss });
  await capped.ready();
  await capped.transform(flatImage(64, 32, [0, 90, 200, 255]), { width: 16 });
  assert.ok(reads > 0, "a capped pool reads it at the start of each job");
});

Deno.test("image pool: a job past its deadline is stopped, its worker replaced, the next job runs", async () => {
  await using pool = startImagePool({ deadlineMs: 100 });
  await pool.ready();
  await assert.rejects(
    pool.runForTests("test:spin"),
    refusedWith("timeout", /Cannot process image: it took longer than 100 ms/),
  );
  // The spinning worker could never answer again: this result comes from its replacement.
  assert.equal((await pool.transform(SVG, { width: 16 }, { deadlineMs: 30_000 })).width, 16);
  assert.equal(pool.stats().started, 2);
});

Deno.test("image pool: what does not fit the shared mailbox goes by message, with the same results", async () => {
  const side = 96;
  const pixels = new Uint8Array(side * side * 4);
  crypto.getRandomValues(pixels); // noise: a PNG as large as its pixels
  const png = encodeRgba(pixels, side, side, "png");
  const mailboxBytes = 4096;
  assert.ok(png.length > mailboxBytes, `the PNG is ${png.length} bytes`);
  const small = flatImage(64, 32, [0, 90, 200, 255]);
  await using pool = startImagePool({ mailboxBytes });
  await pool.ready();
  // Input too large for the mailbox; then a small input whose result is too large for it.
  assert.deepEqual(
    (await pool.transform(png, { width: 40 })).bytes,
    transform(png, { width: 40 }).bytes,
  );
  const wide = await pool.transform(png.subarray(0, png.length), { width: 90, format: "webp" });
  assert.deepEqual(wide.bytes, transform(png, { width: 90, format: "webp" }).bytes);
  const tiny = encodeRgba(pixels.subarray(0, 8 * 8 * 4), 8, 8, "png");
  assert.ok(tiny.length < mailboxBytes, `the small PNG is ${tiny.length} bytes`);
  const grown = transform(tiny, { width: 200 });
  assert.ok(grown.bytes.length > mailboxBytes, `its 200-px render is ${grown.bytes.length} bytes`);
  assert.deepEqual((await pool.transform(tiny, { width: 200 })).bytes, grown.bytes);
  // Options the mailbox cannot carry keep imagecore's own refusal.
  const gif = { format: "gif" } as unknown as { format: "png" };
  await assert.rejects(
    pool.transform(small, gif),
    refusedWith("invalid_argument", /unknown format "gif"/),
  );
  assert.equal(pool.stats().started, 1, "one worker did all of it");
});

Deno.test("image pool: with the mailbox off, every job goes by message and keeps its deadline", async () => {
  await using pool = startImagePool({ mailboxBytes: 0, deadlineMs: 100 });
  await pool.ready();
  await assert.rejects(
    pool.runForTests("test:spin"),
    refusedWith("timeout", /Cannot process image: it took longer than 100 ms/),
  );
  const small = flatImage(64, 32, [0, 90, 200, 255]);
  const out = await pool.transform(small, { width: 16 }, { deadlineMs: 30_000 });
  assert.deepEqual(out.bytes, transform(small, { width: 16 }).bytes);
});

Deno.test("image pool: the worker's JS heap is capped; a job that exhausts it ends, the pool goes on", async () => {
  // The RSS watchdog is off here: only resourceLimits can hold this loop's memory down. Deno 2.9
  // stops the worker's JS at the cap without an error event when it is inside a message handler,
  // so the job ends at its deadline (or as too_large when the event comes).
  await using pool = startImagePool({
    maxHeapMb: 32,
    maxJobMemoryBytes: Infinity,
    deadlineMs: 3000,
  });
  await pool.ready();
  const before = Deno.memoryUsage().rss;
  await assert.rejects(pool.runForTests("test:heap"), (error: unknown) => {
    assert.ok(error instanceof ImageCoreError && ["timeout", "too_large"].includes(error.code));
    return true;
  });
  const grown = Deno.memoryUsage().rss - before;
  assert.ok(grown < 200 * 2 ** 20, `the process grew ${Math.round(grown / 2 ** 20)} MiB`);
  assert.equal((await pool.probe(SVG)).width, 8);
  assert.equal(pool.stats().started, 2);
});

Deno.test("image pool: memory growing outside the JS heap (WASM) is stopped at maxJobMemoryBytes", async () => {
  await using pool = startImagePool({ maxJobMemoryBytes: 96 * 2 ** 20, deadlineMs: 60_000 });
  await pool.ready();
  const before = Deno.memoryUsage().rss;
  await assert.rejects(
    pool.runForTests("test:grow"),
    refusedWith("too_large", /Cannot decode image: it needs more than 96 MiB of memory/),
  );
  assert.ok(Deno.memoryUsage().rss - before < 1024 * 2 ** 20, "stopped long before 1 GiB");
  assert.equal((await pool.probe(SVG)).height, 4);
});

Deno.test("image pool: a trap in WASM fails the job as internal and the next job works", async () => {
  await using pool = startImagePool();
  await pool.ready();
  await assert.rejects(pool.runForTests("test:trap"), refusedWith("internal"));
  assert.equal((await pool.probe(SVG)).format, "svg");
});

Deno.test("image pool: a worker left holding a large WASM memory is replaced after its job", async () => {
  await using pool = startImagePool({ recycleAboveBytes: 16 * 2 ** 20, deadlineMs: 30_000 });
  await pool.ready();
  await pool.transform(flatImage(64, 64, [1, 2, 3, 255]), { width: 32 });
  assert.equal(pool.stats().started, 1, "a small job leaves the worker in place");
  // 2100 × 2100 RGBA is 17 MiB decoded, in the worker's WASM memory after the job.
  const big = await pool.transform(flatImage(2100, 2100, [200, 0, 0, 255]), { width: 100 });
  assert.equal(big.width, 100);
  assert.equal(pool.stats().started, 2, "the large job's worker was replaced");
  assert.equal((await pool.probe(SVG)).width, 8);
});

Deno.test("image pool: the queue is bounded; close rejects what waits and stops the workers", async () => {
  const pool = startImagePool({ maxQueue: 1, deadlineMs: 60_000 });
  await pool.ready();
  const running = pool.runForTests("test:spin");
  const waiting = pool.probe(SVG);
  await assert.rejects(
    pool.probe(SVG),
    refusedWith("busy", /Cannot process image: 1 images are already waiting/),
  );
  const { wasmBytes, niceness, ...counts } = pool.stats();
  assert.deepEqual(counts, { started: 1, queued: 1, running: 1 });
  assert.equal(niceness.length, 1);
  assert.equal(wasmBytes.length, 1);
  assert.ok(wasmBytes[0] > 0, "the worker reported its WASM memory when it became ready");
  await pool.close();
  await assert.rejects(running, refusedWith("internal", /pool closed/));
  await assert.rejects(waiting, refusedWith("internal", /pool closed/));
  await assert.rejects(pool.probe(SVG), refusedWith("internal", /pool closed/));
});

Deno.test("image pool: a legitimate 4 MB, 1000×1000 PNG decodes under the default JS heap cap", async () => {
  // Noise, so the PNG stays large: 1000×1000 RGBA compresses to about 4 MB.
  const side = 1000;
  const pixels = new Uint8Array(side * side * 4);
  crypto.getRandomValues(pixels.subarray(0, 65_536));
  for (let i = 65_536; i < pixels.length; i++) pixels[i] = pixels[i % 65_536] ^ (i & 0xff);
  const png = encodeRgba(pixels, side, side, "png");
  assert.ok(png.length > 3_000_000, `the PNG is ${png.length} bytes`);
  // A generous deadline: only the JS heap cap can fail this, not a slow machine. The RSS watchdog
  // is off here: it measures the whole test process, which other tests in this file have grown.
  await using pool = startImagePool({ deadlineMs: 60_000, maxJobMemoryBytes: Infinity });
  await pool.ready();
  const out = await pool.transform(png, { width: 128 });
  assert.equal(out.width, 128);
  assert.equal(out.height, 128);
});

Deno.test({
  name: "image pool: each worker thread lowers its own priority to `niceness`; the caller's stays",
  ignore: Deno.build.os !== "linux",
  async fn() {
    // Other test files run in this process at the same time (--parallel) and start workers of
    // their own, at the process's priority: the workers at nice 7 can only be this pool's.
    const own = threadNiceness(Deno.pid).find((t) => t.tid === Deno.pid)!.nice;
    const atSeven = () => threadNiceness(Deno.pid).filter((t) => t.nice === 7);
    if (own < 7) assert.deepEqual(atSeven(), []);
    await using pool = startImagePool({ size: 2, niceness: 7 });
    await pool.ready();
    const expected = Math.max(own, 7); // a thread never raises its priority (a niced test run)
    assert.deepEqual(pool.stats().niceness, [expected, expected]);
    if (own < 7) {
      const workers = atSeven();
      assert.equal(workers.length, 2, JSON.stringify(workers));
      assert.ok(workers.every((t) => /^worker-\d+$/.test(t.name)), JSON.stringify(workers));
    }
    assert.equal(threadNiceness(Deno.pid).find((t) => t.tid === Deno.pid)!.nice, own);
    // A job still runs at the lower priority.
    assert.equal((await pool.transform(SVG, { width: 16 })).width, 16);
  },
});

Deno.test("image pool: by default workers keep the process's priority; a bad niceness is refused", async () => {
  await using pool = startImagePool();
  await pool.ready();
  assert.deepEqual(pool.stats().niceness, [null]); // not set
  for (const niceness of [-1, 20, 2.5, NaN]) {
    assert.throws(() => startImagePool({ niceness }), RangeError);
  }
});
