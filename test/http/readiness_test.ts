/**
 * `/healthz` and `/readyz` through the application's handler, and the store file identity check
 * (`src/store/store_identity.ts`) on real files. The end-to-end `rm` under a running server is in
 * `store_replaced_test.ts`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createApp } from "../../src/http/app.ts";
import { createProbes } from "../../src/http/readiness.ts";
import { storeFileCheck } from "../../src/store/store_identity.ts";
import { faultyKv } from "../support/faulty_kv.ts";

async function withApp(
  deps: { checkStore?: () => string | undefined; kv?: Deno.Kv },
  fn: (handler: (request: Request) => Promise<Response>, logged: string[]) => Promise<void>,
): Promise<void> {
  const kv = deps.kv ?? await Deno.openKv(":memory:");
  const logged: string[] = [];
  const app = createApp({ kv, checkStore: deps.checkStore, log: (line) => logged.push(line) });
  try {
    await fn(app.handler, logged);
  } finally {
    await app.close();
    if (deps.kv === undefined) kv.close();
  }
}

const get = (path: string, method = "GET") =>
  new Request(`http://localhost${path}`, { method, headers: { host: "localhost" } });

Deno.test("/healthz and /readyz answer 200 ok, uncached, without a token", async () => {
  await withApp({}, async (handler) => {
    for (const path of ["/healthz", "/readyz", "/readyz?token=pk_x&v=2"]) {
      const response = await handler(get(path));
      assert.equal(response.status, 200, path);
      assert.equal(await response.text(), "ok");
      assert.equal(response.headers.get("cache-control"), "no-store");
      assert.equal(response.headers.get("content-type"), "text/plain; charset=utf-8");
    }
    const head = await handler(get("/healthz", "HEAD"));
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-length"), "2");
    assert.equal(await head.text(), "");
  });
});

Deno.test("other dot-less paths keep their answers: 400 for a label, 404 for a path", async () => {
  await withApp({}, async (handler) => {
    const answers: Record<string, [number, string]> = {
      "/HEALTHZ": [400, "Invalid domain format"],
      "/readyz2": [400, "Invalid domain format"],
      "/healthz/": [404, "Not found"],
      "/readyz/x": [404, "Not found"],
    };
    for (const [path, [status, body]] of Object.entries(answers)) {
      const response = await handler(get(path));
      assert.deepEqual([response.status, await response.text()], [status, body], path);
    }
    const post = await handler(get("/readyz", "POST"));
    assert.equal(post.status, 405);
    await post.body?.cancel();
  });
});

Deno.test("/readyz is 503 with the store check's reason, logged once per change", async () => {
  let problem: string | undefined = "Store file /x/y.kv was deleted; restore it";
  await withApp({ checkStore: () => problem }, async (handler, logged) => {
    for (let i = 0; i < 3; i++) {
      const response = await handler(get("/readyz"));
      assert.equal(response.status, 503);
      assert.equal(await response.text(), problem);
      assert.equal(response.headers.get("cache-control"), "no-store");
    }
    const head = await handler(get("/readyz", "HEAD"));
    assert.equal(head.status, 503);
    assert.equal(await head.text(), "");
    const live = await handler(get("/healthz"));
    assert.equal(live.status, 200, "liveness does not depend on the store");
    await live.body?.cancel();
    assert.deepEqual(logged, [`Not ready: ${problem}`]);

    problem = undefined;
    const again = await handler(get("/readyz"));
    assert.equal(again.status, 200);
    await again.body?.cancel();
    assert.deepEqual(logged, [
      `Not ready: Store file /x/y.kv was deleted; restore it`,
      "Ready again: the store answers",
    ]);
  });
});

Deno.test("/readyz is 503 when a KV read fails or does not answer within the bound", async () => {
  const inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  try {
    const logged: string[] = [];
    const probes = createProbes({ kv: faulty.kv, timeoutMs: 50, log: (line) => logged.push(line) });
    faulty.reads = "down";
    assert.equal(await probes.ready(), "Store read failed");
    faulty.reads = "hang";
    const [a, b] = await Promise.all([probes.ready(), probes.ready()]);
    assert.equal(a, "Store did not answer a read within 50 ms");
    assert.equal(b, a, "concurrent probes share one read");
    faulty.release();
    faulty.reads = "up";
    assert.equal(await probes.ready(), undefined);
    assert.deepEqual(logged, [
      "Not ready: Store read failed",
      "Not ready: Store did not answer a read within 50 ms",
      "Ready again: the store answers",
    ]);
  } finally {
    faulty.release();
    inner.close();
  }
});

Deno.test("storeFileCheck tells a deleted file from a replaced one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "store.kv");
    await Deno.writeTextFile(path, "x");
    const check = storeFileCheck(path);
    assert.ok(check !== undefined);
    assert.equal(check(), undefined);
    await Deno.writeTextFile(path, "rewritten in place: the same file");
    assert.equal(check(), undefined);
    const kept = join(dir, "kept");
    await Deno.rename(path, kept); // keeps the inode alive, so a new file cannot reuse it
    assert.equal(
      check(),
      `Store file ${path} was deleted (this server still serves the deleted copy); ` +
        "restore it and restart the server",
    );
    await Deno.writeTextFile(path, "x");
    assert.equal(
      check(),
      `Store file ${path} was replaced (not the file this server opened); restart the server`,
    );
    await Deno.rename(kept, path);
    assert.equal(check(), undefined, "the original file moved back is the same store again");
    assert.equal(storeFileCheck(":memory:"), undefined);
    assert.equal(storeFileCheck("https://kv.example/connect"), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
