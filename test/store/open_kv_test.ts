import assert from "node:assert/strict";
import { join } from "node:path";
import {
  DEFAULT_KV_PATH,
  isKvFile,
  isRemoteKv,
  kvLocation,
  openKv,
  PLATFORM_KV,
} from "../../src/store/open_kv.ts";

Deno.test("LOGO_KV defaults to ./data/logo-lookup.kv when unset or blank", () => {
  assert.equal(kvLocation(undefined), DEFAULT_KV_PATH);
  assert.equal(kvLocation("  "), DEFAULT_KV_PATH);
  assert.equal(kvLocation(" /srv/logos.kv "), "/srv/logos.kv");
  assert.equal(DEFAULT_KV_PATH, "./data/logo-lookup.kv");
});

Deno.test("on Deno Deploy (DENO_DEPLOYMENT_ID set) an unset LOGO_KV means the platform's KV", () => {
  assert.equal(kvLocation(undefined, "k8x2m1"), PLATFORM_KV);
  assert.equal(kvLocation(" ", "k8x2m1"), PLATFORM_KV);
  assert.equal(kvLocation(undefined, " "), DEFAULT_KV_PATH);
  assert.equal(kvLocation("/srv/logos.kv", "k8x2m1"), "/srv/logos.kv");
  assert.equal(isKvFile(PLATFORM_KV), false);
});

Deno.test("LOGO_KV=platform opens the runtime's own KV (Deno.openKv() without a path), no file", async () => {
  const cwd = Deno.cwd();
  const dir = await Deno.makeTempDir();
  Deno.chdir(dir);
  try {
    const kv = await openKv(PLATFORM_KV);
    const key = ["open_kv_test", crypto.randomUUID()];
    try {
      await kv.set(key, "here");
      assert.equal((await kv.get(key)).value, "here");
    } finally {
      await kv.delete(key);
      kv.close();
    }
    assert.deepEqual([...Deno.readDirSync(dir)], []); // nothing named "platform" was created
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(dir, { recursive: true });
  }
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
