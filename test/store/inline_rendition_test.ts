/**
 * The `default` rendition inside its logo record (`src/store/inline_rendition.ts`): written by
 * `put` and by an archive restore, a blob when too large, records of the layout before still read
 * and served, and rewritten by the next `put`; archives never carry the inlined bytes.
 */
import assert from "node:assert/strict";
import { transform } from "../../imagecore/mod.ts";
import { BlobStore } from "../../src/store/blob_store.ts";
import { blobManifestKey, logoKey } from "../../src/store/keyspace.ts";
import {
  fitsInline,
  INLINE_MAX_BYTES,
  isCurrentLayout,
  withoutInlineBytes,
} from "../../src/store/inline_rendition.ts";
import { PIPELINE_VERSION, prepareLogo } from "../../src/store/logo_ingest.ts";
import { type LogoRecord, LogoStore, type Rendition } from "../../src/store/logo_store.ts";
import { sha256Hex } from "../../src/store/sha256.ts";
import { importArchive } from "../../src/store/archive_import.ts";
import { archiveOf, gunzip, opener } from "../support/archives.ts";
import { startTestApp } from "../support/server.ts";
import { flatImage, noiseImage } from "../support/images.ts";

const LOGO = flatImage(600, 200, [250, 120, 0, 255]);

/** Every logo, blob manifest and chunk key in `kv`. */
async function logoKeys(kv: Deno.Kv): Promise<string[]> {
  const keys: string[] = [];
  for (const prefix of ["logos", "blobs", "blob_chunks"]) {
    for await (const entry of kv.list({ prefix: [prefix] })) keys.push(JSON.stringify(entry.key));
  }
  return keys;
}

/** Writes `png` as the logo of `domain` the way `put` did before the default moved inside. */
async function putOldLayout(kv: Deno.Kv, domain: string, png: Uint8Array): Promise<LogoRecord> {
  const prepared = await prepareLogo(png);
  const renditions: Record<string, Rendition> = {};
  const writes = new Map<string, Uint8Array>();
  for (const [name, r] of Object.entries(prepared.renditions)) {
    renditions[name] = {
      hash: r.hash,
      type: r.type,
      width: r.width,
      height: r.height,
      bytes: r.bytes.length,
    };
    writes.set(r.hash, r.bytes);
  }
  const record: LogoRecord = {
    domain,
    hash: prepared.hash,
    type: prepared.type,
    width: prepared.width,
    height: prepared.height,
    source: "old",
    createdAt: 1,
    updatedAt: 1,
    pipeline: PIPELINE_VERSION,
    renditions,
  };
  const added = [...writes].map(([hash, bytes]) => ({ hash, bytes }));
  const refs = await new BlobStore(kv).reference(added, []);
  assert.ok(refs !== null);
  const op = kv.atomic().check({ key: logoKey(domain), versionstamp: null })
    .set(logoKey(domain), record);
  refs.apply(op);
  assert.ok((await op.commit()).ok);
  return record;
}

Deno.test("inline: put keeps the default's bytes inside the record and no blob for them", async () => {
  await using kv = await Deno.openKv(":memory:");
  const logos = new LogoStore(kv);
  const { record } = await logos.put("example.com", LOGO, { source: "t" });
  const stored = (await kv.get<LogoRecord>(logoKey("example.com"))).value!;
  const data = stored.renditions.default.data;
  assert.ok(data instanceof Uint8Array, "the default's bytes are in the KV value");
  const source = (await logos.readRendition(stored.renditions.source))!;
  assert.deepEqual(data, transform(source, { width: 128, effort: "small" }).bytes);
  assert.equal(await sha256Hex(data), stored.renditions.default.hash);
  assert.equal(data.length, stored.renditions.default.bytes);
  assert.equal((await kv.get(blobManifestKey(record.renditions.default.hash))).value, null);
  for (const name of ["source"]) {
    const rendition = stored.renditions[name];
    assert.equal(rendition.data, undefined, `${name} stays a blob`);
    assert.notEqual((await kv.get(blobManifestKey(rendition.hash))).value, null);
  }
  assert.deepEqual(record, stored, "put returns what it stored");
  assert.ok(isCurrentLayout(stored));
  const again = await logos.put("example.com", LOGO.slice(), { source: "t" });
  assert.equal(again.changed, false, "the same bytes again write nothing");
});

