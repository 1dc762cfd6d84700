/**
 * Issue #10 item 4 end to end: the store file deleted under a running server (`src/main.ts` as a
 * child process on a temporary file store). `/readyz` says the file was deleted, then replaced
 * once the admin CLI made a new one with `--init`; the admin refuses to make one next to the
 * deleted store's `-wal`/`-shm` files, or without `--init`; each change is logged once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAdminCli } from "../support/admin_cli.ts";
import { exchange } from "../support/http.ts";
import { startMainProcess } from "../support/main_process.ts";
import { storeFileExists } from "../../src/store/open_kv.ts";

Deno.test("readiness reports the store file deleted, then replaced, under a running server", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "logo-store-rm-" }));
  const path = join(dir, "store.kv");
  const server = await startMainProcess({ LOGO_KV: path });
  const { port, printed } = server;
  try {
    const probe = (name: string, method = "GET") =>
      exchange(`http://127.0.0.1:${port}/${name}`, { method });

    const ready = await probe("readyz");
    assert.deepEqual([ready.status, ready.text], [200, "ok"]);
    assert.equal((await probe("healthz", "HEAD")).status, 200);

    await Deno.remove(path);
    const deleted = `Store file ${path} was deleted (this server still serves the deleted ` +
      "copy); restore it and restart the server";
    for (let i = 0; i < 3; i++) {
      const gone = await probe("readyz");
      assert.deepEqual([gone.status, gone.text], [503, deleted]);
      assert.equal(gone.headers.get("cache-control"), "no-store");
    }
    assert.deepEqual(
      [(await probe("healthz")).status, (await probe("readyz", "HEAD")).status],
      [200, 503],
    );

    // The deleted store's SQLite companions are still at the path: no new store beside them,
    // even with --init.
    for (const args of [["key", "create"], ["--init", "key", "create"]]) {
      const beside = await runAdminCli(path, args);
      assert.equal(beside.code, 1, beside.stderr);
      assert.equal(
        beside.stderr,
        `error: Cannot open the store at LOGO_KV=${path}: no store file exists there, but ` +
          `${path}-wal and ${path}-shm do (left by a store file deleted while a server had it ` +
          "open?). Stop the servers using it and move those files away before creating a store.\n",
      );
      assert.equal(await storeFileExists(path), false, "no store file created next to -wal/-shm");
    }

    await Deno.remove(`${path}-wal`);
    await Deno.remove(`${path}-shm`);
    const refused = await runAdminCli(path, ["key", "create"]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(
      refused.stderr,
      `error: Cannot open the store at LOGO_KV=${path}: no store file exists there. Run again ` +
        "with --init to create a new, empty store.\n",
    );
    assert.equal(refused.stdout, "");
    assert.equal(await storeFileExists(path), false, "no store file created without --init");

    const created = await runAdminCli(path, ["--init", "key", "create"]);
    assert.equal(created.code, 0, created.stderr);
    assert.ok(await storeFileExists(path));
    const replaced = await probe("readyz");
    assert.deepEqual([replaced.status, replaced.text], [
      503,
      `Store file ${path} was replaced (not the file this server opened); restart the server`,
    ]);
    await probe("readyz");

    assert.equal(await server.stop(), 0, printed.join("\n"));
    assert.deepEqual(printed.filter((line) => line.includes("ready")), [
      `Not ready: ${deleted}`,
      `Not ready: Store file ${path} was replaced (not the file this server opened); ` +
      "restart the server",
    ], "each change logged once");
  } finally {
    await server[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
});
