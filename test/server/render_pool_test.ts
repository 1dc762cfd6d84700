/**
 * The render pool the server starts (`src/server/render_pool.ts`): its size from
 * `LOGO_RENDER_WORKERS` or the core count, a bad setting stopping start-up with a clear line, and
 * shutdown closing the pool — a render held in a worker fails "pool closed", the worker is gone,
 * and the render step answers that as a 503, never a 500.
 */
import assert from "node:assert/strict";
import { ImageCoreError } from "../../imagecore/mod.ts";
import { renderUnavailable } from "../../src/http/render_variant.ts";
import {
  defaultRenderWorkers,
  MAX_RENDER_WORKERS,
  RENDER_DEADLINE_MS,
  RENDER_QUEUE_PER_WORKER,
  RENDER_WORKER_NICENESS,
  renderDeadlineMs,
  renderWorkers,
  startRenderPool,
  stopRenderPool,
} from "../../src/server/render_pool.ts";
import type { ImagePool } from "../../imagecore/image_pool.ts";
import { seedIfEmpty } from "../../src/store/seed.ts";
import { flatImage } from "../support/images.ts";
import { startMainProcess } from "../support/main_process.ts";
import { threadNiceness } from "../support/thread_niceness.ts";

const LOGO = flatImage(40, 20, [0, 0, 255, 255]);

Deno.test("render pool: LOGO_RENDER_WORKERS, or the cores divided among the processes", () => {
  assert.equal(renderWorkers(undefined, 4), 4);
  assert.equal(renderWorkers("  ", 2), 2);
  assert.equal(renderWorkers("0", 8), 0);
  assert.equal(renderWorkers(" 3 ", 8), 3);
  assert.equal(renderWorkers(String(MAX_RENDER_WORKERS), 8), MAX_RENDER_WORKERS);
  assert.equal(defaultRenderWorkers(1), 1);
  assert.equal(renderWorkers(undefined, 8, 4), 2, "cores divided among LOGO_PROCESSES");
  assert.equal(renderWorkers(undefined, 2, 2), 1);
  assert.equal(renderWorkers(undefined, 2, 4), 1, "at least one per process");
  assert.equal(renderWorkers("3", 2, 2), 3, "the setting wins");
  assert.equal(defaultRenderWorkers(0), 1, "an unknown core count still gets a worker");
  for (const bad of ["-1", "1.5", "two", "1e3", String(MAX_RENDER_WORKERS + 1)]) {
    assert.throws(
      () => renderWorkers(bad, 2),
      new RangeError(
        `Invalid LOGO_RENDER_WORKERS "${bad}": expected a whole number from 0 (render inline) to ${MAX_RENDER_WORKERS}`,
      ),
    );
  }
});

Deno.test("render pool: 0 workers means inline; N workers queue N × the per-worker bound", async () => {
  assert.equal(startRenderPool(0), undefined);
  await using pool = startRenderPool(1)!;
  await pool.ready();
  const signal = new SharedArrayBuffer(4);
  const held = pool.runForTests("test:hold", { deadlineMs: 60_000 }, signal);
  const waiting = Array.from({ length: RENDER_QUEUE_PER_WORKER }, () => pool.probe(LOGO));
  await assert.rejects(pool.probe(LOGO), (e: ImageCoreError) => e.code === "busy");
  Atomics.store(new Int32Array(signal), 0, 1);
  Atomics.notify(new Int32Array(signal), 0);
  await held;
  for (const facts of await Promise.all(waiting)) assert.equal(facts.width, 40);
});

Deno.test("render pool: stopping is bounded even when a worker cannot be ended in time", async () => {
  const said: string[] = [];
  await stopRenderPool(undefined, (line) => said.push(line));
  assert.equal(said.length, 0, "inline renders: nothing to stop");
  const stuck = { close: () => new Promise<void>(() => {}) } as unknown as ImagePool;
  await stopRenderPool(stuck, (line) => said.push(line), 50);
  assert.deepEqual(said, ["Render workers did not stop within 50 ms; exiting without them."]);
  const pool = startRenderPool(1)!;
  await pool.ready();
  const held = pool.runForTests("test:hold", { deadlineMs: 60_000 }, new SharedArrayBuffer(4));
  await stopRenderPool(pool, (line) => said.push(line));
  assert.equal(said.at(-1), "Render workers stopped.");
  await assert.rejects(held, /pool closed/);
});

