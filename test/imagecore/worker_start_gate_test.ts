/**
 * Worker threads are created only with file descriptors to spare (`canStartWorker`,
 * `imagecore/descriptor_headroom.ts`): creating one without them makes Deno 2.9.6 panic, and the
 * process ends. The pool with an injected check, then the real check in a process that holds every
 * descriptor (`test/support/workers_without_descriptors.ts`).
 */
import assert from "node:assert/strict";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { ImageCoreError } from "../../imagecore/mod.ts";
import { hasDescriptorHeadroom } from "../../imagecore/descriptor_headroom.ts";
import { renderUnavailable } from "../../src/http/render_variant.ts";

const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>',
);
const SCRIPT = new URL("../support/workers_without_descriptors.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

Deno.test("worker start gate: no worker may start, a job is refused busy; once one may, the pool fills and works", async () => {
  let allowed = false;
  let asked = 0;
  await using pool = startImagePool({
    size: 1,
    deadlineMs: 30_000,
    canStartWorker: () => (asked++, allowed),
  });
  const refused = await pool.transform(SVG, { width: 2 }).then(() => undefined, (e) => e);
  assert.ok(refused instanceof ImageCoreError && refused.code === "busy", String(refused));
  assert.match(refused.message, /no image worker can start now/);
  const answer = renderUnavailable(refused);
  assert.equal(answer?.status, 503);
  assert.equal(answer?.message, "Server busy: cannot start a render worker now; retry shortly");
  assert.equal(answer?.headers["Retry-After"], "1");
  assert.equal(pool.stats().started, 0);
  assert.equal(pool.stats().queued, 0, "the refused job does not stay queued");
  const before = asked;
  allowed = true;
  await pool.ready(); // the retry creates it
  assert.ok(asked > before);
  assert.equal(pool.stats().started, 1);
  const png = await pool.transform(SVG, { width: 2 });
  assert.ok(png.bytes.length > 0);
});

Deno.test("worker start gate: with free descriptors the check passes, and it takes none for good", () => {
  const before = [...Deno.readDirSync("/proc/self/fd")].length;
  assert.equal(hasDescriptorHeadroom(), true);
  assert.equal([...Deno.readDirSync("/proc/self/fd")].length, before);
});

Deno.test("worker start gate: a process holding every descriptor starts a pool and the watchdog without ending", async () => {
  const output = await new Deno.Command("sh", {
    args: [
      "-c",
      `ulimit -n 256 && exec "$0" "$@"`,
      Deno.execPath(),
      "run",
      "-A",
      "--config",
      CONFIG,
      SCRIPT,
    ],
    env: { NO_COLOR: "1" },
  }).output();
  const printed = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  console.log(printed.trim());
  assert.equal(output.code, 0, printed);
  assert.match(printed, /refused: Cannot process image: no image worker can start now/);
  assert.match(printed, /workers started: 0\n/);
  assert.match(printed, /after release: \d+-byte PNG, workers started: 1/);
  assert.match(printed, /watchdog thread started/);
});
