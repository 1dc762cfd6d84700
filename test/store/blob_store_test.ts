import assert from "node:assert/strict";
import {
  type BlobManifest,
  BlobStore,
  CHUNK_SIZE,
  PENDING_TIMEOUT_MS,
} from "../../src/store/blob_store.ts";
import { blobChunksPrefix, blobManifestKey } from "../../src/store/keyspace.ts";
import { sha256Hex } from "../../src/store/sha256.ts";

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i += 65_536) {
    crypto.getRandomValues(bytes.subarray(i, Math.min(length, i + 65_536)));
  }
  return bytes;
}

async function blob(length: number) {
  const bytes = randomBytes(length);
  return { hash: await sha256Hex(bytes), bytes };
}

/** Commits a reference change the way a record commit does, with one record key. */
async function commitRefs(
  kv: Deno.Kv,
  blobs: BlobStore,
  added: { hash: string; bytes: Uint8Array }[],
  removed: string[],
) {
  const refs = await blobs.reference(added, removed);
  assert.ok(refs !== null, "no concurrent writer");
  const op = kv.atomic().set(["test_record", crypto.randomUUID()], true);
  refs.apply(op);
  assert.ok((await op.commit()).ok);
  return refs.orphaned;
}

async function countChunks(kv: Deno.Kv, hash: string): Promise<number> {
  return (await Array.fromAsync(kv.list({ prefix: blobChunksPrefix(hash) }))).length;
}

Deno.test("blob store splits a blob over several chunks under KV's 64 KiB limit and reassembles it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const blobs = new BlobStore(kv);
    const big = await blob(CHUNK_SIZE * 11 + 123); // 12 chunks: more than one write batch
    await commitRefs(kv, blobs, [big], []);
    assert.equal(await countChunks(kv, big.hash), 12);
    for await (const chunk of kv.list<Uint8Array>({ prefix: blobChunksPrefix(big.hash) })) {
      assert.ok(chunk.value.byteLength <= 64 * 1024);
    }
    assert.deepEqual(await blobs.read(big.hash), big.bytes);
    const empty = await blob(0);
    await commitRefs(kv, blobs, [empty], []);
    assert.deepEqual(await blobs.read(empty.hash), new Uint8Array(0));
  } finally {
    kv.close();
  }
});

Deno.test("blob store: chunks of an uncommitted write stay invisible and are swept once abandoned", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let now = 1_700_000_000_000;
    const blobs = new BlobStore(kv, { clock: () => now });
    const b = await blob(CHUNK_SIZE * 2);
    assert.ok(await blobs.reference([b], [])); // a writer that then crashes before its commit
    assert.equal((await blobs.manifest(b.hash)).value?.state, "pending");
    assert.equal(await countChunks(kv, b.hash), 2);
    assert.equal(await blobs.read(b.hash), null, "written but uncommitted chunks stay invisible");
    assert.equal(await blobs.sweep(), 0, "a young pending blob may still be committed");
    now += PENDING_TIMEOUT_MS;
    assert.equal(await blobs.sweep(), 1);
    assert.equal(await countChunks(kv, b.hash), 0);
    assert.equal((await blobs.manifest(b.hash)).value, null);
  } finally {
    kv.close();
  }
});

Deno.test("blob store reads null when a referenced blob lost a chunk", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const blobs = new BlobStore(kv);
    const b = await blob(CHUNK_SIZE * 3);
    await commitRefs(kv, blobs, [b], []);
    await kv.delete([...blobChunksPrefix(b.hash), 1]);
    assert.equal(await blobs.read(b.hash), null);
  } finally {
    kv.close();
  }
});

Deno.test("blob store reads a one-chunk blob as KV gave it, and refuses it at any other length", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const blobs = new BlobStore(kv);
    const b = await blob(20_000);
    await commitRefs(kv, blobs, [b], []);
    assert.equal(await countChunks(kv, b.hash), 1);
    const read = await blobs.read(b.hash);
    assert.deepEqual(read, b.bytes);
    // Its own buffer, exactly its size: a cache counting the buffer counts the blob.
    assert.equal(read!.buffer.byteLength, 20_000);
    const chunkKey = [...blobChunksPrefix(b.hash), 0];
    for (const length of [19_999, 20_001]) {
      const wrong = new Uint8Array(length);
      wrong.set(b.bytes.subarray(0, Math.min(length, 20_000)));
      await kv.set(chunkKey, wrong);
      assert.equal(await blobs.read(b.hash), null, `a chunk of ${length} bytes for 20,000`);
    }
    await kv.set(chunkKey, "not bytes");
    assert.equal(await blobs.read(b.hash), null, "a chunk that is not bytes");
  } finally {
    kv.close();
  }
});

Deno.test("blob store counts references and collects a blob only at zero", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const blobs = new BlobStore(kv);
    const shared = await blob(CHUNK_SIZE + 5);
    await commitRefs(kv, blobs, [shared], []);
    await commitRefs(kv, blobs, [shared], []);
    assert.equal((await blobs.manifest(shared.hash)).value?.refs, 2);
    assert.deepEqual(await commitRefs(kv, blobs, [], [shared.hash]), []);
    assert.equal(await blobs.collect(shared.hash), false, "still referenced once");
    assert.deepEqual(await blobs.read(shared.hash), shared.bytes);
    assert.deepEqual(await commitRefs(kv, blobs, [], [shared.hash]), [shared.hash]);
    assert.equal(await blobs.collect(shared.hash), true);
    assert.equal((await kv.get(blobManifestKey(shared.hash))).value, null);
    assert.equal(await countChunks(kv, shared.hash), 0);
  } finally {
    kv.close();
  }
});

