/**
 * Record reads batched under load (`src/store/batched_record_reads.ts`): a lone read is one
 * `kv.get`; reads asked for while others are in flight go together in a `getMany`; every reader
 * gets its own domain's record; a failed call fails its batch only.
 */
import assert from "node:assert/strict";
import { batchedRecordReads, RECORD_BATCH_KEYS } from "../../src/store/batched_record_reads.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import type { LogoRecord } from "../../src/store/logo_record.ts";
import { flatImage } from "../support/images.ts";

/** A KV whose reads wait until released, recording each call's keys. */
function heldKv(records: Map<string, LogoRecord>) {
  const calls: string[][] = [];
  const pending: (() => void)[] = [];
  let failNext = false;
  const entry = (key: Deno.KvKey) => ({
    key,
    value: records.get(String(key[1])) ?? null,
    versionstamp: records.has(String(key[1])) ? "1" : null,
  });
  const hold = <T>(keys: Deno.KvKey[], answer: () => T): Promise<T> => {
    calls.push(keys.map((k) => k.join("/")));
    const fail = failNext;
    failNext = false;
    return new Promise((resolve, reject) => {
      pending.push(() => fail ? reject(new Error("KV down")) : resolve(answer()));
    });
  };
  const kv = {
    get: (key: Deno.KvKey) => hold([key], () => entry(key)),
    getMany: (keys: Deno.KvKey[]) => hold(keys, () => keys.map(entry)),
  } as unknown as Pick<Deno.Kv, "get" | "getMany">;
  return {
    kv,
    calls,
    failNextCall: () => failNext = true,
    /** Answers every call made so far, and waits for what that starts. */
    release: async () => {
      for (const answer of pending.splice(0)) answer();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

const record = (domain: string) => ({ domain } as unknown as LogoRecord);

Deno.test("batched reads: a lone read is a kv.get of the record, as LogoStore.get", async () => {
  await using kv = await Deno.openKv(":memory:");
  const logos = new LogoStore(kv);
  await logos.put("acme.example", flatImage(300, 300, [0, 90, 200, 255]), { source: "test" });
  const reads = batchedRecordReads(kv);
  assert.deepEqual(await reads.get("acme.example"), await logos.get("acme.example"));
  assert.equal(await reads.get("missing.example"), null);
  const [a, b] = await Promise.all([reads.get("acme.example"), reads.get("other.example")]);
  assert.equal(a?.domain, "acme.example");
  assert.equal(b, null);
});

Deno.test("batched reads: reads asked for while the limit is in flight go in one getMany", async () => {
  const held = heldKv(new Map([["b.example", record("b.example")]]));
  const reads = batchedRecordReads(held.kv, 1);
  const first = reads.get("a.example");
  const later = ["b.example", "c.example", "d.example"].map((d) => reads.get(d));
  assert.deepEqual(held.calls, [["logos/a.example"]], "the others wait for the one in flight");
  await held.release();
  assert.equal(await first, null);
  assert.deepEqual(held.calls[1], ["logos/b.example", "logos/c.example", "logos/d.example"]);
  await held.release();
  const answers = await Promise.all(later);
  assert.deepEqual(answers.map((r) => r?.domain ?? null), ["b.example", null, null]);
  assert.equal(held.calls.length, 2);
});

Deno.test("batched reads: a full batch starts whatever is in flight", async () => {
  const held = heldKv(new Map());
  const reads = batchedRecordReads(held.kv, 1);
  const all = [reads.get("first.example")];
  for (let i = 0; i < RECORD_BATCH_KEYS + 3; i++) all.push(reads.get(`d${i}.example`));
  // One read in flight, one full batch started beside it, three waiting.
  assert.equal(held.calls.length, 2);
  assert.equal(held.calls[1].length, RECORD_BATCH_KEYS);
  await held.release();
  await held.release();
  assert.deepEqual(held.calls.map((c) => c.length), [1, RECORD_BATCH_KEYS, 3]);
  assert.ok((await Promise.all(all)).every((r) => r === null));
});

Deno.test("batched reads: a failed call fails its own batch, and the next reads work", async () => {
  const held = heldKv(new Map([["ok.example", record("ok.example")]]));
  const reads = batchedRecordReads(held.kv, 1);
  const first = reads.get("ok.example");
  held.failNextCall(); // ok.example's kv.get is made: the next call, the batch's, fails
  const batch = [reads.get("x.example"), reads.get("y.example")];
  await held.release(); // first answers; the batch's getMany starts
  assert.equal((await first)?.domain, "ok.example");
  await held.release();
  for (const read of batch) await assert.rejects(read, /KV down/);
  assert.equal(
    (await Promise.all([reads.get("ok.example"), held.release()]))[0]?.domain,
    "ok.example",
  );
});
