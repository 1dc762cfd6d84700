/**
 * The store-growth benchmark's byte counts: the keyspace walk adds up exactly the key and value
 * bytes SQLite holds, and attributes blob bytes to the renditions that use them.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert";
import { join } from "node:path";
import { encodedKeySize, kvFootprint, sqliteFileSize } from "../../bench/support/kv_footprint.ts";
import { growthLogoPng } from "../../bench/support/growth_logos.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";

Deno.test("kv footprint: encoded key sizes of every part type", () => {
  strictEqual(encodedKeySize(["logos", "a.com"]), 7 + 7);
  strictEqual(encodedKeySize(["blob_chunks", "ab", 0]), 13 + 4 + 9);
  strictEqual(encodedKeySize([new Uint8Array([1, 0, 2])]), 2 + 3 + 1); // 0x00 is escaped
  strictEqual(encodedKeySize(["x", true]), 3 + 1);
});

Deno.test("kv footprint: the walk's bytes equal SQLite's, blobs counted per rendition", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "store.kv");
  try {
    const kv = await Deno.openKv(path);
    const logos = new LogoStore(kv);
    const records = [];
    for (const i of [0, 1]) {
      records.push(
        (await logos.put(`f${i}.com`, await growthLogoPng(2, i), { source: "t" })).record,
      );
    }
    await new KeyStore(kv).create({ plan: "free" });
    const footprint = await kvFootprint(kv);
    kv.close();
    const disk = await sqliteFileSize(path);

    strictEqual(footprint.logos, 2);
    strictEqual(footprint.total.entries, disk.rows);
    strictEqual(footprint.total.keyBytes, disk.keyBytes);
    // node:v8 writes a Uint8Array (the default's bytes inside a record) a few bytes longer than
    // Deno KV's serialiser does (17 here); every other value is counted exactly.
    const inlineSlack = Math.abs(footprint.total.valueBytes - disk.valueBytes);
    ok(inlineSlack <= 32 * records.length, `value bytes ${footprint.total.valueBytes}`);
    ok(disk.bytes >= disk.keyBytes + disk.valueBytes);
    strictEqual(disk.pages * disk.pageSize, disk.bytes);

    deepStrictEqual(Object.keys(footprint.kinds).sort(), [
      "blob:source",
      "inline:default",
      "other",
      "record",
    ]);
    strictEqual(
      footprint.kinds["inline:default"].valueBytes,
      records.reduce((sum, r) => sum + r.renditions.default.bytes, 0),
      "the default's bytes, held inside the records",
    );
    for (const name of ["source"]) {
      const stored = records.reduce((sum, r) => sum + r.renditions[name].bytes, 0);
      const kind = footprint.kinds[`blob:${name}`];
      // Each blob: its chunks' bytes plus a small manifest.
      ok(
        kind.valueBytes > stored && kind.valueBytes < stored + 2 * 100,
        `${name} ${kind.valueBytes}`,
      );
    }
    strictEqual(footprint.kinds.record.entries, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
