/**
 * `deno task admin export FILE` / `import-archive FILE` as an operator runs them (subprocesses on
 * store files): a round trip, a bad file refused with exit status 1 and the store unchanged, and
 * an import killed mid-way that leaves only whole keys and logos, a marker, and finishes when run
 * again; crafted archives (issue 30) checked against the real handler over the same store file: a
 * revoked key's tokens stay 401, and an image that does not decode is refused at import.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { headerLine } from "../../src/store/archive_format.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { IMPORT_KEY } from "../../src/store/keyspace.ts";
import { type LogoRecord, LogoStore } from "../../src/store/logo_store.ts";
import { adminCommand, runAdminCli, runAdminJson } from "../support/admin_cli.ts";
import {
  archiveLines,
  archiveOf,
  DOMAINS,
  dump,
  fillStore,
  type IssuedKey,
  sealArchive,
  withRendition,
} from "../support/archives.ts";
import { noiseImage, pngHeaderOnly } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";
import { lines, readUntil } from "../support/lines.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "archive-cli-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Keys, logos and images of the store file at `path` (not its meta records or change marks). */
async function contents(path: string): Promise<[Deno.KvKey, unknown][]> {
  const kv = await Deno.openKv(path);
  try {
    // Neither the meta records nor the logo change marks (each store's own writes, with the
    // writer's time: src/store/logo_changes.ts) are what an archive carries.
    return (await dump(kv)).filter(([key]) => key[0] !== "meta" && key[0] !== "changes");
  } finally {
    kv.close();
  }
}

Deno.test("admin export / import-archive: a round trip restores the store's keys and logos", async () => {
  await withDir(async (dir) => {
    const sourcePath = join(dir, "source.kv");
    const source = await Deno.openKv(sourcePath);
    await fillStore(source);
    source.close();
    const file = join(dir, "backup.ndjson.gz");
    const exported = await runAdminJson<{ keys: number; logos: number; bytes: number }>(
      sourcePath,
      ["export", file],
    );
    assert.equal(exported.keys, 3);
    assert.equal(exported.logos, 3);
    assert.equal((await Deno.stat(file)).size, exported.bytes);
    await assert.rejects(Deno.stat(`${file}.partial`), Deno.errors.NotFound);

    const targetPath = join(dir, "restored.kv");
    const imported = await runAdminCli(targetPath, ["--init", "import-archive", file]);
    assert.equal(imported.code, 0, imported.stderr);
    const summary = JSON.parse(imported.stdout);
    assert.deepEqual(summary.keys, { added: 3, replaced: 0, unchanged: 0 });
    assert.deepEqual(summary.logos, { added: 3, replaced: 0, unchanged: 0 });
    assert.deepEqual(await contents(targetPath), await contents(sourcePath));
  });
});

Deno.test("admin import-archive: a bad file exits 1 with a clear message and changes nothing", async () => {
  await withDir(async (dir) => {
    const sourcePath = join(dir, "source.kv");
    const source = await Deno.openKv(sourcePath);
    await fillStore(source);
    source.close();
    const file = join(dir, "backup.ndjson.gz");
    await runAdminJson(sourcePath, ["export", file]);
    const bytes = await Deno.readFile(file);
    const cut = join(dir, "cut.ndjson.gz");
    await Deno.writeFile(cut, bytes.subarray(0, bytes.length - 40));

    const targetPath = join(dir, "target.kv");
    await runAdminJson(targetPath, ["--init", "key", "create"]);
    const target = await Deno.openKv(targetPath);
    const before = await dump(target);
    target.close();
    const refused = await runAdminCli(targetPath, ["import-archive", cut]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /error: .*cut\.ndjson\.gz: Cannot read archive: /);
    assert.equal(refused.stdout, "");
    const missing = await runAdminCli(targetPath, ["import-archive", join(dir, "nope.gz")]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Cannot read archive .*nope\.gz: no such file/);
    const after = await Deno.openKv(targetPath);
    try {
      assert.deepEqual(await dump(after), before);
    } finally {
      after.close();
    }
    const usage = await runAdminCli(targetPath, ["import-archive"]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /import-archive: expected FILE/);
  });
});

