/**
 * The admin CLI and wordmarks (`--type logo`), as an operator runs it: `logo add … --type logo`
 * stores a wordmark beside the icon; `logo list` shows both with their `logoType`; `logo rm
 * --type` removes one and plain `logo rm` both; `logo import --type logo` and `logo rerender`
 * handle wordmarks; a bad `--type` is a usage error that writes nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { LogoStore } from "../../src/store/logo_store.ts";
import { runAdminCli, runAdminJson } from "../support/admin_cli.ts";
import { flatImage } from "../support/images.ts";
import { widePng, wideSvg } from "../support/wordmarks.ts";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "logo-admin-wordmark-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function withKv<T>(path: string, fn: (kv: Deno.Kv) => Promise<T>): Promise<T> {
  const kv = await Deno.openKv(path);
  try {
    return await fn(kv);
  } finally {
    kv.close();
  }
}

type Listed = { domain: string; logoType: string; type: string; width: number };

Deno.test("admin logo add --type logo, list, rerender and rm --type", async () => {
  await withTempDir(async (dir) => {
    const kvPath = join(dir, "s.kv");
    const icon = join(dir, "acme.png");
    const wordmark = join(dir, "wordmark.svg");
    await Deno.writeFile(icon, flatImage(64, 64, [10, 20, 30, 255]));
    await Deno.writeFile(wordmark, wideSvg(200, 50));
    await runAdminJson(kvPath, ["--init", "logo", "add", "acme.example", icon]);
    const added = await runAdminJson<Record<string, unknown>>(kvPath, [
      "logo",
      "add",
      "acme.example",
      wordmark,
      "--type",
      "logo",
    ]);
    assert.deepEqual(
      [added.domain, added.logoType, added.type, added.width, added.height, added.changed],
      ["acme.example", "logo", "image/svg+xml", 200, 50, true],
    );
    await withKv(kvPath, async (kv) => {
      const logos = new LogoStore(kv);
      assert.equal((await logos.get("acme.example"))?.type, "image/png", "the icon kept");
      assert.equal((await logos.get("acme.example", "logo"))?.renditions.source.width, 1200);
    });
    await runAdminJson(kvPath, ["logo", "add", "zed.example", icon]);
    const listed = await runAdminJson<Listed[]>(kvPath, ["logo", "list"]);
    assert.deepEqual(listed.map((l) => [l.domain, l.logoType, l.type]), [
      ["acme.example", "icon", "image/png"],
      ["acme.example", "logo", "image/svg+xml"],
      ["zed.example", "icon", "image/png"],
    ]);

    const rerendered = await runAdminCli(kvPath, ["logo", "rerender", "--all"]);
    assert.equal(rerendered.code, 0, rerendered.stderr);
    const summary = JSON.parse(rerendered.stdout);
    assert.equal(summary.rerendered, 3, "both icons and the wordmark");
    assert.match(rerendered.stderr, /acme\.example \(logo\)/);
    const onlyLogos = JSON.parse(
      (await runAdminCli(kvPath, ["logo", "rerender", "--all", "--type", "logo"])).stdout,
    );
    assert.equal(onlyLogos.rerendered, 1);

    assert.deepEqual(
      await runAdminJson(kvPath, ["logo", "rm", "acme.example", "--type", "logo"]),
      { domain: "acme.example", removed: true, logoTypes: ["logo"] },
    );
    const noWordmark = await runAdminCli(kvPath, ["logo", "rm", "acme.example", "--type", "logo"]);
    assert.equal(noWordmark.code, 1);
    assert.match(noWordmark.stderr, /No wordmark for acme\.example/);
    const left = await runAdminJson<Listed[]>(kvPath, ["logo", "list"]);
    assert.deepEqual(left.map((l) => [l.domain, l.logoType]), [
      ["acme.example", "icon"],
      ["zed.example", "icon"],
    ]);

    // Plain rm: icon and wordmark both.
    await runAdminJson(kvPath, ["logo", "add", "acme.example", wordmark, "--type", "logo"]);
    assert.deepEqual(await runAdminJson(kvPath, ["logo", "rm", "acme.example"]), {
      domain: "acme.example",
      removed: true,
      logoTypes: ["icon", "logo"],
    });
    const rest = await runAdminJson<Listed[]>(kvPath, ["logo", "list"]);
    assert.deepEqual(rest.map((l) => l.domain), ["zed.example"]);
  });
});

Deno.test("admin logo import --type logo stores a directory of wordmarks; a bad --type is refused", async () => {
  await withTempDir(async (dir) => {
    const kvPath = join(dir, "s.kv");
    const wordmarks = join(dir, "wordmarks");
    await Deno.mkdir(wordmarks);
    await Deno.writeFile(join(wordmarks, "acme.example.png"), widePng(800, 200));
    await Deno.writeFile(join(wordmarks, "blue.example.svg"), wideSvg(160, 40, "#2244aa"));
    const summary = await runAdminJson<{ imported: number }>(kvPath, [
      "--init",
      "logo",
      "import",
      wordmarks,
      "--type",
      "logo",
    ]);
    assert.equal(summary.imported, 2);
    const listed = await runAdminJson<Listed[]>(kvPath, ["logo", "list"]);
    assert.deepEqual(listed.map((l) => [l.domain, l.logoType, l.width]), [
      ["acme.example", "logo", 800],
      ["blue.example", "logo", 160],
    ]);
    for (
      const args of [["add", "x.example", join(wordmarks, "acme.example.png")], ["rm", "x.example"]]
    ) {
      const bad = await runAdminCli(kvPath, ["logo", ...args, "--type", "wordmark"]);
      assert.equal(bad.code, 2, args.join(" "));
      assert.match(bad.stderr, /invalid --type "wordmark": must be icon or logo/);
    }
    assert.equal((await runAdminJson<Listed[]>(kvPath, ["logo", "list"])).length, 2);
  });
});
