/**
 * Issue 17: a default request for a logo that is not in the server's memory costs one KV read —
 * its record, which holds the default rendition's bytes (`src/store/inline_rendition.ts`) — where
 * it cost three before (record, blob manifest, chunk list).
 */
import assert from "node:assert/strict";
import { startTestApp } from "../support/server.ts";
import { flatImage } from "../support/images.ts";

/** Patches `kv` so each read call (`get`, `getMany`, `list`) records the keys or prefix it read. */
function recordReads(kv: Deno.Kv): string[] {
  const reads: string[] = [];
  const get = kv.get.bind(kv);
  const getMany = kv.getMany.bind(kv);
  const list = kv.list.bind(kv);
  kv.get = ((key: Deno.KvKey, options?: { consistency?: Deno.KvConsistencyLevel }) => {
    reads.push(JSON.stringify(key));
    return get(key, options);
  }) as Deno.Kv["get"];
  kv.getMany = ((keys: Deno.KvKey[], options?: { consistency?: Deno.KvConsistencyLevel }) => {
    reads.push(JSON.stringify(keys));
    return getMany(keys, options);
  }) as Deno.Kv["getMany"];
  kv.list = ((selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
    reads.push(`list ${JSON.stringify(selector)}`);
    return list(selector, options);
  }) as Deno.Kv["list"];
  return reads;
}

Deno.test("a default request for a logo not in memory reads its record alone from KV", async () => {
  await using kv = await Deno.openKv(":memory:");
  await using server = await startTestApp({ kv });
  await server.addLogo("first.example", flatImage(600, 200, [250, 120, 0, 255]));
  const record = await server.addLogo("acme.example", flatImage(500, 500, [0, 90, 200, 255]));
  // A first request makes the key and the limiter warm; acme.example is in no cache yet.
  assert.equal((await server.exchange(server.logoUrl("first.example"))).status, 200);
  const reads = recordReads(kv);
  const answer = await server.exchange(server.logoUrl("acme.example"));
  const logoReads = reads.filter((read) => /"(logos|blobs|blob_chunks)"/.test(read));
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.bytes, await server.logos.readRendition(record.renditions.default));
  assert.deepEqual(logoReads, [JSON.stringify(["logos", "acme.example"])]);
});
