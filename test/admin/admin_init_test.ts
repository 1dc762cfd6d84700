/**
 * The admin CLI does not create a store file where a server expects an existing one unless it is
 * run with `--init` (issue #10 item 4), and it records in the store that the store has held data.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runAdmin, takeInitOption } from "../../src/admin/main.ts";
import { INITIALIZED_KEY } from "../../src/store/keyspace.ts";
import type { InitializedMarker } from "../../src/store/store_meta.ts";
import { runAdminCli } from "../support/admin_cli.ts";
import { storeFileExists } from "../../src/store/open_kv.ts";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "logo-admin-init-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("admin on a missing store file refuses without --init and creates nothing", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "data", "store.kv");
    for (const args of [["key", "create"], ["key", "list"], ["logo", "list"]]) {
      const result = await runAdminCli(path, args);
      assert.equal(result.code, 1, args.join(" "));
      assert.equal(
        result.stderr,
        `error: Cannot open the store at LOGO_KV=${path}: no store file exists there. Run again ` +
          "with --init to create a new, empty store.\n",
      );
      assert.equal(result.stdout, "");
    }
    assert.equal(
      await storeFileExists(join(dir, "data")),
      false,
      "not even the directory is created",
    );
  });
});

Deno.test("admin --init creates the store, once; later runs need no --init", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "data", "store.kv");
    const created = await runAdminCli(path, ["--init", "key", "create", "--plan", "pro"]);
    assert.equal(created.code, 0, created.stderr);
    assert.ok(
      created.stderr.endsWith(`Created a new, empty store at LOGO_KV=${path}.\n`),
      created.stderr,
    );
    assert.equal(JSON.parse(created.stdout).plan, "pro");
    assert.ok(await storeFileExists(path));

    const again = await runAdminCli(path, ["key", "create", "--init"]);
    assert.equal(again.code, 0, again.stderr);
    assert.ok(!again.stderr.includes("Created a new"), "--init on an existing store creates none");
    const listed = await runAdminCli(path, ["key", "list"]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(JSON.parse(listed.stdout).length, 2);
  });
});

Deno.test("admin records in the store that it has held data, and only then", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "store.kv");
    const empty = await runAdminCli(path, ["--init", "key", "list"]);
    assert.equal(empty.code, 0, empty.stderr);
    const read = async () => {
      const kv = await Deno.openKv(path);
      try {
        return (await kv.get<InitializedMarker>(INITIALIZED_KEY)).value;
      } finally {
        kv.close();
      }
    };
    assert.equal(await read(), null, "an empty store has not held data");
    const before = Date.now();
    const created = await runAdminCli(path, ["key", "create"]);
    assert.equal(created.code, 0, created.stderr);
    const marker = await read();
    assert.equal(marker?.by, "admin");
    assert.ok(marker !== null && marker.at >= before && marker.at <= Date.now());
  });
});

Deno.test("admin: --init is taken from anywhere before --; :memory: needs none", async () => {
  assert.deepEqual(takeInitOption(["key", "list"]), { init: false, args: ["key", "list"] });
  assert.deepEqual(takeInitOption(["logo", "--init", "list"]), {
    init: true,
    args: ["logo", "list"],
  });
  assert.deepEqual(takeInitOption(["logo", "add", "--", "--init"]), {
    init: false,
    args: ["logo", "add", "--", "--init"],
  });
  let out = "";
  let err = "";
  const code = await runAdmin(["key", "list"], {
    env: { LOGO_KV: ":memory:" },
    stdout: (text) => out += text,
    stderr: (text) => err += text,
    stderrIsTerminal: false,
  });
  assert.deepEqual([code, out, err], [0, "[]\n", ""]);
});
