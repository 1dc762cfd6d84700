/**
 * `deno task bench:growth`: how the store grows, and what a lookup costs when the caches miss.
 *
 * 1. Generates N distinct logo PNGs (256–1024 px wide, transparency, seeded; cached in
 *    `~/.cache/logo-lookup/` by seed and N: bench/support/growth_logos.ts).
 * 2. Imports them into an empty store with the real admin CLI (`logo import DIR`) and measures
 *    logos/s, the CLI's CPU time per logo, the store's bytes per logo by kind (walking the
 *    keyspace: bench/support/kv_footprint.ts) and on disk (the SQLite file after a checkpoint — the
 *    local store file, or the file the denokv server keeps).
 * 3. Serves the store (bench/support/growth_server.ts: `createApp` behind `serveConnections`, as
 *    `src/main.ts` does, with the given cache budgets) and runs wrk with each request for a domain
 *    drawn uniformly from the N (bench/support/random_domains.lua), at the default size and at
 *    a non-default one: req/s, p50/p99, server CPU per request, KV read calls per request, the
 *    variant cache's hit ratio, and the server's RSS after.
 *
 * Flags (environment variable in brackets):
 *   --count N            logos (GROWTH_COUNT, default 10000)
 *   --seed N             seed of the logo set (GROWTH_SEED, default 1)
 *   --store KIND         file, denokv or both (GROWTH_STORE, default file)
 *   --seconds N          seconds per lookup run (BENCH_SECONDS, default 10)
 *   --size N             the non-default size requested (default 64)
 *   --variant-cache-mb N[,N…] the server's rendered-variant budget; with several, the lookups
 *                        run once per budget, each on a fresh server (default: the server's, 64 MiB)
 *   --record-ttl-ms N    the server's logo-record cache TTL (default: the server's, 5000)
 *   --keep               keep the store directory (printed) instead of deleting it
 *
 * Needs wrk (`apt-get install wrk`) and, for `--store denokv`, denokv
 * (`cargo install denokv --locked`). Exit status 1 when an import fails or a lookup run answers
 * anything but 200.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { growthLogoSet } from "./support/growth_logos.ts";
import { runAdmin } from "./support/admin_run.ts";
import { type DenoKvServer, startDenoKv } from "./support/denokv_server.ts";
import { type KvFootprint, kvFootprint, sqliteFileSize } from "./support/kv_footprint.ts";
import { GrowthServer, type LookupRun, processCpuMs } from "./support/growth_lookups.ts";
import { hasWrk } from "./support/wrk.ts";
import { printGrowthReport, type StoreResult } from "./support/growth_report.ts";
import { wholeNumber } from "./support/bench_cli.ts";

const TOKEN = "growth-bench-denokv-access-token-0123456789";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    count: { type: "string", default: Deno.env.get("GROWTH_COUNT") ?? "10000" },
    seed: { type: "string", default: Deno.env.get("GROWTH_SEED") ?? "1" },
    store: { type: "string", default: Deno.env.get("GROWTH_STORE") ?? "file" },
    seconds: { type: "string", default: Deno.env.get("BENCH_SECONDS") ?? "10" },
    size: { type: "string", default: "64" },
    "variant-cache-mb": { type: "string" },
    "record-ttl-ms": { type: "string" },
    keep: { type: "boolean", default: false },
  },
  strict: true,
});

const count = wholeNumber("count", values.count, 1);
const seed = wholeNumber("seed", values.seed, 0);
const seconds = wholeNumber("seconds", values.seconds, 1);
const size = wholeNumber("size", values.size, 1);
const stores = values.store === "both" ? ["file", "denokv"] : [values.store];
if (!stores.every((s) => s === "file" || s === "denokv")) {
  console.error(`Invalid --store "${values.store}": expected file, denokv or both`);
  Deno.exit(2);
}
/** Variant-cache budgets to serve with, one server each (undefined: the server's default). */
const variantBudgets = values["variant-cache-mb"]?.split(",") ?? [undefined];
const ttlArgs = values["record-ttl-ms"] ? ["--record-ttl-ms", values["record-ttl-ms"]] : [];
if (!await hasWrk()) {
  console.error("wrk is not installed (Debian/Ubuntu: apt-get install wrk)");
  Deno.exit(1);
}

const loadAverage = () => Deno.loadavg().map((n) => n.toFixed(2)).join(" ");
console.log(
  `store growth: ${count} logos, seed ${seed}, stores ${stores.join(" + ")}, ` +
    `${seconds} s per lookup run, ${navigator.hardwareConcurrency} cores, load average ${loadAverage()}`,
);
const set = await growthLogoSet({
  seed,
  count,
  progress: (done) => console.log(`  generating logos: ${done}/${count}`),
});
console.log(
  `logo set: ${set.dir} (${(set.bytes / 1048576).toFixed(1)} MiB, ` +
    `${set.generatedMs > 0 ? `generated in ${(set.generatedMs / 1000).toFixed(1)} s` : "cached"})`,
);

