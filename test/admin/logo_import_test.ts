import assert from "node:assert/strict";
import { assertAllComplete } from "../support/complete_logos.ts";
import { join } from "node:path";
import type { BlobManifest } from "../../src/store/blob_store.ts";
import { adminCommand, runAdminCli } from "../support/admin_cli.ts";
import { lines, readUntil } from "../support/lines.ts";
import { noiseImage } from "../support/images.ts";
import { blobHashes } from "../../src/store/inline_rendition.ts";

/** Reads `stream` line by line until a line matches `pattern`; returns the lines read. */
Deno.test("an import killed halfway leaves only complete logos and a re-run finishes it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "logo-import-kill-" });
  try {
    const kvPath = join(dir, "store.kv");
    const logosDir = join(dir, "logos");
    await Deno.mkdir(logosDir);
    // Noise images: every logo's renditions span several 64 KiB chunks, so a kill can land
    // between chunk writes and the record commit.
    const total = 60;
    for (let i = 0; i < total; i++) {
      const name = `logo${String(i).padStart(3, "0")}.example.com.png`;
      await Deno.writeFile(join(logosDir, name), noiseImage(256, 256, i + 1));
    }

    const child = adminCommand(kvPath, ["--init", "logo", "import", logosDir], { stdout: "null" })
      .spawn();
    const output = lines(child.stderr);
    const imported = /\] imported /;
    const progress = await readUntil(output, (line) => imported.test(line));
    if (!progress.some((line) => imported.test(line))) {
      throw new Error(`stream ended before ${imported}: ${progress.join("\n")}`);
    }
    child.kill("SIGKILL");
    const status = await child.status;
    await output.return(undefined);
    assert.equal(status.success, false, `killed: ${progress.join("\n")}`);

    const kv = await Deno.openKv(kvPath);
    try {
      const visible = await assertAllComplete(kv);
      assert.ok(visible.length >= 1, "at least one logo was imported before the kill");
      assert.ok(visible.length < total, `killed halfway (${visible.length}/${total} visible)`);
    } finally {
      kv.close();
    }

    const rerun = await runAdminCli(kvPath, ["logo", "import", logosDir]);
    assert.equal(rerun.code, 0, rerun.stderr);
    const summary = JSON.parse(rerun.stdout);
    assert.equal(summary.imported + summary.unchanged, total);
    assert.ok(summary.imported >= 1 && summary.unchanged >= 1, JSON.stringify(summary));

    const after = await Deno.openKv(kvPath);
    try {
      const records = await assertAllComplete(after);
      assert.equal(records.length, total);
      // No garbage either: every chunk belongs to a live, referenced blob whose chunks all exist.
      const referenced = new Set(records.flatMap((r) => blobHashes(r)));
      const manifests = await Array.fromAsync(after.list<BlobManifest>({ prefix: ["blobs"] }));
      assert.deepEqual(new Set(manifests.map((m) => m.key[1])), referenced);
      for (const m of manifests) assert.equal(m.value.state, "live");
      for await (const chunk of after.list({ prefix: ["blob_chunks"] })) {
        assert.ok(referenced.has(chunk.key[1] as string), `orphan chunk ${String(chunk.key[1])}`);
      }
    } finally {
      after.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