/** Every logo of `kv` reads back whole, with the source store's record and bytes. */
async function assertWholeAsIn(kv: Deno.Kv, source: Deno.Kv): Promise<LogoRecord[]> {
  const to = new LogoStore(kv);
  const from = new LogoStore(source);
  const records = await Array.fromAsync(to.list());
  for (const record of records) {
    assert.deepEqual(record, await from.get(record.domain));
    for (const rendition of Object.values(record.renditions)) {
      const bytes = await to.readRendition(rendition);
      assert.ok(bytes !== null, `${record.domain}: an image is missing`);
      assert.deepEqual(bytes, await from.readRendition(rendition));
    }
  }
  return records;
}

Deno.test("admin import-archive killed mid-way: only whole logos, a marker, and a re-run finishes", async () => {
  await withDir(async (dir) => {
    const sourcePath = join(dir, "source.kv");
    const source = await Deno.openKv(sourcePath);
    const total = 40;
    try {
      await fillStore(source);
      const logos = new LogoStore(source);
      for (let i = 0; i < total - 3; i++) {
        // Noise: every logo's images span several KV chunks, so a kill can land between them.
        await logos.put(`logo${i}.example.com`, noiseImage(160, 160, i + 1), { source: "test" });
      }
      const file = join(dir, "backup.ndjson.gz");
      await runAdminJson(sourcePath, ["export", file]);

      const targetPath = join(dir, "target.kv");
      const child = adminCommand(targetPath, ["--init", "import-archive", file], {
        stdout: "null",
      }).spawn();
      const output = lines(child.stderr);
      const written = /\[\s*8\/\d+\] added /;
      const progress = await readUntil(output, (line) => written.test(line));
      assert.ok(progress.some((l) => written.test(l)), `no progress:\n${progress.join("\n")}`);
      child.kill("SIGKILL");
      assert.equal((await child.status).success, false);
      await output.return(undefined);

      const target = await Deno.openKv(targetPath);
      try {
        const visible = await assertWholeAsIn(target, source);
        assert.ok(visible.length < total, `killed mid-way (${visible.length}/${total} logos)`);
        assert.notEqual((await target.get(IMPORT_KEY)).value, null, "the marker says so");
      } finally {
        target.close();
      }

      const rerun = await runAdminCli(targetPath, ["import-archive", file]);
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.match(rerun.stderr, /An earlier import \(started .*\) had been interrupted/);
      const summary = JSON.parse(rerun.stdout);
      assert.equal(summary.logos.added + summary.logos.unchanged, total);
      assert.ok(summary.logos.unchanged >= 1, JSON.stringify(summary));
      const after = await Deno.openKv(targetPath);
      try {
        assert.equal((await assertWholeAsIn(after, source)).length, total);
        assert.equal((await after.get(IMPORT_KEY)).versionstamp, null, "marker cleared");
        assert.equal(await new LogoStore(after).sweep(), 0, "no garbage left");
      } finally {
        after.close();
      }
      assert.deepEqual(await contents(targetPath), await contents(sourcePath));
    } finally {
      source.close();
    }
  });
});

/**
 * What the real handler over the store file at `path` answers for a logo the archive holds:
 * `GET /{domain}` with `key`'s publishable token and with its secret token (default: a key of the
 * handler's own), and `GET /{domain}?size=200`, rendered from the source image; with its log.
 */
