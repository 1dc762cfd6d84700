/**
 * `fallback=monogram` tiles are drawn in the render pool, like every other render (issue 30,
 * defect 1): never in the isolate that serves requests, so a cache hit is answered while tiles
 * wait in the pool, and a full queue answers 503 with Retry-After.
 *
 * The pool is a real `imagecore/image_pool.ts` pool with one worker. Its `test:hold` job holds
 * that worker until the test releases it, so "tiles are waiting in the pool" is a state the test
 * controls, not a matter of timing: a tile drawn anywhere else is answered while the worker is
 * held, which the tests catch.
 */
import assert from "node:assert/strict";
import {
  type ImagePool,
  type ImageWork,
  type MonogramWork,
  startImagePool,
} from "../../imagecore/image_pool.ts";
import { ImageCoreError, probe } from "../../imagecore/mod.ts";
import { flatImage } from "../support/images.ts";
import { holdWorker } from "../support/hold_worker.ts";
import { startTestApp } from "../support/server.ts";

const LOGO = flatImage(600, 200, [250, 120, 0, 255]);

/**
 * The pool as the app's `imaging`, counting the jobs handed to it by operation, with an event per
 * job. With `monogram: false` it offers only `ImageWork` (no monogram job), as an `imaging` of
 * the app's embedder may; the server's (`src/server/service.ts`) forwards the pool's.
 */
function watched(pool: ImagePool, { monogram = true } = {}) {
  const jobs = { transform: 0, monogram: 0 };
  const waiters: (() => void)[] = [];
  const handed = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  const work: ImageWork = {
    probe: (input, job) => pool.probe(input, job),
    renditions: (input, options, job) => pool.renditions(input, options, job),
    transform(input, options, job) {
      jobs.transform++;
      const submitted = pool.transform(input, options, job);
      handed();
      return submitted;
    },
  };
  const monograms: MonogramWork = {
    monogram(label, domain, options, job) {
      jobs.monogram++;
      const submitted = pool.monogram(label, domain, options, job);
      handed();
      return submitted;
    },
  };
  const imaging = monogram ? { ...work, ...monograms } : work;
  const nextJob = () => new Promise<void>((resolve) => waiters.push(resolve));
  return { imaging, jobs, nextJob };
}

/** Which comes first: the job reaching the pool, or the answer (drawn somewhere else). */
async function firstOf(handed: Promise<void>, answered: Promise<unknown>) {
  return await Promise.race([handed.then(() => "pool"), answered.then(() => "answered")]);
}

/** A tile drawn in process, the way a server without a pool draws it. */
async function inProcessTile(domain: string, params: Record<string, string>) {
  await using inline = await startTestApp();
  const tile = await inline.exchange(inline.logoUrl(domain, { fallback: "monogram", ...params }));
  assert.equal(tile.status, 200, tile.text);
  return tile.bytes;
}

