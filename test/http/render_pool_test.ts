/**
 * Renders on the request path run in the render pool's workers, not in the serving isolate: a
 * cache hit is answered while a render waits in the pool, a full render queue answers 503 with
 * Retry-After, and a render whose worker dies answers a logged 500 while the next render works.
 *
 * The pool is a real `imagecore/image_pool.ts` pool with one worker. Its `test:hold` job holds
 * that worker until the test releases it, so "a render is still running" is a state the test
 * controls, not a matter of timing.
 */
import assert from "node:assert/strict";
import { type ImageWork, startImagePool } from "../../imagecore/image_pool.ts";
import { probe } from "../../imagecore/mod.ts";
import { flatImage } from "../support/images.ts";
import { holdWorker } from "../support/hold_worker.ts";
import { startTestApp } from "../support/server.ts";

const LOGO = flatImage(600, 200, [250, 120, 0, 255]);

/** The pool as the app's `imaging`, with an event per render handed to it. */
function watched(pool: ImageWork) {
  let waiters: (() => void)[] = [];
  const imaging: ImageWork = {
    probe: (input, job) => pool.probe(input, job),
    renditions: (input, options, job) => pool.renditions(input, options, job),
    transform(input, options, job) {
      const submitted = pool.transform(input, options, job);
      for (const wake of waiters.splice(0)) wake();
      return submitted;
    },
  };
  const nextRender = () => new Promise<void>((resolve) => waiters.push(resolve));
  return { imaging, nextRender, reset: () => waiters = [] };
}

async function startWithPool(imaging: ImageWork, log?: (message: string, error?: unknown) => void) {
  const server = await startTestApp({ app: { imaging, log } });
  await server.addLogo("example.com", LOGO);
  return server;
}

Deno.test("render pool: renders in the worker give the same bytes as in process", async () => {
  await using pool = startImagePool({ size: 1 });
  await pool.ready();
  await using pooled = await startWithPool(pool);
  await using inline = await startTestApp();
  await inline.addLogo("example.com", LOGO);
  const cases: Record<string, string>[] = [{ size: "64" }, {
    size: "300",
    greyscale: "true",
    format: "webp",
  }];
  for (const params of cases) {
    const a = await pooled.exchange(pooled.logoUrl("example.com", params));
    const b = await inline.exchange(inline.logoUrl("example.com", params));
    assert.equal(a.status, 200);
    assert.deepEqual(a.bytes, b.bytes);
  }
});

Deno.test("render pool: a cache hit is answered while a render waits in the pool", async () => {
  await using pool = startImagePool({ size: 1 });
  await pool.ready();
  const { imaging, nextRender } = watched(pool);
  await using server = await startWithPool(imaging);
  const hitUrl = server.logoUrl("example.com", { size: "32" });
  assert.equal((await server.exchange(hitUrl)).status, 200); // rendered once, now cached

  const worker = holdWorker(pool);
  const handed = nextRender();
  let renderDone = false;
  const render = server.exchange(server.logoUrl("example.com", { size: "64" }))
    .finally(() => renderDone = true);
  await handed; // the cold render is in the pool, behind the held job
  const hit = await server.exchange(hitUrl);
  assert.equal(hit.status, 200);
  assert.equal(probe(hit.bytes).width, 32);
  assert.equal(renderDone, false, "the cache hit was answered before the render finished");

  await worker.release();
  const rendered = await render;
  assert.equal(rendered.status, 200);
  assert.equal(probe(rendered.bytes).width, 64);
});

Deno.test("render pool: a full queue answers 503 with Retry-After, then renders again", async () => {
  await using pool = startImagePool({ size: 1, maxQueue: 1 });
  await pool.ready();
  const { imaging, nextRender } = watched(pool);
  await using server = await startWithPool(imaging);
  const worker = holdWorker(pool);
  const handed = nextRender();
  const queued = server.exchange(server.logoUrl("example.com", { size: "64" }));
  await handed; // the one queue place is taken
  const refused = await server.exchange(server.logoUrl("example.com", { size: "48" }));
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get("retry-after"), "1");
  assert.equal(refused.text, "Server busy: too many renders queued; retry shortly");

  await worker.release();
  assert.equal((await queued).status, 200);
  const retried = await server.exchange(server.logoUrl("example.com", { size: "48" }));
  assert.equal(retried.status, 200);
  assert.equal(probe(retried.bytes).width, 48);
});

Deno.test("render pool: a worker dying mid-render answers a logged 500; the next works", async () => {
  await using pool = startImagePool({ size: 1 });
  await pool.ready();
  let dies = true;
  // The first render's job ends its worker (`test:exit`), as a crash inside imagecore would.
  const imaging: ImageWork = {
    probe: (input, job) => pool.probe(input, job),
    renditions: (input, options, job) => pool.renditions(input, options, job),
    transform: (input, options, job) =>
      dies
        ? (dies = false, pool.runForTests("test:exit", job) as never)
        : pool.transform(input, options, job),
  };
  const logged: string[] = [];
  await using server = await startWithPool(imaging, (message, error) => {
    logged.push(`${message}: ${error instanceof Error ? error.message : error}`);
  });
  const url = server.logoUrl("example.com", { size: "64" });
  const failed = await server.exchange(url);
  assert.equal(failed.status, 500);
  assert.equal(failed.text, "Internal server error");
  assert.match(logged.join("\n"), /Cannot process image: the image worker exited/);

  const next = await server.exchange(url);
  assert.equal(next.status, 200);
  assert.equal(probe(next.bytes).width, 64);
  assert.equal(pool.stats().started, 2, "the dead worker was replaced");
});