Deno.test("blob store sweep resumes a collection a crash left half done", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const blobs = new BlobStore(kv);
    const b = await blob(CHUNK_SIZE * 4);
    await commitRefs(kv, blobs, [b], []);
    await commitRefs(kv, blobs, [], [b.hash]);
    // Simulate a collector that marked the blob and deleted one chunk, then died.
    const entry = await blobs.manifest(b.hash);
    await kv.set(entry.key, { ...entry.value!, state: "deleting" });
    await kv.delete([...blobChunksPrefix(b.hash), 0]);
    assert.equal(await blobs.read(b.hash), null);
    assert.equal(await blobs.sweep(), 1);
    assert.equal(await countChunks(kv, b.hash), 0);
    // The same bytes can be stored again afterwards, complete.
    await commitRefs(kv, blobs, [b], []);
    assert.deepEqual(await blobs.read(b.hash), b.bytes);
  } finally {
    kv.close();
  }
});

Deno.test("blob store: a writer racing a collector of the same bytes never commits a torn blob", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const blobs = new BlobStore(kv);
    const b = await blob(CHUNK_SIZE * 25); // several deletion batches
    for (let round = 0; round < 5; round++) {
      await commitRefs(kv, blobs, [b], []);
      await commitRefs(kv, blobs, [], [b.hash]);
      // A collector and a writer of the same hash run concurrently.
      const writer = (async () => {
        for (;;) {
          const refs = await blobs.reference([b], []);
          if (refs === null) continue;
          const op = kv.atomic();
          refs.apply(op);
          if ((await op.commit()).ok) return;
        }
      })();
      await Promise.all([blobs.collect(b.hash), writer]);
      const manifest = (await blobs.manifest(b.hash)).value;
      assert.equal(manifest?.state, "live");
      assert.equal(manifest?.refs, 1);
      assert.deepEqual(await blobs.read(b.hash), b.bytes, `round ${round}`);
      await commitRefs(kv, blobs, [], [b.hash]);
      await blobs.collect(b.hash);
    }
  } finally {
    kv.close();
  }
});

Deno.test("blob store: a reference prepared before a collection fails its commit after it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const blobs = new BlobStore(kv);
    const b = await blob(CHUNK_SIZE * 3);
    await commitRefs(kv, blobs, [b], []);
    await commitRefs(kv, blobs, [], [b.hash]); // live, zero references
    const late = (await blobs.reference([b], []))!; // sees it live: writes no chunks
    assert.equal(await blobs.collect(b.hash), true);
    const op = kv.atomic();
    late.apply(op);
    assert.equal((await op.commit()).ok, false, "the stale reference must not commit");
    await commitRefs(kv, blobs, [b], []); // a retry rewrites the chunks
    assert.deepEqual(await blobs.read(b.hash), b.bytes);
  } finally {
    kv.close();
  }
});

Deno.test("blob store: a collection in progress stops when a writer rewrites the blob", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const blobs = new BlobStore(kv);
    const b = await blob(CHUNK_SIZE * 3);
    await commitRefs(kv, blobs, [b], []);
    await commitRefs(kv, blobs, [], [b.hash]);
    // A collector marked the blob and deleted a chunk…
    const entry = await blobs.manifest(b.hash);
    const deleting: BlobManifest = { ...entry.value!, state: "deleting" };
    const marked = await kv.atomic().check(entry).set(entry.key, deleting).commit();
    assert.ok(marked.ok);
    const batch = await kv.atomic()
      .check({ key: entry.key, versionstamp: marked.versionstamp })
      .set(entry.key, deleting)
      .delete([...blobChunksPrefix(b.hash), 0])
      .commit();
    assert.ok(batch.ok);
    // …a writer sees it deleting, marks it pending and rewrites all chunks…
    const writer = (await blobs.reference([b], []))!;
    assert.equal(await countChunks(kv, b.hash), 3);
    // …so the collector's next batch fails its check, and a new collection leaves it alone.
    const next = await kv.atomic()
      .check({ key: entry.key, versionstamp: batch.versionstamp })
      .set(entry.key, deleting)
      .delete([...blobChunksPrefix(b.hash), 1])
      .commit();
    assert.equal(next.ok, false, "the collector must not delete a blob being rewritten");
    assert.equal(await blobs.collect(b.hash), false);
    const op = kv.atomic();
    writer.apply(op);
    assert.ok((await op.commit()).ok);
    assert.deepEqual(await blobs.read(b.hash), b.bytes);
    await commitRefs(kv, blobs, [b], []);
    assert.equal((await blobs.manifest(b.hash)).value?.refs, 2);
    await commitRefs(kv, blobs, [b], []);
    assert.deepEqual(await blobs.read(b.hash), b.bytes);
  } finally {
    kv.close();
  }
});