Deno.test("render pool: close ends a held render as 'pool closed', a 503 for the client", async () => {
  const pool = startRenderPool(2)!;
  await pool.ready();
  const held = pool.runForTests("test:hold", { deadlineMs: 60_000 }, new SharedArrayBuffer(4));
  await pool.close(); // would never return if the held worker were waited for instead of ended
  const error = await held.then(() => undefined, (e) => e);
  assert.ok(error instanceof ImageCoreError);
  assert.match(error.message, /pool closed/);
  assert.deepEqual(pool.stats(), {
    started: 2,
    queued: 0,
    running: 0,
    wasmBytes: [],
    niceness: [],
  });
  await assert.rejects(pool.transform(LOGO, { width: 10 }), /pool closed/);
  const answer = renderUnavailable(error);
  assert.equal(answer?.status, 503);
  assert.equal(answer?.headers["Retry-After"], "1");
});

Deno.test("render pool: the server renders with its workers and stops on SIGTERM", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await Deno.openKv(`${dir}/store.kv`);
  const demo = await seedIfEmpty(kv); // the demo key and logos, as main.ts would seed them
  kv.close();
  assert.ok(demo);
  await using server = await startMainProcess({
    LOGO_KV: `${dir}/store.kv`,
    LOGO_RENDER_WORKERS: "2",
    LOGO_WATCHDOG_MS: "0", // its thread is a worker too: only the render workers here
  });
  await server.line(/^Render workers: 2\.$/); // printed just after the listening line
  // The pool starts shortly after listening, or with the first render, as here.
  const url = new URL(`http://127.0.0.1:${server.port}${demo.path}&size=40&greyscale=true`);
  const response = await fetch(url);
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(response.headers.get("x-logo-width"), "40");
  await response.body?.cancel();
  if (Deno.build.os === "linux") {
    // The render threads yield to the serving thread: nice RENDER_WORKER_NICENESS, it keeps its own.
    // Each worker sets it once loaded: polled until both have, for at most 30 s.
    const expected = (threads: ReturnType<typeof threadNiceness>) =>
      Math.max(threads.find((t) => t.tid === server.pid)!.nice, RENDER_WORKER_NICENESS);
    const workers = (threads: ReturnType<typeof threadNiceness>) =>
      threads.filter((t) => /^worker-\d+$/.test(t.name)).map((t) => t.nice);
    let threads = threadNiceness(server.pid);
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      const nice = workers(threads);
      if (nice.length === 2 && nice.every((n) => n === expected(threads))) break;
      await new Promise((tick) => setTimeout(tick, 50));
      threads = threadNiceness(server.pid);
    }
    assert.deepEqual(
      workers(threads),
      [expected(threads), expected(threads)],
      JSON.stringify(threads),
    );
  }
  assert.equal(await server.stop(), 0);
  const stopping = server.printed.indexOf("Stopping…");
  assert.ok(stopping >= 0, server.printed.join("\n"));
  assert.ok(
    server.printed.indexOf("Render workers stopped.") > stopping,
    `the pool was not closed at shutdown:\n${server.printed.join("\n")}`,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("render pool: LOGO_RENDER_DEADLINE_MS is a whole number of ms from 100 to 60000", () => {
  assert.equal(renderDeadlineMs(undefined), RENDER_DEADLINE_MS);
  assert.equal(renderDeadlineMs(""), RENDER_DEADLINE_MS);
  assert.equal(renderDeadlineMs("100"), 100);
  assert.equal(renderDeadlineMs("30000"), 30_000);
  for (const bad of ["99", "60001", "1.5", "2s", "-1", "1e4"]) {
    assert.throws(() => renderDeadlineMs(bad), /^RangeError: Invalid LOGO_RENDER_DEADLINE_MS/);
  }
});

for (
  const [name, value, said] of [
    [
      "LOGO_RENDER_WORKERS",
      "many",
      /^Invalid LOGO_RENDER_WORKERS "many": expected a whole number from 0 \(render inline\)/m,
    ],
    [
      "LOGO_RENDER_DEADLINE_MS",
      "soon",
      /^Invalid LOGO_RENDER_DEADLINE_MS "soon": expected a whole number of ms from 100/m,
    ],
  ] as const
) {
  Deno.test(`render pool: a bad ${name} stops start-up with one clear line`, async () => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../../src/main.ts", import.meta.url).pathname],
      env: { [name]: value, LOGO_KV: ":memory:", PORT: "0", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 1);
    assert.match(new TextDecoder().decode(output.stderr), said);
  });
}
