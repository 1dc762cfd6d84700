/**
 * Issue #30 item 2 for real: the server (`src/main.ts`, a child process) keeps its store on a small
 * tmpfs, which is then filled. Reads still answer, but the rate limiter's lease commits fail, so
 * every request answers `503`; `/readyz` must say so too (it used to answer `200 ok`), and both
 * must recover on their own once space is freed.
 *
 * Mounting a tmpfs needs root on Linux: elsewhere the test is ignored with a warning, and the
 * same behaviour is covered without a disk by `readiness_test.ts` (writes failing with the error
 * this test sees, `database or disk is full`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { WRITE_PROBE_INTERVAL_MS } from "../../src/http/readiness.ts";
import { type Exchange, exchange } from "../support/http.ts";
import { type MainProcess, startMainProcess } from "../support/main_process.ts";

async function run(program: string, args: string[]): Promise<{ ok: boolean; stderr: string }> {
  try {
    const output = await new Deno.Command(program, { args, stdout: "null", stderr: "piped" })
      .output();
    return { ok: output.success, stderr: new TextDecoder().decode(output.stderr).trim() };
  } catch (error) {
    return { ok: false, stderr: String(error) };
  }
}

/** Mounts a tmpfs of `size` (e.g. "8m") at `dir`. */
async function mountTmpfs(dir: string, size: string): Promise<void> {
  const result = await run("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]);
  if (!result.ok) throw new Error(`mount failed: ${result.stderr}`);
}

async function unmount(dir: string): Promise<void> {
  const result = await run("umount", [dir]);
  if (!result.ok) throw new Error(`umount ${dir} failed: ${result.stderr}`);
}

/** Whether this process may mount a tmpfs (root on Linux, and a sandbox that allows it). */
async function canMountTmpfs(): Promise<boolean> {
  if (Deno.build.os !== "linux" || Deno.uid() !== 0) return false;
  const dir = await Deno.makeTempDir({ prefix: "logo-mount-check-" });
  try {
    await mountTmpfs(dir, "64k");
    await unmount(dir);
    return true;
  } catch {
    return false;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

const mountable = await canMountTmpfs();
if (!mountable) {
  console.warn("readiness_full_disk_test.ts: ignored (mounting a tmpfs needs root on Linux)");
}

/** Writes `path` until the file system is full; returns the bytes written. */
async function fillDisk(path: string): Promise<number> {
  using file = await Deno.open(path, { write: true, create: true });
  let written = 0;
  for (const size of [1 << 16, 512, 1]) {
    const chunk = new Uint8Array(size);
    try {
      for (;;) written += await file.write(chunk);
    } catch (error) {
      if (!String(error).includes("os error 28")) throw error; // ENOSPC
    }
  }
  return written;
}

/** Calls `probe` every 100 ms until `done` holds for its answer; fails after `withinMs`. */
async function until(
  what: string,
  probe: () => Promise<Exchange>,
  done: (answer: Exchange) => boolean,
  withinMs: number,
): Promise<Exchange> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const answer = await probe();
    if (done(answer)) return answer;
    if (Date.now() > deadline) {
      throw new Error(`${what}: still ${answer.status} ${answer.text} after ${withinMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The demo logo's URL (with its `?token=pk_…`) printed at start-up. */
async function demoUrl(server: MainProcess): Promise<string> {
  const line = await server.line(/^\s+http:\/\/\S+\?token=pk_/);
  return line.trim().replace("localhost", "127.0.0.1");
}

// Generous: readiness reuses a write's outcome for WRITE_PROBE_INTERVAL_MS; a loaded machine may
// take a few seconds more. Before the fix, /readyz never turned 503 at all.
const WITHIN_MS = 6 * WRITE_PROBE_INTERVAL_MS;

Deno.test({
  name: "a full disk under a running server: /readyz is 503 while requests are, and both recover",
  ignore: !mountable,
}, async () => {
  const dir = await Deno.makeTempDir({ prefix: "logo-full-disk-" });
  await mountTmpfs(dir, "8m");
  try {
    const path = join(dir, "store.kv");
    const filler = join(dir, "filler");
    await using server = await startMainProcess({ LOGO_KV: path });
    const logo = await demoUrl(server);
    const readyz = () => exchange(`http://127.0.0.1:${server.port}/readyz`);
    assert.deepEqual([(await readyz()).status, (await exchange(logo)).status], [200, 200]);

    assert.ok(await fillDisk(filler) > 0);
    // Quota already leased is spent first; then every request needs a lease commit, which fails.
    let served = 0;
    while ((await exchange(logo)).status === 200) assert.ok(++served < 10_000, "no 503 at all");
    const after: number[] = [];
    for (let i = 0; i < 20; i++) after.push((await exchange(logo)).status);
    assert.deepEqual(after, Array(20).fill(503), "once the disk is full, every request is 503");

    const notReady = await until(
      "/readyz on a full disk",
      readyz,
      (r) => r.status !== 200,
      WITHIN_MS,
    );
    assert.deepEqual([notReady.status, notReady.text], [
      503,
      "Store write failed: the disk is full",
    ]);

    await Deno.remove(filler);
    await until("/readyz once space is freed", readyz, (r) => r.status === 200, WITHIN_MS);
    await until(
      "a request once space is freed",
      () => exchange(logo),
      (r) => r.status === 200,
      WITHIN_MS,
    );

    assert.equal(await server.stop(), 0, server.printed.join("\n"));
    // Each change logged once (the first with the KV error after it).
    const changes = server.printed.filter((line) => /^(Not ready|Ready again)/.test(line));
    assert.equal(changes.length, 2, changes.join("\n"));
    assert.match(changes[0], /^Not ready: Store write failed: the disk is full\b/);
    assert.equal(changes[1], "Ready again: the store answers");
  } finally {
    await unmount(dir);
    await Deno.remove(dir, { recursive: true });
  }
});
