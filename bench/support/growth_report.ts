/**
 * The store-growth benchmark's tables: import, bytes by kind, disk, lookups, and the straight-line
 * extrapolation of the per-logo figures to 100k and 1M logos.
 *
 * @example
 * ```ts
 * import { printGrowthReport, type StoreResult } from "./growth_report.ts";
 * const results: StoreResult[] = []; // one per store measured
 * printGrowthReport(results, { count: 1000, sourceBytes: 0, loadAverage: "0.50 0.40 0.30" });
 * ```
 * @module
 */
import type { KvFootprint, SqliteFileSize } from "./kv_footprint.ts";
import type { LookupRun } from "./growth_lookups.ts";
import { printTable } from "./bench_cli.ts";

/** Everything measured on one store. */
export interface StoreResult {
  /** `file` or `denokv`. */
  kind: string;
  /** Logos the import reported as imported. */
  imported: number;
  /** Wall-clock time of the import, ms. */
  importWallMs: number;
  /** CPU time of the admin CLI during the import, ms. */
  importCpuMs: number;
  /** CPU time of the denokv server during the import, ms; NaN for a local file. */
  importEngineCpuMs: number;
  /** The keyspace walk. */
  footprint: KvFootprint;
  /** The SQLite file. */
  disk: SqliteFileSize;
  /** The lookup runs. */
  lookups: { name: string; run: LookupRun }[];
  /** Server RSS after the lookup runs, bytes. */
  rss: number;
}

const KB = (n: number) => (n / 1000).toFixed(1);
const MB = (n: number) => (n / 1e6).toFixed(0);
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

/** Prints the report of every store measured. */
export function printGrowthReport(
  results: StoreResult[],
  context: { count: number; sourceBytes: number; loadAverage: string },
): void {
  const { count } = context;
  console.log(
    `\nStore growth, ${count} logos (sources ${MB(context.sourceBytes)} MB, ` +
      `${
        KB(context.sourceBytes / count)
      } KB per logo); load average at the end ${context.loadAverage}\n`,
  );
  printTable(
    [
      "store",
      "imported",
      "wall s",
      "logos/s",
      "CLI CPU ms/logo",
      "denokv CPU ms/logo",
      "KV KB/logo",
      "disk KB/logo",
    ],
    results.map((r) => [
      r.kind,
      String(r.imported),
      fixed(r.importWallMs / 1000),
      fixed(count / (r.importWallMs / 1000)),
      fixed(r.importCpuMs / count),
      fixed(r.importEngineCpuMs / count),
      KB((r.footprint.total.keyBytes + r.footprint.total.valueBytes) / count),
      KB(r.disk.bytes / count),
    ]),
  );
  console.log(
    "\nKV bytes per logo by kind (keys and values as KV encodes them; walk of the keyspace):\n",
  );
  const first = results[0];
  const kinds = Object.keys(first?.footprint.kinds ?? {}).sort();
  printTable(
    ["kind", "entries/logo", "key B/logo", "value B/logo", "KB/logo", "share"],
    [...kinds, "total"].map((kind) => {
      const k = kind === "total" ? first.footprint.total : first.footprint.kinds[kind];
      const total = first.footprint.total.keyBytes + first.footprint.total.valueBytes;
      return [
        kind,
        fixed(k.entries / count, 2),
        fixed(k.keyBytes / count, 0),
        fixed(k.valueBytes / count, 0),
        KB((k.keyBytes + k.valueBytes) / count),
        `${fixed((100 * (k.keyBytes + k.valueBytes)) / total, 0)}%`,
      ];
    }),
  );
  console.log("\nSQLite file after a checkpoint:\n");
  printTable(
    [
      "store",
      "before checkpoint MB",
      "file MB",
      "pages",
      "free pages",
      "kv rows",
      "SQLite k+v MB",
      "walk k+v MB",
    ],
    results.map((r) => [
      r.kind,
      MB(r.disk.beforeCheckpoint),
      MB(r.disk.bytes),
      String(r.disk.pages),
      String(r.disk.freePages),
      String(r.disk.rows),
      MB(r.disk.keyBytes + r.disk.valueBytes),
      MB(r.footprint.total.keyBytes + r.footprint.total.valueBytes),
    ]),
  );
  console.log(
    `\nRandom-domain lookups (uniform over the ${count} domains; wrk 2 threads, 50 connections):\n`,
  );
  printTable(
    [
      "store",
      "request",
      "req/s",
      "p50 ms",
      "p99 ms",
      "server CPU µs/req",
      "denokv CPU µs/req",
      "KV reads/req",
      "variant hits",
      "non-200",
      "RSS MB after",
    ],
    results.flatMap((r) =>
      r.lookups.map(({ name, run }) => [
        r.kind,
        name,
        fixed(run.requestsPerSecond, 0),
        fixed(run.p50Ms, 2),
        fixed(run.p99Ms, 2),
        fixed(run.serverCpuUs, 0),
        fixed(run.engineCpuUs, 0),
        fixed(run.kvReadsPerRequest, 2),
        `${fixed(100 * run.variantHitRatio, 0)}%`,
        String(run.not200 + run.socketErrors),
        MB(run.rss),
      ])
    ),
  );
  console.log("\nStraight-line extrapolation of the per-logo figures (one import process):\n");
  printTable(
    ["store", "logos", "import hours", "disk GB", "KV GB"],
    results.flatMap((r) =>
      [100_000, 1_000_000].map((n) => [
        r.kind,
        String(n),
        fixed((n / (count / (r.importWallMs / 1000))) / 3600, 1),
        fixed((r.disk.bytes / count) * n / 1e9, 1),
        fixed(((r.footprint.total.keyBytes + r.footprint.total.valueBytes) / count) * n / 1e9, 1),
      ])
    ),
  );
}
