import assert from "node:assert/strict";
import { join } from "node:path";
import type { BlobManifest } from "../../src/store/blob_store.ts";
import { blobHashes } from "../../src/store/inline_rendition.ts";
import { PIPELINE_VERSION } from "../../src/store/logo_ingest.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { adminCommand, runAdminCli } from "../support/admin_cli.ts";
import { lines, readUntil } from "../support/lines.ts";
import { noiseImage } from "../support/images.ts";
import { assertAllComplete } from "../support/complete_logos.ts";
import { storeRecipeOneLogo } from "../support/recipe_one.ts";

async function withKv<T>(path: string, fn: (kv: Deno.Kv) => Promise<T>): Promise<T> {
  const kv = await Deno.openKv(path);
  try {
    return await fn(kv);
  } finally {
    kv.close();
  }
}

Deno.test("logo rerender killed halfway leaves whole logos; a re-run finishes only the rest", async () => {
  const dir = await Deno.makeTempDir({ prefix: "logo-rerender-kill-" });
  try {
    const kvPath = join(dir, "store.kv");
    const total = 40;
    await withKv(kvPath, async (kv) => {
      for (let i = 0; i < total; i++) {
        const domain = `logo${String(i).padStart(3, "0")}.example.com`;
        // Noise: each logo's renditions span several chunks, so a kill can land between writes.
        await storeRecipeOneLogo(kv, domain, noiseImage(300, 300, i + 1));
      }
    });

    const child = adminCommand(kvPath, ["logo", "rerender"], { stdout: "null" }).spawn();
    const output = lines(child.stderr);
    const rerendered = /\] rerendered /;
    const progress = await readUntil(output, (line) => rerendered.test(line));
    if (!progress.some((line) => rerendered.test(line))) {
      throw new Error(`stream ended before ${rerendered}: ${progress.join("\n")}`);
    }
    assert.match(progress.at(-1)!, /\(\d+\.\d logos\/s, ETA .+\)$/, "progress shows rate and ETA");
    child.kill("SIGKILL");
    const status = await child.status;
    await output.return(undefined);
    assert.equal(status.success, false, `killed: ${progress.join("\n")}`);

    const doneBefore = await withKv(kvPath, async (kv) => {
      const records = await assertAllComplete(kv);
      assert.equal(records.length, total);
      for (const r of records) {
        const names = Object.keys(r.renditions).sort().join(",");
        assert.equal(names, r.pipeline === 1 ? "default,mid,source" : "default,source", r.domain);
      }
      return records.filter((r) => r.pipeline === PIPELINE_VERSION).length;
    });
    assert.ok(doneBefore >= 1 && doneBefore < total, `killed halfway (${doneBefore}/${total})`);

    const rerun = await runAdminCli(kvPath, ["logo", "rerender"]);
    assert.equal(rerun.code, 0, rerun.stderr);
    const summary = JSON.parse(rerun.stdout);
    assert.equal(summary.current, doneBefore, "the re-run skips what the first run did");
    assert.equal(summary.rerendered, total - doneBefore);
    assert.deepEqual(summary.failed, []);

    const again = JSON.parse((await runAdminCli(kvPath, ["logo", "rerender"])).stdout);
    assert.deepEqual([again.rerendered, again.current], [0, total]);
    // A kill between a commit and the collection of the old `mid` can leave it unreferenced.
    assert.equal((await runAdminCli(kvPath, ["logo", "gc"])).code, 0);

    await withKv(kvPath, async (kv) => {
      const records = await assertAllComplete(kv);
      assert.ok(records.every((r) => r.pipeline === PIPELINE_VERSION));
      const referenced = new Set(
        records.flatMap((r) => blobHashes(r)),
      );
      const manifests = await Array.fromAsync(kv.list<BlobManifest>({ prefix: ["blobs"] }));
      assert.deepEqual(new Set(manifests.map((m) => m.key[1])), referenced);
      for await (const chunk of kv.list({ prefix: ["blob_chunks"] })) {
        assert.ok(referenced.has(chunk.key[1] as string), `orphan chunk ${String(chunk.key[1])}`);
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("logo rerender --all re-renders every logo; --from starts at a domain", async () => {
  const dir = await Deno.makeTempDir({ prefix: "logo-rerender-all-" });
  try {
    const kvPath = join(dir, "store.kv");
    await withKv(kvPath, async (kv) => {
      for (const name of ["a", "b", "c"]) {
        await new LogoStore(kv).put(`${name}.example`, noiseImage(64, 64, name.charCodeAt(0)), {
          source: "t",
        });
      }
    });
    const none = JSON.parse((await runAdminCli(kvPath, ["logo", "rerender"])).stdout);
    assert.deepEqual([none.rerendered, none.current], [0, 3]);
    const all = await runAdminCli(kvPath, ["logo", "rerender", "--all", "--from", "b.example"]);
    assert.equal(all.code, 0, all.stderr);
    const summary = JSON.parse(all.stdout);
    assert.deepEqual([summary.rerendered, summary.current], [2, 0]);
    assert.match(all.stderr, /\] rerendered b\.example/);
    assert.doesNotMatch(all.stderr, /a\.example/);
    const bad = await runAdminCli(kvPath, ["logo", "rerender", "--everything"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /logo rerender: Unknown option '--everything'/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