Deno.test("inline: a default too large for a KV value stays a blob", async () => {
  await using kv = await Deno.openKv(":memory:");
  const logos = new LogoStore(kv);
  const { record } = await logos.put("noise.example", noiseImage(128, 400, 3), { source: "t" });
  const rendition = record.renditions.default;
  assert.ok(rendition.bytes > INLINE_MAX_BYTES, `the default is ${rendition.bytes} bytes`);
  assert.equal(fitsInline(record), false);
  assert.equal(rendition.data, undefined);
  assert.equal((await kv.get<{ refs: number }>(blobManifestKey(rendition.hash))).value?.refs, 1);
  const bytes = (await logos.readRendition(rendition))!;
  assert.equal(await sha256Hex(bytes), rendition.hash);
  assert.ok(isCurrentLayout(record), "a blob default that cannot fit is the current layout");
  const again = await logos.put("noise.example", noiseImage(128, 400, 3), { source: "t" });
  assert.equal(again.changed, false);
});

Deno.test("inline: a record of the layout before is served, and a re-put writes the new one", async () => {
  await using kv = await Deno.openKv(":memory:");
  const old = await putOldLayout(kv, "example.com", LOGO);
  assert.equal(isCurrentLayout(old), false);
  const oldDefault = (await new LogoStore(kv).readBlob(old.renditions.default.hash))!;
  {
    await using server = await startTestApp({ kv });
    const answer = await server.exchange(server.logoUrl("example.com"));
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.bytes, oldDefault, "the default blob is served");
    const small = await server.exchange(server.logoUrl("example.com", { size: "64" }));
    assert.equal(small.status, 200, "renders from the old layout's blobs");
  }
  const logos = new LogoStore(kv);
  const { record, changed } = await logos.put("example.com", LOGO, { source: "again" });
  assert.equal(changed, true, "same bytes, old layout: rewritten");
  assert.deepEqual(record.renditions.default.data, oldDefault);
  assert.deepEqual(withoutInlineBytes(record).renditions, old.renditions, "same renditions");
  assert.equal(
    (await kv.get(blobManifestKey(old.renditions.default.hash))).value,
    null,
    "the old default blob is collected",
  );
  for (const name of ["source"]) {
    const manifest = await kv.get<{ refs: number }>(blobManifestKey(record.renditions[name].hash));
    assert.equal(manifest.value?.refs, 1, `${name} is still referenced once`);
  }
  assert.equal(await logos.remove("example.com"), true);
  assert.deepEqual(await logoKeys(kv), [], "nothing left behind");
});

Deno.test("inline: archives carry no inlined bytes, and a restore writes the new layout", async () => {
  await using from = await Deno.openKv(":memory:");
  await using to = await Deno.openKv(":memory:");
  const old = await putOldLayout(from, "old.example", LOGO);
  await new LogoStore(from).put("new.example", flatImage(300, 300, [0, 0, 200, 255]), {
    source: "t",
  });
  const archive = await archiveOf(from);
  assert.doesNotMatch(await gunzip(archive), /"data"/, "no bytes inside an archived record");
  const result = await importArchive(to, opener(archive), { replace: false });
  assert.deepEqual(result.logos, { added: 2, replaced: 0, unchanged: 0 });
  const logos = new LogoStore(to);
  for (const domain of ["old.example", "new.example"]) {
    const restored = (await logos.get(domain))!;
    const original = (await new LogoStore(from).get(domain))!;
    assert.ok(restored.renditions.default.data !== undefined, `${domain}: default inlined`);
    assert.deepEqual(withoutInlineBytes(restored), withoutInlineBytes(original));
    for (const [name, rendition] of Object.entries(original.renditions)) {
      assert.deepEqual(
        await logos.readRendition(restored.renditions[name]),
        await new LogoStore(from).readRendition(rendition),
        `${domain} ${name}`,
      );
    }
  }
  assert.equal((await to.get(blobManifestKey(old.renditions.default.hash))).value, null);
  const again = await importArchive(to, opener(archive), { replace: false });
  assert.deepEqual(again.logos, { added: 0, replaced: 0, unchanged: 2 }, "equal, inlined or not");
});
