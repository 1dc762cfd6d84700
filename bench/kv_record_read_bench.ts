/**
 * What one logo-record read costs on a local KV file: `kv.get` of random keys among 20,000
 * records, 50 reads in flight, for a record holding a 6-KB default image (the layout of
 * `src/store/inline_rendition.ts`) and for a 1-KB record without it. Prints reads/s and the CPU
 * time of this process per read — the floor of a default request whose record is not in memory.
 * Then the records with an image again, read 10 keys to a `kv.getMany` (5 calls in flight), and
 * through the request path's batched reads (`src/store/batched_record_reads.ts`, 50 reads in
 * flight): CPU per key read.
 *
 * Usage: deno run -A bench/kv_record_read_bench.ts [reads]   (default 20,000)
 *
 * @module
 */
import process from "node:process";
import { join } from "node:path";
import { logoKey } from "../src/store/keyspace.ts";
import { batchedRecordReads } from "../src/store/batched_record_reads.ts";

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
} finally {
  kv.close();
  await Deno.remove(dir, { recursive: true });
}