for (const monogram of [true, false]) {
  const how = monogram ? "the pool's monogram job" : "a transform job (ImageWork only)";
  Deno.test(`monogram in the render pool, by ${how}: a cache hit is answered while tiles wait`, async () => {
    await using pool = startImagePool({ size: 1 });
    await pool.ready();
    const { imaging, jobs, nextJob } = watched(pool, { monogram });
    await using server = await startTestApp({ app: { imaging } });
    await server.addLogo("example.com", LOGO);
    const hitUrl = server.logoUrl("example.com", { size: "32" });
    assert.equal((await server.exchange(hitUrl)).status, 200); // rendered once, now cached
    const renders = jobs.transform;

    const worker = holdWorker(pool);
    const tileUrl = (domain: string) =>
      server.logoUrl(domain, { fallback: "monogram", size: "300", format: "webp" });
    let tilesDone = 0;
    const tiles = ["nothing.example", "www.other.example"].map((domain) =>
      server.exchange(tileUrl(domain)).finally(() => tilesDone++)
    );
    for (const [i, tile] of tiles.entries()) {
      // On the serving isolate a tile is drawn, and answered, while the only worker is held.
      assert.equal(
        await firstOf(nextJob(), tile),
        "pool",
        `tile ${i + 1} was answered while the pool's only worker was held: drawn outside the pool`,
      );
    }
    assert.equal(pool.stats().queued, 2, "both tiles wait in the pool's queue");
    // [monogram jobs, transform jobs] for the two tiles.
    assert.deepEqual([jobs.monogram, jobs.transform - renders], monogram ? [2, 0] : [0, 2]);

    const hit = await server.exchange(hitUrl);
    assert.equal(hit.status, 200);
    assert.equal(probe(hit.bytes).width, 32);
    assert.equal(tilesDone, 0, "the cache hit was answered before any tile was drawn");

    await worker.release();
    const [first, second] = await Promise.all(tiles);
    for (const tile of [first, second]) {
      assert.equal(tile.status, 200, tile.text);
      assert.equal(tile.headers.get("x-logo-fallback"), "monogram");
      assert.equal(tile.headers.get("content-type"), "image/webp");
      assert.equal(tile.headers.get("x-logo-width"), "300");
    }
    const params = { size: "300", format: "webp" };
    assert.deepEqual(first.bytes, await inProcessTile("nothing.example", params));
    assert.deepEqual(second.bytes, await inProcessTile("www.other.example", params));

    // Drawn once: the next ask is a cache hit, no job.
    const before = jobs.monogram + jobs.transform;
    assert.equal((await server.exchange(tileUrl("nothing.example"))).status, 200);
    assert.equal(jobs.monogram + jobs.transform, before);
  });
}

Deno.test("monogram in the render pool: a full queue answers 503 with Retry-After, then draws", async () => {
  await using pool = startImagePool({ size: 1, maxQueue: 1 });
  await pool.ready();
  const { imaging, nextJob } = watched(pool);
  await using server = await startTestApp({ app: { imaging } });
  const worker = holdWorker(pool);
  const tileUrl = (domain: string) => server.logoUrl(domain, { fallback: "monogram" });
  const queued = server.exchange(tileUrl("first.example"));
  assert.equal(await firstOf(nextJob(), queued), "pool", "the tile went to the pool");
  const refused = await server.exchange(tileUrl("second.example"));
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get("retry-after"), "1");
  assert.equal(refused.text, "Server busy: too many renders queued; retry shortly");

  await worker.release();
  assert.equal((await queued).status, 200);
  const retried = await server.exchange(tileUrl("second.example"));
  assert.equal(retried.status, 200, retried.text);
  assert.equal(retried.headers.get("x-logo-fallback"), "monogram");
});

Deno.test("monogram in the render pool: a tile past the pool's deadline answers 503, not 500", async () => {
  // The pool's own deadline is shown on a real worker in test/imagecore/; here, that the monogram
  // step answers its `timeout` as the render step does.
  const timedOut = () =>
    Promise.reject(
      new ImageCoreError("timeout", "Cannot process image: it took longer than 2000 ms"),
    );
  const imaging: ImageWork & MonogramWork = {
    probe: () => timedOut(),
    transform: () => timedOut(),
    renditions: () => timedOut(),
    monogram: () => timedOut(),
  };
  await using server = await startTestApp({ app: { imaging } });
  const late = await server.exchange(server.logoUrl("nothing.example", { fallback: "monogram" }));
  assert.equal(late.status, 503);
  assert.equal(late.headers.get("retry-after"), "1");
  assert.equal(late.text, "Server busy: the render took too long; retry shortly");
});

Deno.test("monogram in the render pool: the serving isolate never instantiates imagecore", async () => {
  // In a process of its own, so that no other test's in-process imagecore call counts.
  const script = new URL("./monogram_serving_isolate.ts", import.meta.url).pathname;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const printed = new TextDecoder().decode(output.stdout).trim();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  assert.deepEqual(JSON.parse(printed.split("\n").at(-1)!), {
    statuses: [200, 200],
    serverWasmBytes: 0,
    poolJobs: 2,
  });
});
