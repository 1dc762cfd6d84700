/**
 * `deno task bench:import`: what `logo import` costs, per logo — speed, CPU and stored bytes.
 *
 * 1. Generates (or reuses) N logo PNGs, 256–1024 px wide with transparency (the store-growth
 *    benchmark's set, bench/support/growth_logos.ts).
 * 2. Imports them into an empty KV file with the real admin CLI (`logo import DIR`): logos/s and
 *    the CLI's CPU ms per logo (every thread: the image workers included).
 * 3. Walks the keyspace (bench/support/kv_footprint.ts) and prints the KB stored per logo, split by
 *    rendition (the rendition's own bytes) and KV overhead (keys, blob manifests, the records),
 *    and the SQLite file per logo after a checkpoint.
 * 4. Runs the same import again on the full store (the resume path: every logo unchanged) and
 *    `logo rerender --all` (every logo re-rendered from its stored source), with their logos/s.
 *
 * Flags (environment variable in brackets):
 *   --count N   logos (IMPORT_COUNT, default 10000)
 *   --seed N    seed of the logo set (GROWTH_SEED, default 1)
 *   --keep      keep the store directory (printed) instead of deleting it
 *
 * Exit status 1 when a run fails or does not account for every logo.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { growthLogoSet } from "./support/growth_logos.ts";
import { type AdminRun, runAdmin } from "./support/admin_run.ts";
import { kvFootprint, sqliteFileSize } from "./support/kv_footprint.ts";
import type { LogoRecord } from "../src/store/logo_store.ts";
import { LOGOS_PREFIX } from "../src/store/keyspace.ts";
import { printTable, wholeNumber } from "./support/bench_cli.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    count: { type: "string", default: Deno.env.get("IMPORT_COUNT") ?? "10000" },
    seed: { type: "string", default: Deno.env.get("GROWTH_SEED") ?? "1" },
    keep: { type: "boolean", default: false },
  },
  strict: true,
});

const count = wholeNumber("count", values.count, 1);
const seed = wholeNumber("seed", values.seed, 0);
const loadAverage = () => Deno.loadavg().map((n) => n.toFixed(2)).join(" ");
const KB = (n: number) => (n / 1000).toFixed(1);

console.log(
  `import: ${count} logos, seed ${seed}, ${navigator.hardwareConcurrency} cores, ` +
    `load average ${loadAverage()}`,
);
const set = await growthLogoSet({
  seed,
  count,
  progress: (done) => console.log(`  generating logos: ${done}/${count}`),
});
console.log(`logo set: ${set.dir} (${KB(set.bytes / count)} KB per source file)`);

const dir = await Deno.makeTempDir({ prefix: "logo-lookup-import-" });
const kvPath = join(dir, "import.kv");
const env = { LOGO_KV: kvPath };

/** Runs the CLI, printing a tenth of its progress lines; throws unless it exits 0. */
async function run(name: string, args: string[]): Promise<AdminRun> {
  let done = 0;
  let last = "";
  const result = await runAdmin(args, env, {
    onStderr: (line) => {
      if (!/^\[\s*\d+\/\d+\]/.test(line)) return;
      last = line;
      if (++done % Math.max(1, Math.round(count / 10)) === 0) {
        console.log(`  ${line} (load average ${loadAverage()})`);
      }
    },
  });
  if (result.code !== 0) {
    throw new Error(`${name} failed (${result.code}):\n${result.stderrTail.join("\n")}`);
  }
  if (done !== count) {
    throw new Error(`${name}: ${done} progress lines for ${count} logos: ${last}`);
  }
  return result;
}

function rate(name: string, result: AdminRun): string[] {
  return [
    name,
    (result.wallMs / 1000).toFixed(1),
    (count / (result.wallMs / 1000)).toFixed(1),
    (result.cpuMs / count).toFixed(1),
  ];
}

try {
  console.log(`\nlogo import of ${count} logos into an empty store …`);
  const first = await run("import", ["--init", "logo", "import", set.dir]);
  const summary = JSON.parse(first.stdout);
  if (summary.imported !== count) throw new Error(`imported ${summary.imported} of ${count}`);

  const kv = await Deno.openKv(kvPath);
  /** Bytes of each rendition's own image data, and how many logos have it. */
  const payload: Record<string, { logos: number; bytes: number; width: number }> = {};
  let footprint;
  try {
    for await (const entry of kv.list<LogoRecord>({ prefix: LOGOS_PREFIX }, { batchSize: 500 })) {
      for (const [name, rendition] of Object.entries(entry.value.renditions)) {
        const p = payload[name] ??= { logos: 0, bytes: 0, width: 0 };
        p.logos++;
        p.bytes += rendition.bytes;
        p.width += rendition.width;
      }
    }
    footprint = await kvFootprint(kv);
  } finally {
    kv.close();
  }
  const disk = await sqliteFileSize(kvPath);

  console.log(`\nresume: the same import again (every logo stored) …`);
  const again = await run("resume", ["logo", "import", set.dir]);
  const resumed = JSON.parse(again.stdout);
  if (resumed.unchanged !== count) throw new Error(`resume: ${resumed.unchanged} unchanged`);

  console.log(`\nlogo rerender --all …`);
  const rerender = await runAdmin(["logo", "rerender", "--all"], env);
  const rerendered = rerender.code === 0;
  if (!rerendered) console.log(`  not available (exit ${rerender.code})`);

  console.log(
    `\nImport of ${count} generated logos (${KB(set.bytes / count)} KB per source file); ` +
      `load average at the end ${loadAverage()}\n`,
  );
  printTable(["run", "wall s", "logos/s", "CPU ms/logo"], [
    rate("import (empty store)", first),
    rate("import again (all stored)", again),
    ...(rerendered ? [rate("rerender --all", rerender)] : []),
  ]);

  console.log("\nStored bytes per logo (KV keys and values as KV encodes them):\n");
  const total = footprint.total.keyBytes + footprint.total.valueBytes;
  let images = 0;
  const rows = Object.entries(payload).sort().map(([name, p]) => {
    images += p.bytes;
    return [
      name,
      `${p.logos}`,
      (p.width / p.logos).toFixed(0),
      KB(p.bytes / p.logos),
      KB(p.bytes / count),
    ];
  });
  printTable(["rendition", "logos with it", "avg width px", "KB when present", "KB/logo"], [
    ...rows,
    ["KV overhead (keys, manifests, records)", "", "", "", KB((total - images) / count)],
    ["total in KV", "", "", "", KB(total / count)],
    ["SQLite file after checkpoint", "", "", "", KB(disk.bytes / count)],
  ]);
  console.log(`\nKV overhead: ${(100 * (total - images) / images).toFixed(0)} % of the images`);
} finally {
  if (values.keep) console.log(`store kept in ${dir}`);
  else await Deno.remove(dir, { recursive: true });
}
