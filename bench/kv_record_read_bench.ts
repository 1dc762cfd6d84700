/**
 * What one logo-record read costs on a local KV file: `kv.get` of random keys among 20,000
 * records, 50 reads in flight, for a record holding a 6-KB default image (the layout of
 * `src/store/inline_rendition.ts`) and for a 1-KB record without it. Prints reads/s and the CPU
 * time of this process per read — the floor of a default request whose record is not in memory.
 * Then the records with an image again, read 10 keys to a `kv.getMany` (5 calls in flight), and
 * through the request path's batched reads (`src/store/batched_record_reads.ts`, 50 reads in
 * flight): CPU per key read.
 *
 * Last, where a key read's CPU goes, one call after another: `getMany` of 1 (`kv.get`), 2, 5 and
 * 10 keys, split into the main thread (the op, the V8 deserialisation of the record) and Deno KV's
 * SQLite thread (`sw-…`), from `/proc` (`bench/support/thread_cpu.ts`; `n/a` without it); and the
 * same rows read by SQLite itself (`node:sqlite`, `SELECT v FROM kv WHERE k = ?` on Deno KV's
 * table, keys in its encoding, the value left as bytes): the floor under Deno KV's own path.
 *
 * Usage: deno run -A bench/kv_record_read_bench.ts [reads]   (default 20,000)
 *
 * @module
 */
import process from "node:process";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { logoKey } from "../src/store/keyspace.ts";
import { batchedRecordReads } from "../src/store/batched_record_reads.ts";
import { printTable } from "./support/bench_cli.ts";
import { threadCpu } from "./support/thread_cpu.ts";

const RECORDS = 20_000;
const reads = Number(Deno.args[0] ?? 20_000);
const dir = await Deno.makeTempDir({ prefix: "logo-lookup-kv-read-" });
const kv = await Deno.openKv(join(dir, "records.kv"));
const image = new Uint8Array(6_000).map((_, i) => (i * 31) & 255);

function record(i: number, withImage: boolean) {
  const domain = `d${i}.example`;
  const rendition = { hash: "cd".repeat(32), type: "image/png", width: 128, height: 128 };
  return {
    domain,
    hash: "ab".repeat(32),
    type: "image/png",
    width: 500,
    height: 500,
    source: `file:${domain}.png`,
    createdAt: 1,
    updatedAt: 1,
    pipeline: 1,
    renditions: {
      default: { ...rendition, bytes: 6_000, ...(withImage ? { data: image } : {}) },
      source: { ...rendition, width: 500, height: 500, bytes: 20_000 },
    },
  };
}

function random(): number {
  return Math.floor(Math.random() * RECORDS);
}

/** Runs `read` (which reads `keys` keys) with `inFlight` calls at a time until `reads` keys. */
async function measure(
  name: string,
  inFlight: number,
  read: () => Promise<unknown>,
  keys: number,
): Promise<void> {
  let started = 0;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while ((started += keys) <= reads) await read();
  }));
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  console.log(
    `${name}: ${(reads / (ms / 1000)).toFixed(0)} keys/s, ` +
      `${((used.user + used.system) / reads).toFixed(0)} µs of CPU per key ` +
      `(load average ${Deno.loadavg()[0].toFixed(2)})`,
  );
}

/** CPU ns so far of the main thread and of Deno KV's SQLite thread(s) (`sw-…`). */
function threadsNow(): { main: number; sqlite: number } {
  let main = 0;
  let sqlite = 0;
  for (const [key, ns] of threadCpu(Deno.pid)) {
    const name = key.slice(key.indexOf(" ") + 1);
    if (name === "serving") main += ns;
    else if (name.startsWith("sw-")) sqlite += ns;
  }
  return { main, sqlite };
}

/** Wall and CPU µs per key of `read(n)` (which reads `n` keys and returns how many it found). */
async function perKey(read: (n: number) => Promise<number>, keys: number) {
  const before = threadsNow();
  const t0 = performance.now();
  let found = 0;
  for (let done = 0; done < reads; done += keys) found += await read(Math.min(keys, reads - done));
  const wall = (performance.now() - t0) * 1000 / reads;
  const after = threadsNow();
  if (found !== reads) throw new Error(`Found ${found} of ${reads} records`);
  const us = (ns: number) => ns / 1000 / reads;
  return { wall, main: us(after.main - before.main), sqlite: us(after.sqlite - before.sqlite) };
}

/** Deno KV's encoding of a key of strings: each part 0x02, its UTF-8 (0x00 as 0x00 0xFF), 0x00. */
function encodedKey(key: Deno.KvKey): Uint8Array {
  const out: number[] = [];
  for (const part of key) {
    out.push(0x02);
    for (const byte of new TextEncoder().encode(String(part))) {
      out.push(byte);
      if (byte === 0) out.push(0xff);
    }
    out.push(0x00);
  }
  return new Uint8Array(out);
}

async function whereTheCpuGoes(): Promise<void> {
  const keysOf = (n: number) => Array.from({ length: n }, () => logoKey(`d${random()}.example`));
  const rows: string[][] = [];
  const proc = threadCpu(Deno.pid).size > 0;
  const fixed = (n: number) => proc ? n.toFixed(1) : "n/a";
  for (const n of [1, 2, 5, 10]) {
    const cost = await perKey(async (k) => {
      const entries = k === 1 ? [await kv.get(keysOf(1)[0])] : await kv.getMany(keysOf(k));
      return entries.filter((e) => e.value !== null).length;
    }, n);
    rows.push(["Deno KV", String(n), cost.wall.toFixed(1), fixed(cost.main), fixed(cost.sqlite)]);
  }
  const db = new DatabaseSync(join(dir, "records.kv"), { readOnly: true });
  const select = db.prepare("SELECT v FROM kv WHERE k = ?");
  const raw = await perKey(
    () => Promise.resolve(select.get(encodedKey(keysOf(1)[0])) === undefined ? 0 : 1),
    1,
  );
  db.close();
  rows.push(["node:sqlite", "1", raw.wall.toFixed(1), fixed(raw.main), "—"]);
  console.log(`\nOne call after another (load average ${Deno.loadavg()[0].toFixed(2)}):`);
  printTable(
    ["reader", "keys per call", "wall µs/key", "main CPU µs/key", "SQLite thread CPU µs/key"],
    rows,
  );
}

try {
  for (
    const [name, withImage] of [["record with a 6-KB image", true], ["1-KB record", false]] as const
  ) {
    const key = (i: number) => withImage ? logoKey(`d${i}.example`) : ["plain", i];
    let op = kv.atomic();
    for (let i = 0; i < RECORDS; i++) {
      op.set(key(i), record(i, withImage));
      if (i % 80 === 79) {
        await op.commit();
        op = kv.atomic();
      }
    }
    await op.commit();
    await measure(name, 50, () => kv.get(key(random())), 1);
  }
  // The records with an image, in batches.
  const batched = batchedRecordReads(kv);
  await measure("record with a 6-KB image, getMany of 10", 5, () => {
    const keys = Array.from({ length: 10 }, () => logoKey(`d${random()}.example`));
    return kv.getMany(keys);
  }, 10);
  await measure(
    "record with a 6-KB image, batched_record_reads.ts",
    50,
    () => batched.get(`d${random()}.example`),
    1,
  );
  await whereTheCpuGoes();
} finally {
  kv.close();
  await Deno.remove(dir, { recursive: true });
}