async function served(path: string, key?: Pick<IssuedKey, "publishableKey" | "secretKey">) {
  const kv = await Deno.openKv(path);
  const logged: string[] = [];
  const log = (message: string, error?: unknown) => {
    logged.push(`${message} ${error instanceof Error ? error.stack : error ?? ""}`);
  };
  try {
    await using app = await startTestApp({ kv, app: { log } });
    const at = (query: string, headers: Record<string, string> = {}) =>
      app.exchange(`/${DOMAINS[1]}?${query}`, { headers }).then((r) => r.status);
    const { publishableKey, secretKey } = key ?? app;
    return {
      pk: await at(`token=${publishableKey}`),
      sk: await at("", { authorization: `Bearer ${secretKey}` }),
      resized: await at(`token=${app.publishableKey}&size=200`),
      logged: logged.join("\n"),
    };
  } finally {
    kv.close();
  }
}

Deno.test("admin import-archive: a revoked key's tokens stay 401 whatever the archive says (issue 30 #3)", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "store.kv");
    const kv = await Deno.openKv(path);
    const issued = await fillStore(kv);
    const { revokedAt: _, ...stored } = (await new KeyStore(kv).get(issued[2].id))!;
    kv.close();
    const header = headerLine(Date.now());
    const revived = { ...stored, revoked: false };
    const cases = [
      { args: [], key: { ...revived, id: "key_RevivedRevived01" }, refused: true },
      { args: ["--replace"], key: { ...revived, id: "key_RevivedRevived02" }, refused: true },
      // An older backup, taken before the key was revoked: the revocation stands.
      { args: ["--replace"], key: revived, refused: false },
    ];
    assert.deepEqual(await served(path, issued[2]).then(({ pk, sk }) => [pk, sk]), [401, 401]);
    for (const { args, key, refused } of cases) {
      const file = join(dir, `${key.id}.ndjson.gz`);
      await Deno.writeFile(file, await sealArchive([header, JSON.stringify({ type: "key", key })]));
      const run = await runAdminCli(path, ["import-archive", file, ...args]);
      const label = `${key.id} ${args.join(" ")}`;
      if (refused) {
        assert.equal(run.code, 1, `${label}: ${run.stderr}`);
        assert.match(
          run.stderr,
          new RegExp(
            `Cannot import archive: line 2 \\(key ${key.id}\\): its publishable token was ` +
              `revoked \\(key ${issued[2].id}\\)`,
          ),
        );
      } else {
        assert.equal(run.code, 0, `${label}: ${run.stderr}`);
      }
      const { pk, sk } = await served(path, issued[2]);
      assert.deepEqual([pk, sk], [401, 401], label);
    }
  });
});

Deno.test("admin import-archive: an image imagecore cannot decode is refused, naming its entry; nothing is stored or served as 500 (issue 30 #5)", async () => {
  await withDir(async (dir) => {
    const source = await Deno.openKv(":memory:");
    await fillStore(source);
    const lines = await archiveLines(await archiveOf(source));
    source.close();
    const at = lines.findIndex((line) => line.includes(`"domain":"${DOMAINS[1]}"`));
    const { width, height } = JSON.parse(lines[at]).record.renditions.source;
    // The PNG signature and a header of the right size, then no pixels: all that was checked.
    lines[at] = await withRendition(lines[at], "source", pngHeaderOnly(width, height));
    const file = join(dir, "crafted.ndjson.gz");
    await Deno.writeFile(file, await sealArchive(lines));

    const path = join(dir, "target.kv");
    const run = await runAdminCli(path, ["--init", "import-archive", file]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      new RegExp(
        `error: .*crafted\\.ndjson\\.gz: Cannot import archive: line ${at + 1} \\(logo ` +
          `${DOMAINS[1].replaceAll(".", "\\.")}\\): the source image is not a valid PNG \\(.+\\)`,
      ),
    );
    assert.equal(run.stdout, "");
    assert.deepEqual(await contents(path), [], "the whole archive refused: nothing written");
    const answers = await served(path);
    assert.deepEqual([answers.pk, answers.sk, answers.resized], [404, 404, 404]);
    assert.doesNotMatch(answers.logged, /\n\s+at /, "no stack trace");
  });
});
