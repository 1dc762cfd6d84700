import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_KV_PATH, isRemoteKv, kvLocation, openKv } from "../../src/store/open_kv.ts";

Deno.test("LOGO_KV defaults to ./data/logo-lookup.kv when unset or blank", () => {
  assert.equal(kvLocation(undefined), DEFAULT_KV_PATH);
  assert.equal(kvLocation("  "), DEFAULT_KV_PATH);
  assert.equal(kvLocation(" /srv/logos.kv "), "/srv/logos.kv");
  assert.equal(DEFAULT_KV_PATH, "./data/logo-lookup.kv");
});

Deno.test("LOGO_KV https URLs are remote, paths are local", () => {
  assert.equal(isRemoteKv("https://api.deno.com/databases/abc/connect"), true);
  assert.equal(isRemoteKv("./data/logo-lookup.kv"), false);
  assert.equal(isRemoteKv(":memory:"), false);
});

Deno.test("openKv creates the directory of a local KV file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "logo-kv-" });
  try {
    const path = join(dir, "nested", "deeper", "store.kv");
    const kv = await openKv(path);
    await kv.set(["x"], 1);
    kv.close();
    assert.ok((await Deno.stat(path)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openKv explains a location it cannot open", async () => {
  const dir = await Deno.makeTempDir({ prefix: "logo-kv-" });
  try {
    // A directory where the file should be.
    await assert.rejects(
      openKv(dir),
      new RegExp(`^Error: Cannot open the store at LOGO_KV=${dir}: .*Set LOGO_KV to a file path`),
    );
    // A file where a directory should be.
    await Deno.writeTextFile(join(dir, "file"), "");
    await assert.rejects(
      openKv(join(dir, "file", "store.kv")),
      /: \S+\/file is not a directory\. Set LOGO_KV to a file path in a writable directory\.$/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
