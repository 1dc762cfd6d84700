import assert from "node:assert/strict";
import { join } from "node:path";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { sha256Hex } from "../../src/store/sha256.ts";
import { runAdminCli, runAdminJson } from "../support/admin_cli.ts";
import { flatImage, noiseImage } from "../support/images.ts";
import { encodeRgba } from "../../imagecore/mod.ts";

interface CreatedKey {
  id: string;
  publishableKey: string;
  secretKey: string;
  plan: string;
  limit: number;
  window: number;
  allow: string[];
  attribution: boolean;
}

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "logo-admin-" });
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

async function dumpKv(path: string): Promise<string[]> {
  return await withKv(path, async (kv) => {
    const entries: string[] = [];
    for await (const entry of kv.list({ prefix: [] })) {
      entries.push(`${JSON.stringify(entry.key)} ${entry.versionstamp}`);
    }
    return entries;
  });
}

Deno.test("admin key create prints the key once and stores only the secret's hash", async () => {
  await withTempDir(async (dir) => {
    const kvPath = join(dir, "store.kv");
    const created = await runAdminJson<CreatedKey>(kvPath, [
      "--init",
      "key",
      "create",
      "--plan",
      "pro",
      "--allow",
      "https://App.Example.com/",
      "--allow=*.example.org",
      "--allow",
      "example.net",
      "--attribution",
    ]);
    assert.match(created.publishableKey, /^pk_[0-9A-Za-z]{24}$/);
    assert.match(created.secretKey, /^sk_[0-9A-Za-z]{24}$/);
    assert.deepEqual(
      [created.plan, created.limit, created.window, created.allow, created.attribution],
      ["pro", 1000, 60, ["https://app.example.com", "*.example.org", "example.net"], true],
    );
    await withKv(kvPath, async (kv) => {
      const keys = new KeyStore(kv);
      assert.equal((await keys.bySecretKey(created.secretKey))?.id, created.id);
      assert.equal((await keys.get(created.id))?.secretKeyHash, await sha256Hex(created.secretKey));
    });
    const fileBytes = await Deno.readFile(kvPath);
    const asText = new TextDecoder("latin1").decode(fileBytes);
    assert.ok(!asText.includes(created.secretKey.slice(3)), "the secret is not in the KV file");

    const listed = await runAdminJson<Record<string, unknown>[]>(kvPath, ["key", "list"]);
    assert.equal(listed.length, 1);
    assert.equal(listed[0].id, created.id);
    assert.equal(listed[0].publishableKey, created.publishableKey);
    assert.equal(listed[0].revoked, false);
    assert.ok(!JSON.stringify(listed).includes("secret"), "key list shows no secret or hash");
  });
});

Deno.test("admin key create with --limit and --window makes a custom plan", async () => {
  await withTempDir(async (dir) => {
    const created = await runAdminJson<CreatedKey>(join(dir, "s.kv"), [
      "--init",
      "key",
      "create",
      "--limit",
      "5",
      "--window",
      "10",
    ]);
    assert.deepEqual([created.plan, created.limit, created.window, created.allow], [
      "custom",
      5,
      10,
      [],
    ]);
  });
});