/** Runs the whole measurement on one kind of store. */
async function measureStore(kind: string): Promise<StoreResult> {
  const dir = await Deno.makeTempDir({ prefix: `logo-lookup-growth-${kind}-` });
  const sqlitePath = join(dir, kind === "file" ? "growth.kv" : "denokv.sqlite");
  let engine: DenoKvServer | undefined;
  let server: GrowthServer | undefined;
  try {
    if (kind === "denokv") engine = await startDenoKv(sqlitePath, TOKEN);
    const env = (): Record<string, string> => ({
      LOGO_KV: engine?.url ?? sqlitePath,
      ...(engine ? { DENO_KV_ACCESS_TOKEN: TOKEN } : {}),
    });
    console.log(`\n[${kind}] importing ${count} logos with deno task admin logo import …`);
    let done = 0;
    const engineCpuBefore = engine ? processCpuMs(engine.pid) : NaN;
    const importRun = await runAdmin(["--init", "logo", "import", set.dir], env(), {
      onStderr: (line) => {
        if (!/^\[\s*\d+\/\d+\]/.test(line)) return;
        if (++done % Math.max(1, Math.round(count / 10)) === 0) {
          console.log(`  ${done}/${count} (load average ${loadAverage()})`);
        }
      },
    });
    if (importRun.code !== 0) {
      throw new Error(
        `logo import failed (${importRun.code}):\n${importRun.stderrTail.join("\n")}`,
      );
    }
    const importEngineCpuMs = engine ? processCpuMs(engine.pid) - engineCpuBefore : NaN;
    const imported = JSON.parse(importRun.stdout).imported as number;
    const created = await runAdmin(
      ["key", "create", "--limit", "1000000000", "--window", "60"],
      env(),
    );
    if (created.code !== 0) throw new Error(`key create failed:\n${created.stderrTail.join("\n")}`);
    const token = JSON.parse(created.stdout).publishableKey as string;

    if (engine) Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
    const kv = await Deno.openKv(env().LOGO_KV);
    let footprint: KvFootprint;
    try {
      footprint = await kvFootprint(kv);
    } finally {
      kv.close();
    }
    // The SQLite file is measured with nothing holding it: denokv is stopped, then started again.
    await engine?.stop();
    const disk = await sqliteFileSize(sqlitePath);
    if (engine) engine = await startDenoKv(sqlitePath, TOKEN);

    const lookups: { name: string; run: LookupRun }[] = [];
    let rss = 0;
    for (const budget of variantBudgets) {
      const args = [...(budget ? ["--variant-cache-mb", budget] : []), ...ttlArgs];
      server = await GrowthServer.start(env(), args);
      const mib = (server.variantCacheBytes / 1048576).toFixed(0);
      console.log(
        `[${kind}] serving: variant cache ${mib} MiB, record cache TTL ${server.recordTtlMs} ms, ` +
          `${server.renderWorkers} render workers; ` +
          "wrk 2 threads, 50 connections",
      );
      for (const [name, query] of [["default (128)", ""], [`size=${size}`, `&size=${size}`]]) {
        const run = await server.measure({
          token,
          seed,
          count,
          query,
          seconds,
          enginePid: engine?.pid,
        });
        console.log(`  ${name}: ${run.requestsPerSecond.toFixed(0)} req/s (load ${loadAverage()})`);
        lookups.push({ name: `${name}, ${mib} MiB`, run });
      }
      rss = (await server.stats()).rss;
      await server.stop();
      server = undefined;
    }
    return {
      kind,
      imported,
      importWallMs: importRun.wallMs,
      importCpuMs: importRun.cpuMs,
      importEngineCpuMs,
      footprint,
      disk,
      lookups,
      rss,
    };
  } finally {
    await server?.stop();
    await engine?.stop();
    if (values.keep) console.log(`[${kind}] store kept in ${dir}`);
    else await Deno.remove(dir, { recursive: true });
  }
}

const results: StoreResult[] = [];
for (const kind of stores) results.push(await measureStore(kind));
printGrowthReport(results, { count, sourceBytes: set.bytes, loadAverage: loadAverage() });
if (results.some((r) => r.imported !== count || r.lookups.some((l) => l.run.not200 > 0))) {
  console.error("Unexpected: a logo was not imported, or a lookup answered something but 200");
  Deno.exitCode = 1;
}
