import assert from "node:assert/strict";
import { join } from "node:path";
import { ImageCoreError, LIMITS, transform } from "../../imagecore/mod.ts";
import { runAdminCli, runAdminJson } from "../support/admin_cli.ts";

/** imagecore's own refusal of an input of `length` bytes. */
function transformRefusal(length: number): string {
  try {
    transform(new Uint8Array(length));
  } catch (error) {
    assert.ok(error instanceof ImageCoreError && error.code === "too_large", String(error));
    return error.message;
  }
  throw new Error(`transform took ${length} bytes`);
}

Deno.test("admin logo add and import refuse a file over the input limit in imagecore's words", async () => {
  const dir = await Deno.makeTempDir({ prefix: "logo-admin-limit-" });
  try {
    const kvPath = join(dir, "s.kv");
    const logos = join(dir, "logos");
    await Deno.mkdir(logos);
    const file = join(logos, "huge.example.png");
    const size = LIMITS.inputBytes + 1;
    await Deno.writeFile(file, new Uint8Array());
    await Deno.truncate(file, size); // sparse: the CLI must refuse it from its size alone
    const expected = transformRefusal(size);
    assert.equal(expected, `Cannot decode image: ${size} bytes exceeds the 10485760-byte limit`);

    const added = await runAdminCli(kvPath, ["--init", "logo", "add", "huge.example", file]);
    assert.equal(added.code, 1, added.stderr);
    assert.ok(added.stderr.split("\n").includes(`${file}: ${expected}`), added.stderr);

    const imported = await runAdminCli(kvPath, ["logo", "import", logos]);
    assert.equal(imported.code, 1, imported.stderr);
    const summary = JSON.parse(imported.stdout);
    assert.deepEqual(summary.failed, [{ file: "huge.example.png", error: expected }]);
    assert.deepEqual(await runAdminJson(kvPath, ["logo", "list"]), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
