/**
 * `/healthz` and `/readyz` through the application's handler, and the store file identity check
 * (`src/store/store_identity.ts`) on real files. The end-to-end `rm` under a running server is in
 * `store_replaced_test.ts`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createApp } from "../../src/http/app.ts";
import { createProbes, WRITE_PROBE_INTERVAL_MS } from "../../src/http/readiness.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { storeFileCheck } from "../../src/store/store_identity.ts";
import { faultyKv } from "../support/faulty_kv.ts";

/** What Deno KV throws for a write on a full disk (SQLITE_FULL; seen on a full tmpfs). */
const DISK_FULL = "database or disk is full";

/**
 * A `Deno.Kv` whose writes (`set`, `delete`, atomic commits) fail as on a full disk while `full`
 * is true; reads still answer, as they do on a full disk. Counts the writes attempted.
 */
function diskKv(inner: Deno.Kv): { kv: Deno.Kv; full: boolean; writes: number } {
  const control = { kv: undefined as unknown as Deno.Kv, full: false, writes: 0 };
  const write = <T>(run: () => Promise<T>): Promise<T> => {
    control.writes++;
    return control.full ? Promise.reject(new TypeError(DISK_FULL)) : run();
  };
  control.kv = new Proxy(inner, {
    get(target, property) {
      if (property === "set" || property === "delete") {
        return (...args: unknown[]) =>
          write(() =>
            (Reflect.get(target, property) as (...a: unknown[]) => Promise<unknown>)
              .apply(target, args)
          );
      }
      if (property === "atomic") {
        return () => {
          const operation = target.atomic();
          const proxy: Deno.AtomicOperation = new Proxy(operation, {
            get(op, name) {
              if (name === "commit") return () => write(() => op.commit());
              const value = Reflect.get(op, name);
              if (typeof value !== "function") return value;
              return (...args: unknown[]) => {
                const result = value.apply(op, args);
                return result === op ? proxy : result;
              };
            },
          });
          return proxy;
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return control;
}

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

Deno.test("/readyz is 503 while a full disk fails the KV writes that make every request 503", async () => {
  const inner = await Deno.openKv(":memory:");
  const disk = diskKv(inner);
  try {
    const { key } = await new KeyStore(inner).create({});
    await withApp({ kv: disk.kv }, async (handler, logged) => {
      const logo = () => handler(get(`/example.com?token=${key.publishableKey}`));
      disk.full = true;
      // The rate limiter cannot commit its lease: every request needing one is a 503.
      const requests = await Promise.all(Array.from({ length: 5 }, logo));
      assert.deepEqual(requests.map((r) => r.status), [503, 503, 503, 503, 503]);
      await Promise.all(requests.map((r) => r.body?.cancel()));
      const ready = await handler(get("/readyz"));
      assert.deepEqual(
        [ready.status, await ready.text()],
        [503, "Store write failed: the disk is full"],
      );
      assert.deepEqual(logged, ["Not ready: Store write failed: the disk is full"]);
      const live = await handler(get("/healthz"));
      assert.equal(live.status, 200, "liveness does not depend on the store");
      await live.body?.cancel();
    });
  } finally {
    inner.close();
  }
});

Deno.test("/readyz writes at most once per interval, leaves nothing, and sees the disk freed", async () => {
  const inner = await Deno.openKv(":memory:");
  const disk = diskKv(inner);
  try {
    let now = 0;
    const logged: string[] = [];
    const probes = createProbes({
      kv: disk.kv,
      clock: () => now,
      log: (line) => logged.push(line),
    });
    // Many probes at once, then more within the interval: one write.
    assert.deepEqual(await Promise.all([1, 2, 3].map(() => probes.ready())), [
      undefined,
      undefined,
      undefined,
    ]);
    for (let i = 0; i < 5; i++) assert.equal(await probes.ready(), undefined);
    assert.equal(disk.writes, 1, "one write for 8 probes within the interval");
    const left: Deno.KvKey[] = [];
    for await (const entry of inner.list({ prefix: [] })) left.push(entry.key);
    assert.deepEqual(left, [], "the probe's write leaves no entry");

    disk.full = true;
    now += WRITE_PROBE_INTERVAL_MS - 1;
    assert.equal(await probes.ready(), undefined, "the last write is reused within the interval");
    assert.equal(disk.writes, 1);
    now += 1;
    assert.equal(await probes.ready(), "Store write failed: the disk is full");
    assert.equal(await probes.ready(), "Store write failed: the disk is full");
    assert.equal(disk.writes, 2, "a failed write is reused too");

    disk.full = false;
    now += WRITE_PROBE_INTERVAL_MS;
    assert.equal(await probes.ready(), undefined, "ready again once a write succeeds");
    assert.equal(disk.writes, 3);
    assert.deepEqual(logged, [
      "Not ready: Store write failed: the disk is full",
      "Ready again: the store answers",
    ]);
  } finally {
    inner.close();
  }
});

Deno.test("/readyz bounds a write that does not answer, and does not pile up writes", async () => {
  const inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  try {
    let now = 0;
    const logged: string[] = [];
    const probes = createProbes({
      kv: faulty.kv,
      timeoutMs: 50,
      clock: () => now,
      log: (line) => logged.push(line),
    });
    faulty.commits = "hang";
    assert.equal(await probes.ready(), "Store did not answer a write within 50 ms");
    now += WRITE_PROBE_INTERVAL_MS;
    assert.equal(await probes.ready(), "Store did not answer a write within 50 ms");
    assert.equal(faulty.calls, 3, "two reads and one write: the hung write is waited for again");
    faulty.commits = "down";
    faulty.release(); // the hung write completes against the real KV
    assert.equal(await probes.ready(), undefined, "its success counts");
    now += WRITE_PROBE_INTERVAL_MS;
    assert.equal(await probes.ready(), "Store write failed");
    assert.deepEqual(logged, [
      "Not ready: Store did not answer a write within 50 ms",
      "Ready again: the store answers",
      "Not ready: Store write failed",
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
