import assert from "node:assert/strict";
import { ImageCoreError, probe, transform } from "../../imagecore/mod.ts";
import { CHUNK_SIZE } from "../../src/store/blob_store.ts";
import { blobChunksPrefix, blobManifestKey } from "../../src/store/keyspace.ts";
import { type LogoRecord, LogoStore } from "../../src/store/logo_store.ts";
import { blobHashes } from "../../src/store/inline_rendition.ts";
import { sha256Hex } from "../../src/store/sha256.ts";
import { flatImage, noiseImage } from "../support/images.ts";

const NOW = 1_700_000_000_000;

async function withStore(fn: (logos: LogoStore, kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    let now = NOW;
    await fn(new LogoStore(kv, { clock: () => now++ }), kv);
  } finally {
    kv.close();
  }
}

async function allKeys(kv: Deno.Kv, prefix: Deno.KvKey = []): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of kv.list({ prefix })) keys.push(JSON.stringify(entry.key));
  return keys;
}

/** Every rendition of `record` reads back complete and matches its hash, size and dimensions. */
async function assertComplete(logos: LogoStore, record: LogoRecord): Promise<void> {
  for (const [name, rendition] of Object.entries(record.renditions)) {
    const bytes = await logos.readRendition(rendition);
    assert.ok(bytes !== null, `${record.domain} ${name} readable`);
    assert.equal(bytes.length, rendition.bytes);
    assert.equal(await sha256Hex(bytes), rendition.hash);
    const info = probe(bytes);
    assert.deepEqual([info.format, info.width, info.height], [
      "png",
      rendition.width,
      rendition.height,
    ]);
  }
}

Deno.test("logo store put records the source's hash, type, size and origin", async () => {
  await withStore(async (logos) => {
    const png = flatImage(300, 150, [200, 30, 30, 255]);
    const { record, changed } = await logos.put("example.com", png, { source: "file:a.png" });
    assert.equal(changed, true);
    assert.equal(record.hash, await sha256Hex(png));
    assert.deepEqual(
      [record.domain, record.type, record.width, record.height, record.source],
      ["example.com", "image/png", 300, 150, "file:a.png"],
    );
    assert.equal(record.createdAt, NOW);
    assert.equal(record.updatedAt, NOW);
    assert.deepEqual(await logos.get("example.com"), record);
    assert.equal(await logos.get("example.org"), null);
  });
});

Deno.test("logo store precomputes the exact default 128-px answer from the normalised source", async () => {
  await withStore(async (logos) => {
    const { record } = await logos.put("example.com", flatImage(500, 250, [0, 90, 200, 255]), {
      source: "test",
    });
    const source = (await logos.readRendition(record.renditions.source))!;
    // Stored renditions are encoded with the smallest effort (same pixels as a request's render).
    const expected = transform(source, { width: 128, effort: "small" });
    const stored = await logos.readRendition(record.renditions.default);
    assert.deepEqual(stored, expected.bytes);
    assert.deepEqual(
      [record.renditions.default.width, record.renditions.default.height],
      [128, 64],
    );
    assert.deepEqual(Object.keys(record.renditions).sort(), ["default", "source"], "no mid");
    await assertComplete(logos, record);
  });
});

Deno.test("logo store normalises sources to at most 1200 px wide and never upscales them", async () => {
  await withStore(async (logos) => {
    const wide = (await logos.put("wide.example", flatImage(2000, 500, [9, 9, 9, 255]), {
      source: "t",
    })).record;
    assert.deepEqual([wide.width, wide.height], [2000, 500], "the record keeps the source size");
    assert.deepEqual([wide.renditions.source.width, wide.renditions.source.height], [1200, 300]);

    const small = (await logos.put("small.example", flatImage(40, 20, [9, 9, 9, 255]), {
      source: "t",
    })).record;
    assert.deepEqual([small.renditions.source.width, small.renditions.source.height], [40, 20]);
    assert.equal(small.renditions.default.width, 128, "the default answer is always 128 px");
    await assertComplete(logos, wide);
    await assertComplete(logos, small);
  });
});

Deno.test("logo store detects the source type from its bytes and stores PNG renditions", async () => {
  await withStore(async (logos) => {
    const jpeg = flatImage(64, 64, [10, 200, 10, 255], "jpeg");
    const { record } = await logos.put("example.com", jpeg, { source: "t" });
    assert.equal(record.type, "image/jpeg");
    for (const rendition of Object.values(record.renditions)) {
      assert.equal(rendition.type, "image/png");
    }
    await assertComplete(logos, record);
  });
});

Deno.test("logo store splits renditions over 64 KiB into chunks and reassembles them", async () => {
  await withStore(async (logos, kv) => {
    const { record } = await logos.put("noise.example", noiseImage(400, 300, 1), {
      source: "t",
    });
    const source = record.renditions.source;
    assert.ok(source.bytes > 2 * CHUNK_SIZE, `source rendition is ${source.bytes} bytes`);
    const chunks = await Array.fromAsync(
      kv.list<Uint8Array>({ prefix: blobChunksPrefix(source.hash) }),
    );
    assert.equal(chunks.length, Math.ceil(source.bytes / CHUNK_SIZE));
    for (const chunk of chunks) assert.ok(chunk.value.byteLength < 64 * 1024);
    await assertComplete(logos, record);
  });
});

Deno.test("logo store put of the same bytes again writes nothing", async () => {
  await withStore(async (logos, kv) => {
    const png = noiseImage(100, 100, 2);
    const first = await logos.put("example.com", png, { source: "file:a.png" });
    const before = await kv.get(["logos", "example.com"]);
    const keysBefore = await allKeys(kv);
    const second = await logos.put("example.com", png.slice(), { source: "file:b.png" });
    assert.equal(second.changed, false);
    assert.deepEqual(second.record, first.record);
    const after = await kv.get(["logos", "example.com"]);
    assert.equal(after.versionstamp, before.versionstamp, "the record was not rewritten");
    assert.deepEqual(await allKeys(kv), keysBefore);
  });
});

