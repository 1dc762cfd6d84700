import assert from "node:assert/strict";
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { transform } from "../../imagecore/mod.ts";
import { BlobStore } from "../../src/store/blob_store.ts";
import { logoKey } from "../../src/store/keyspace.ts";
import { IN_PROCESS, PIPELINE_VERSION, prepareLogo } from "../../src/store/logo_ingest.ts";
import { type LogoRecord, LogoStore } from "../../src/store/logo_store.ts";
import { sha256Hex } from "../../src/store/sha256.ts";
import { flatImage, noiseImage } from "../support/images.ts";
import { storeRecipeOneLogo } from "../support/recipe_one.ts";

/** imagecore in process, counting the jobs each kind of call would be in a pool. */
function countingWork(): { imaging: ImageWork; jobs: Record<string, number> } {
  const jobs: Record<string, number> = {};
  const count = (name: string) => jobs[name] = (jobs[name] ?? 0) + 1;
  return {
    jobs,
    imaging: {
      probe: (input, job) => (count("probe"), IN_PROCESS.probe(input, job)),
      transform: (
        input,
        options,
        job,
      ) => (count("transform"), IN_PROCESS.transform(input, options, job)),
      renditions: (
        input,
        options,
        job,
      ) => (count("renditions"), IN_PROCESS.renditions(input, options, job)),
    },
  };
}

Deno.test("put makes every rendition in one imagecore job, and none for stored bytes", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const { imaging, jobs } = countingWork();
    const logos = new LogoStore(kv, { imaging });
    const png = noiseImage(600, 300, 7);
    const { record } = await logos.put("example.com", png, { source: "t" });
    // Recipe 1 took four jobs and decoded three times: probe, source, default from source, mid.
    assert.deepEqual(jobs, { renditions: 1 });
    const source = (await logos.readRendition(record.renditions.source))!;
    assert.deepEqual(source, transform(png, { width: 600, effort: "small" }).bytes);
    assert.deepEqual(
      await logos.readRendition(record.renditions.default),
      transform(source, { width: 128, effort: "small" }).bytes,
    );
    // The resume path: same bytes, same recipe — the record is read, nothing is decoded.
    assert.equal((await logos.put("example.com", png, { source: "t" })).changed, false);
    assert.deepEqual(jobs, { renditions: 1 });
  } finally {
    kv.close();
  }
});

Deno.test("put re-ingests bytes stored by an older recipe", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const png = flatImage(500, 250, [0, 90, 200, 255]);
    await storeRecipeOneLogo(kv, "old.example", png);
    const { imaging, jobs } = countingWork();
    const { record, changed } = await new LogoStore(kv, { imaging }).put("old.example", png, {
      source: "t",
    });
    assert.equal(changed, true);
    assert.equal(record.pipeline, PIPELINE_VERSION);
    assert.deepEqual(Object.keys(record.renditions).sort(), ["default", "source"]);
    assert.deepEqual(jobs, { renditions: 1 });
  } finally {
    kv.close();
  }
});

Deno.test("rerender replaces a recipe-1 record's renditions from its stored source, once", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const png = noiseImage(400, 200, 3);
    const old = await storeRecipeOneLogo(kv, "example.com", png);
    let now = 5_000;
    const logos = new LogoStore(kv, { clock: () => now++ });
    assert.equal(await logos.rerender("example.com"), "rerendered");
    const record = (await logos.get("example.com"))!;
    assert.equal(record.pipeline, PIPELINE_VERSION);
    assert.deepEqual(
      { ...record, renditions: undefined, updatedAt: 0 },
      { ...old, pipeline: PIPELINE_VERSION, renditions: undefined, updatedAt: 0 },
      "the source facts are kept",
    );
    assert.equal(record.updatedAt, 5_000);
    const expected = await prepareLogo(png);
    for (const name of ["source", "default"]) {
      assert.equal(record.renditions[name].hash, expected.renditions[name].hash, name);
      const bytes = (await logos.readRendition(record.renditions[name]))!;
      assert.equal(await sha256Hex(bytes), record.renditions[name].hash);
    }
    assert.equal(record.renditions.mid, undefined);
    assert.equal(await logos.readBlob(old.renditions.mid.hash), null, "mid's blob is collected");
    assert.equal(await logos.rerender("example.com"), "current", "a second run skips it");
    assert.equal(await logos.rerender("example.com", { all: true }), "rerendered");
    assert.equal(await logos.rerender("nothing.example"), "missing");
  } finally {
    kv.close();
  }
});

Deno.test("rerender leaves a logo that changed while it rendered as the change left it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await storeRecipeOneLogo(kv, "example.com", flatImage(300, 100, [200, 0, 0, 255]));
    const replacement = flatImage(300, 100, [0, 200, 0, 255]);
    const plain = new LogoStore(kv);
    // The logo is replaced while the re-render's imagecore job runs.
    const imaging: ImageWork = {
      ...IN_PROCESS,
      renditions: async (input, options) => {
        await plain.put("example.com", replacement, { source: "new" });
        return await IN_PROCESS.renditions(input, options);
      },
    };
    assert.equal(await new LogoStore(kv, { imaging }).rerender("example.com"), "changed");
    const record = (await plain.get("example.com"))!;
    assert.equal(record.source, "new");
    assert.equal(record.hash, await sha256Hex(replacement));
  } finally {
    kv.close();
  }
});

Deno.test("recipe-1 records written by the test helper are complete", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const record: LogoRecord = await storeRecipeOneLogo(
      kv,
      "a.example",
      flatImage(300, 100, [1, 2, 3, 255]),
    );
    assert.equal(record.pipeline, 1);
    assert.deepEqual((await kv.get(logoKey("a.example"))).value, record);
    for (const r of Object.values(record.renditions)) {
      assert.ok((await new BlobStore(kv).read(r.hash)) !== null);
    }
  } finally {
    kv.close();
  }
});
