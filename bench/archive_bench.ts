/**
 * Backup figures: `export` and `import-archive` of a store of N logos (store files on disk, as an
 * operator has them). Prints the archive's size per logo, logos per second for the export and for
 * the import (both passes: verify, then write), and the process's peak RSS, which stays flat as N
 * grows because one logo is held at a time.
 *
 * Run: `deno run --config deno.dev.json -A bench/archive_bench.ts [N] [SIDE]` (default 300 logos of
 * SIDE×SIDE noise, SIDE 256: every logo's images span several KV chunks, like a photo-like logo).
 *
 * @module
 */
import { importArchive } from "../src/store/archive_import.ts";
import { writeArchive } from "../src/store/archive_writer.ts";
import { LogoStore } from "../src/store/logo_store.ts";
import { noiseImage } from "../test/support/images.ts";

const count = Number(Deno.args[0] ?? 300);
const side = Number(Deno.args[1] ?? 256);
const dir = await Deno.makeTempDir({ prefix: "archive_bench_" });
let peakRss = 0;
const sample = () => peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
const timer = setInterval(sample, 20);
try {
  const source = await Deno.openKv(`${dir}/source.kv`);
  const logos = new LogoStore(source);
  for (let i = 0; i < count; i++) {
    await logos.put(`logo${i}.example.com`, noiseImage(side, side, i + 1), { source: "bench" });
  }
  const storeBytes = (await Deno.stat(`${dir}/source.kv`)).size;
  sample();
  const rssBefore = peakRss;

  let started = performance.now();
  const file = await Deno.open(`${dir}/backup.ndjson.gz`, { write: true, create: true });
  await writeArchive(source, file.writable);
  const exportMs = performance.now() - started;
  source.close();
  const archiveBytes = (await Deno.stat(`${dir}/backup.ndjson.gz`)).size;

  const target = await Deno.openKv(`${dir}/target.kv`);
  started = performance.now();
  const result = await importArchive(
    target,
    async () => (await Deno.open(`${dir}/backup.ndjson.gz`)).readable,
    { replace: false },
  );
  const importMs = performance.now() - started;
  target.close();
  sample();

  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(`logos: ${count} (${side}×${side} noise); store file ${mb(storeBytes)} MiB`);
  console.log(
    `archive: ${mb(archiveBytes)} MiB, ${Math.round(archiveBytes / count / 1024)} KiB/logo`,
  );
  console.log(
    `export: ${(exportMs / 1000).toFixed(2)} s, ${Math.round(count / exportMs * 1000)} logos/s`,
  );
  console.log(
    `import (verify + write): ${(importMs / 1000).toFixed(2)} s, ` +
      `${Math.round(count / importMs * 1000)} logos/s (added ${result.logos.added})`,
  );
  console.log(
    `peak RSS: ${mb(peakRss)} MiB (${mb(rssBefore)} MiB after filling the store, before export)`,
  );
} finally {
  clearInterval(timer);
  await Deno.remove(dir, { recursive: true });
}