Deno.test("logo store stores a logo shared by two domains once", async () => {
  await withStore(async (logos, kv) => {
    const png = noiseImage(300, 300, 3);
    const a = (await logos.put("a.example", png, { source: "t" })).record;
    const blobKeys = await allKeys(kv, ["blobs"]);
    const chunkKeys = await allKeys(kv, ["blob_chunks"]);
    const b = (await logos.put("b.example", png, { source: "t" })).record;
    assert.deepEqual(b.renditions, a.renditions);
    assert.deepEqual(await allKeys(kv, ["blobs"]), blobKeys, "no new blob");
    assert.deepEqual(await allKeys(kv, ["blob_chunks"]), chunkKeys, "no new chunk");
    const manifest = await kv.get<{ refs: number }>(blobManifestKey(a.renditions.source.hash));
    assert.equal(manifest.value?.refs, 2);
  });
});

Deno.test("logo store remove keeps blobs another domain still uses, then deletes them", async () => {
  await withStore(async (logos, kv) => {
    const png = noiseImage(300, 300, 4);
    const a = (await logos.put("a.example", png, { source: "t" })).record;
    await logos.put("b.example", png, { source: "t" });
    assert.equal(await logos.remove("a.example"), true);
    assert.equal(await logos.get("a.example"), null);
    await assertComplete(logos, (await logos.get("b.example"))!);
    assert.equal(await logos.remove("b.example"), true);
    assert.equal(await logos.readRendition(a.renditions.source), null);
    // Only the change signal stays (its log entries expire: src/store/logo_changes.ts).
    const left = (await allKeys(kv)).filter((key) => !key.startsWith('["changes",'));
    assert.deepEqual(left, [], "nothing left behind");
    assert.equal(await logos.remove("b.example"), false);
  });
});

Deno.test("logo store replacing a logo collects the old blobs and keeps createdAt", async () => {
  await withStore(async (logos, kv) => {
    const first = (await logos.put("example.com", noiseImage(200, 200, 5), { source: "t" })).record;
    const { record, changed } = await logos.put("example.com", noiseImage(200, 200, 6), {
      source: "t2",
    });
    assert.equal(changed, true);
    assert.equal(record.createdAt, first.createdAt);
    assert.ok(record.updatedAt > first.updatedAt);
    assert.equal(await logos.readRendition(first.renditions.source), null);
    const hashes = new Set(blobHashes(record));
    const stored = (await allKeys(kv, ["blobs"])).map((k) => JSON.parse(k)[1]);
    assert.deepEqual(new Set(stored), hashes, "only the new logo's blobs remain");
    await assertComplete(logos, record);
  });
});

Deno.test("logo store refuses bytes imagecore cannot decode and writes nothing", async () => {
  await withStore(async (logos, kv) => {
    const garbage = new TextEncoder().encode("<html>not an image</html>");
    await assert.rejects(
      logos.put("example.com", garbage, { source: "t" }),
      (error) => error instanceof ImageCoreError && /Cannot decode image/.test(error.message),
    );
    const truncated = noiseImage(100, 100, 7).slice(0, 500);
    await assert.rejects(logos.put("example.com", truncated, { source: "t" }), ImageCoreError);
    assert.deepEqual(await allKeys(kv), []);
  });
});

Deno.test("logo store refuses a domain that is not normalised", async () => {
  await withStore(async (logos) => {
    await assert.rejects(
      logos.put("Example.com", flatImage(8, 8, [0, 0, 0, 255]), { source: "t" }),
      TypeError,
    );
  });
});

Deno.test("logo store lists records in domain order", async () => {
  await withStore(async (logos) => {
    for (const domain of ["c.example", "a.example", "b.example"]) {
      await logos.put(domain, flatImage(16, 16, [1, 2, 3, 255]), { source: "t" });
    }
    const domains = (await Array.fromAsync(logos.list())).map((r) => r.domain);
    assert.deepEqual(domains, ["a.example", "b.example", "c.example"]);
    assert.equal(await logos.isEmpty(), false);
  });
});

Deno.test("logo store concurrent puts and removes of shared bytes keep exact reference counts", async () => {
  await withStore(async (logos, kv) => {
    const shared = noiseImage(200, 200, 11);
    const other = flatImage(300, 100, [5, 5, 5, 255]);
    const domains = Array.from({ length: 8 }, (_, i) => `d${i}.example`);
    await Promise.all(domains.map((d) => logos.put(d, shared, { source: "t" })));
    await Promise.all([
      ...domains.slice(0, 3).map((d) => logos.remove(d)),
      ...domains.slice(3, 5).map((d) => logos.put(d, other, { source: "t" })),
      logos.put("d5.example", shared, { source: "again" }),
    ]);
    const records = await Array.fromAsync(logos.list());
    assert.deepEqual(records.map((r) => r.domain), domains.slice(3));
    const uses = new Map<string, number>();
    for (const record of records) {
      await assertComplete(logos, record);
      for (const hash of blobHashes(record)) {
        uses.set(hash, (uses.get(hash) ?? 0) + 1);
      }
    }
    const manifests = await Array.fromAsync(
      kv.list<{ refs: number; state: string }>({ prefix: ["blobs"] }),
    );
    assert.deepEqual(
      new Map(manifests.map((m) => [m.key[1] as string, m.value.refs])),
      uses,
      "every blob's count is the number of records using it, and no other blob is left",
    );
  });
});