Deno.test("admin key revoke and key attribution change the stored key", async () => {
  await withTempDir(async (dir) => {
    const kvPath = join(dir, "s.kv");
    const a = await runAdminJson<CreatedKey>(kvPath, ["--init", "key", "create", "--attribution"]);
    const recorded = await runAdminJson<Record<string, unknown>>(kvPath, [
      "key",
      "attribution",
      a.id,
      "https://app.example.com/credits",
    ]);
    assert.equal(recorded.attributionUrl, "https://app.example.com/credits");
    const revoked = await runAdminJson<Record<string, unknown>>(kvPath, ["key", "revoke", a.id]);
    assert.deepEqual(revoked, { id: a.id, revoked: true });
    await withKv(kvPath, async (kv) => {
      assert.equal(await new KeyStore(kv).byPublishableKey(a.publishableKey), null);
    });
    const unknown = await runAdminCli(kvPath, ["key", "revoke", "key_unknown"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No key with id "key_unknown"/);
    assert.equal(unknown.stdout, "");
  });
});

Deno.test("admin bad arguments print the usage (a missing file: its error), exit 2 and write nothing", async () => {
  await withTempDir(async (dir) => {
    const kvPath = join(dir, "s.kv");
    const png = join(dir, "logo.png");
    await Deno.writeFile(png, flatImage(32, 32, [0, 0, 0, 255]));
    const cases = [
      [],
      ["frobnicate"],
      ["key"],
      ["key", "create", "--plan", "gold"],
      ["key", "create", "--limit", "5"],
      ["key", "create", "--limit", "abc", "--window", "60"],
      ["key", "create", "--limit", "0", "--window", "60"],
      ["key", "create", "--allow", "ftp://example.com"],
      ["key", "create", "--allow", "https://example.com/path"],
      ["key", "create", "--allow"],
      ["key", "create", "--bogus"],
      ["key", "create", "extra"],
      ["key", "revoke"],
      ["key", "attribution", "key_x", "not a url"],
      ["logo", "add", "https://example.com", png],
      ["logo", "add", "example.com"],
      ["logo", "add", "example.com", join(dir, "missing.png")],
      ["logo", "import", join(dir, "no-such-dir")],
      ["logo", "rm", "co.uk"],
      ["logo", "list", "extra"],
    ];
    for (const args of cases) {
      // --init: a bad command line is refused whether or not the store exists
      const result = await runAdminCli(kvPath, ["--init", ...args]);
      assert.equal(result.code, 2, `${JSON.stringify(args)}: ${result.stderr}`);
      // A file that cannot be read is one line (issue 32); any other bad argument, the usage too.
      const missing = args.some((arg) => /missing\.png|no-such-dir/.test(arg));
      const expected = missing
        ? /^error: .+cannot read [^\n]+\n(?!\nUsage)/
        : /^error: .+\n\nUsage: deno task admin/;
      assert.match(result.stderr, expected, JSON.stringify(args));
      assert.equal(result.stdout, "", JSON.stringify(args));
    }
    const leftovers = await Deno.stat(kvPath).then(() => dumpKv(kvPath), () => []);
    assert.deepEqual(leftovers, [], "nothing was written");
  });
});

Deno.test("admin help prints the usage on stdout and exits 0", async () => {
  await withTempDir(async (dir) => {
    const result = await runAdminCli(join(dir, "s.kv"), ["help"]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^Usage: deno task admin/);
  });
});

Deno.test("admin logo import stores DOMAIN.EXT files, reports and skips a bad one, and is idempotent", async () => {
  await withTempDir(async (dir) => {
    const kvPath = join(dir, "s.kv");
    const logos = join(dir, "logos");
    await Deno.mkdir(logos);
    await Deno.writeFile(join(logos, "example.com.png"), flatImage(200, 100, [200, 0, 0, 255]));
    await Deno.writeFile(
      join(logos, "Example.ORG.jpg"),
      flatImage(90, 90, [0, 200, 0, 255], "jpeg"),
    );
    await Deno.writeFile(join(logos, "big.example.net.png"), noiseImage(300, 300, 9));
    await Deno.writeFile(join(logos, "broken.example.png"), new TextEncoder().encode("nope"));
    await Deno.writeTextFile(join(logos, "README.txt"), "not a logo");

    const first = await runAdminCli(kvPath, ["--init", "logo", "import", logos]);
    assert.equal(first.code, 1, "a failed file makes the exit status 1");
    const summary = JSON.parse(first.stdout);
    assert.equal(summary.imported, 3);
    assert.equal(summary.unchanged, 0);
    assert.deepEqual(summary.skipped, ["README.txt"]);
    assert.equal(summary.failed.length, 1);
    assert.equal(summary.failed[0].file, "broken.example.png");
    assert.match(summary.failed[0].error, /^Cannot decode image/);
    assert.match(first.stderr, /failed broken\.example\.png: Cannot decode image/);
    assert.match(first.stderr, /imported example\.com/);

    const listed = await runAdminJson<{ domain: string; type: string }[]>(kvPath, ["logo", "list"]);
    assert.deepEqual(listed.map((l) => [l.domain, l.type]), [
      ["big.example.net", "image/png"],
      ["example.com", "image/png"],
      ["example.org", "image/jpeg"],
    ]);

    const before = await dumpKv(kvPath);
    const second = await runAdminCli(kvPath, ["logo", "import", logos]);
    const again = JSON.parse(second.stdout);
    assert.deepEqual([again.imported, again.unchanged, again.failed.length], [0, 3, 1]);
    assert.deepEqual(await dumpKv(kvPath), before, "a second run changes nothing");
  });
});

Deno.test("admin logo add, rm and list", async () => {
  await withTempDir(async (dir) => {
    const kvPath = join(dir, "s.kv");
    const file = join(dir, "acme.png");
    await Deno.writeFile(file, flatImage(64, 32, [10, 20, 30, 255]));
    const added = await runAdminJson<Record<string, unknown>>(kvPath, [
      "--init",
      "logo",
      "add",
      "WWW.Acme.Example.",
      file,
    ]);
    assert.deepEqual(
      [added.domain, added.changed, added.width, added.height, added.source],
      ["www.acme.example", true, 64, 32, "file:acme.png"],
    );
    const unchanged = await runAdminJson<Record<string, unknown>>(kvPath, [
      "logo",
      "add",
      "www.acme.example",
      file,
    ]);
    assert.equal(unchanged.changed, false);

    const bad = join(dir, "bad.png");
    await Deno.writeFile(bad, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
    const refused = await runAdminCli(kvPath, ["logo", "add", "bad.example", bad]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Cannot decode image/);

    assert.deepEqual(await runAdminJson(kvPath, ["logo", "rm", "www.acme.example"]), {
      domain: "www.acme.example",
      removed: true,
      logoTypes: ["icon"],
    });
    assert.deepEqual(await runAdminJson(kvPath, ["logo", "list"]), []);
    const missing = await runAdminCli(kvPath, ["logo", "rm", "www.acme.example"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No logo for www\.acme\.example/);
    await withKv(kvPath, async (kv) => {
      assert.equal(await new LogoStore(kv).isEmpty(), true);
      const leftovers = await Array.fromAsync(kv.list({ prefix: ["blob_chunks"] }));
      assert.equal(leftovers.length, 0, "removing the only user deleted the bytes");
    });
  });
});

const SVG_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60">
  <rect width="120" height="60" fill="#c00"/></svg>`;

Deno.test("admin logo import takes DOMAIN.svg, as logo add does", async () => {
  await withTempDir(async (dir) => {
    const kvPath = join(dir, "s.kv");
    const logos = join(dir, "logos");
    await Deno.mkdir(logos);
    await Deno.writeTextFile(join(logos, "vector.example.svg"), SVG_LOGO);
    const result = await runAdminCli(kvPath, ["--init", "logo", "import", logos]);
    assert.equal(result.code, 0, result.stderr);
    const summary = JSON.parse(result.stdout);
    assert.deepEqual([summary.imported, summary.skipped, summary.failed], [1, [], []]);
    const listed = await runAdminJson<{ domain: string; type: string; width: number }[]>(
      kvPath,
      ["logo", "list"],
    );
    assert.deepEqual(listed.map((l) => [l.domain, l.type, l.width]), [
      ["vector.example", "image/svg+xml", 120],
    ]);
  });
});

/** A 64×64 JPEG of varied pixels cut to half its length: the header is whole, the scan is not. */
function truncatedJpeg(): Uint8Array {
  const pixels = new Uint8Array(64 * 64 * 4);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 37) & 255;
  const jpeg = encodeRgba(pixels, 64, 64, "jpeg");
  return jpeg.slice(0, jpeg.length >> 1);
}

Deno.test("admin logo add and import refuse a truncated JPEG with imagecore's reason", async () => {
  await withTempDir(async (dir) => {
    const kvPath = join(dir, "s.kv");
    const logos = join(dir, "logos");
    await Deno.mkdir(logos);
    const file = join(logos, "cut.example.jpg");
    await Deno.writeFile(file, truncatedJpeg());
    const added = await runAdminCli(kvPath, ["--init", "logo", "add", "cut.example", file]);
    assert.equal(added.code, 1, `a truncated JPEG was stored: ${added.stdout}`);
    assert.match(added.stderr, /cut\.example\.jpg: Cannot decode image: \S/);
    const imported = await runAdminCli(kvPath, ["logo", "import", logos]);
    assert.equal(imported.code, 1);
    const summary = JSON.parse(imported.stdout);
    assert.equal(summary.imported, 0);
    assert.equal(summary.failed[0].file, "cut.example.jpg");
    assert.match(summary.failed[0].error, /^Cannot decode image: \S/);
    assert.match(imported.stderr, /failed cut\.example\.jpg: Cannot decode image: \S/);
    assert.deepEqual(await runAdminJson(kvPath, ["logo", "list"]), []);
  });
});
