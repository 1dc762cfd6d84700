/**
 * What one logo-record read costs on a local KV file: `kv.get` of random keys among 20,000
 * records, 50 reads in flight, for a record holding a 6-KB default image (the layout of
 * `src/store/inline_rendition.ts`) and for a 1-KB record without it. Prints reads/s and the CPU
 * time of this process per read — the floor of a default request whose record is not in memory.
 *
 * Usage: deno run -A bench/kv_record_read_bench.ts [reads]   (default 20,000)
 *
 * @module
 */
import process from "node:process";
import { join } from "node:path";

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

try {
  for (const [name, withImage] of [["record with a 6-KB image", true], ["1-KB record", false]]) {
    const prefix = withImage ? "inline" : "plain";
    let op = kv.atomic();
    for (let i = 0; i < RECORDS; i++) {
      op.set([prefix, i], record(i, withImage as boolean));
      if (i % 80 === 79) {
        await op.commit();
        op = kv.atomic();
      }
    }
    await op.commit();
    let started = 0;
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 50 }, async () => {
      while (started++ < reads) await kv.get([prefix, Math.floor(Math.random() * RECORDS)]);
    }));
    const ms = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    console.log(
      `${name}: ${(reads / (ms / 1000)).toFixed(0)} reads/s, ` +
        `${((used.user + used.system) / reads).toFixed(0)} µs of CPU per read ` +
        `(load average ${Deno.loadavg()[0].toFixed(2)})`,
    );
  }
} finally {
  kv.close();
  await Deno.remove(dir, { recursive: true });
}
