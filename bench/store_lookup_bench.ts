/**
 * `deno task bench:lookup`: random-domain default requests when the catalogue is larger than the
 * caches — req/s and p99 on stores of 1,000, 30,000 and 100,000 logos, and the ratio to 1,000, on a
 * local KV file and on denokv (issue 17's "one KV read per miss", issue 16's lookup figures).
 *
 * 1. Builds each store directly (bench/support/lookup_store.ts: 200 generated logos rendered with
 *    the real recipe, made distinct per domain, written with `restoreLogo`; one record and its own
 *    blobs per logo, in the layout the current code writes). Importing 100,000 logos would take
 *    hours.
 * 2. For each kind of store, starts one server per store (bench/support/growth_server.ts: what
 *    `src/main.ts` serves — `createApp` behind `serveConnections`, default cache budgets, render
 *    pool — with counters); denokv serves the same SQLite file for the `denokv` rows.
 * 3. Runs wrk (2 threads, 50 connections) with each request the default logo (128 px PNG) of a
 *    domain drawn uniformly from the store's N (bench/support/random_domains.lua): a warm-up of
 *    `--warmup` seconds, not reported, then `--rounds` rounds of `--seconds`, the stores taking
 *    turns within a round so drifting machine load hits them alike.
 *
 * Prints, per store: req/s, p50, p99, server CPU µs per request, KV read calls per request, the
 * variant cache's hit ratio, the server's largest RSS after a round; then each store's req/s over that of the smallest store (target
 * ≥ 0.7 for 30,000 against 1,000).
 *
 * Flags: --counts 1000,30000,100000  --store file|denokv|both (default both)  --seconds 10
 *        --rounds 2  --warmup 3  --seed 7  --keep (keep the store directory, printed)
 *        --variant-cache-mb N  --record-cache-mb N (the servers' budgets; default the server's,
 *        64 and 32: LOGO_VARIANT_CACHE_MB and LOGO_RECORD_CACHE_MB of `src/main.ts`)
 * Needs wrk (`apt-get install wrk`) and, for denokv, denokv (`cargo install denokv --locked`).
 * Exit status 1 when a request is answered anything but 200.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { buildLookupStore } from "./support/lookup_store.ts";
import { type DenoKvServer, startDenoKv } from "./support/denokv_server.ts";
import { GrowthServer, type LookupRun } from "./support/growth_lookups.ts";
import { hasWrk } from "./support/wrk.ts";

const ACCESS_TOKEN = "lookup-bench-denokv-access-token-0123456789";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    counts: { type: "string", default: "1000,30000,100000" },
    store: { type: "string", default: "both" },
    seconds: { type: "string", default: Deno.env.get("BENCH_SECONDS") ?? "10" },
    rounds: { type: "string", default: "2" },
    warmup: { type: "string", default: "3" },
    seed: { type: "string", default: "7" },
    keep: { type: "boolean", default: false },
    "variant-cache-mb": { type: "string" },
    "record-cache-mb": { type: "string" },
  },
  strict: true,
});

function wholeNumbers(name: string, text: string, min: number): number[] {
  const numbers = text.split(",").map(Number);
  if (!numbers.every((n) => Number.isInteger(n) && n >= min)) {
    console.error(`Invalid --${name} "${text}": expected whole numbers of at least ${min}`);
    Deno.exit(2);
  }
  return numbers;
}

const counts = wholeNumbers("counts", values.counts, 1);
const [seconds] = wholeNumbers("seconds", values.seconds, 1);
const [rounds] = wholeNumbers("rounds", values.rounds, 1);
const [warmup] = wholeNumbers("warmup", values.warmup, 0);
const [seed] = wholeNumbers("seed", values.seed, 0);
const budgetArgs: string[] = [];
for (const name of ["variant-cache-mb", "record-cache-mb"] as const) {
  const value = values[name];
  if (value === undefined) continue;
  wholeNumbers(name, value, 0);
  budgetArgs.push(`--${name}`, value);
}
const kinds = values.store === "both" ? ["file", "denokv"] : [values.store];
if (!kinds.every((k) => k === "file" || k === "denokv")) {
  console.error(`Invalid --store "${values.store}": expected file, denokv or both`);
  Deno.exit(2);
}
if (!await hasWrk()) {
  console.error("wrk is not installed (Debian/Ubuntu: apt-get install wrk)");
  Deno.exit(1);
}

const load = () => Deno.loadavg().map((n) => n.toFixed(2)).join(" ");
console.log(
  `store lookups: stores of ${counts.join(", ")} logos, ${kinds.join(" + ")}, ` +
    `${rounds} × ${seconds} s per store after ${warmup} s of warm-up, ` +
    `server budgets ${budgetArgs.length > 0 ? budgetArgs.join(" ") : "default"}, ` +
    `${navigator.hardwareConcurrency} cores, load average ${load()}`,
);

const dir = await Deno.makeTempDir({ prefix: "logo-lookup-lookups-" });
const stores: { count: number; path: string; token: string }[] = [];
/** Every run, by store kind and count. */
const runs = new Map<string, LookupRun[]>();
let failed = false;
try {
  for (const count of counts) {
    const path = join(dir, `lookup-${count}.sqlite`);
    const built = await buildLookupStore(path, {
      seed,
      count,
      progress: (done) => console.log(`  ${count}: ${done} written (load ${load()})`),
    });
    console.log(
      `built ${count} logos in ${(built.writeMs / 1000).toFixed(1)} s ` +
        `(${built.logosPerSecond.toFixed(0)} logos/s; ${await fileMiB(path)} MiB on disk)`,
    );
    stores.push({ count, path, token: built.token });
  }
  for (const kind of kinds) {
    const engines: DenoKvServer[] = [];
    const servers: GrowthServer[] = [];
    try {
      for (const store of stores) {
        const engine = kind === "denokv" ? await startDenoKv(store.path, ACCESS_TOKEN) : undefined;
        if (engine) engines.push(engine);
        servers.push(
          await GrowthServer.start(
            engine ? { LOGO_KV: engine.url, DENO_KV_ACCESS_TOKEN: ACCESS_TOKEN } : {
              LOGO_KV: store.path,
            },
            budgetArgs,
          ),
        );
      }
      const measure = (i: number, secs: number) =>
        servers[i].measure({
          token: stores[i].token,
          seed,
          count: stores[i].count,
          query: "",
          seconds: secs,
          enginePid: engines[i]?.pid,
        });
      if (warmup > 0) { for (let i = 0; i < stores.length; i++) await measure(i, warmup); }
      for (let round = 1; round <= rounds; round++) {
        for (let i = 0; i < stores.length; i++) {
          const run = await measure(i, seconds);
          const key = `${kind} ${stores[i].count}`;
          runs.set(key, [...(runs.get(key) ?? []), run]);
          if (run.not200 > 0) failed = true;
          console.log(
            `  [${kind}] ${stores[i].count} logos, round ${round}: ` +
              `${run.requestsPerSecond.toFixed(0)} req/s, p99 ${run.p99Ms.toFixed(1)} ms ` +
              `(load ${load()})`,
          );
        }
      }
    } finally {
      for (const server of servers) await server.stop();
      for (const engine of engines) await engine.stop();
    }
  }
} finally {
  if (values.keep) console.log(`stores kept in ${dir}`);
  else await Deno.remove(dir, { recursive: true });
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`\nRandom-domain default requests (means of ${rounds} rounds; load ${load()}):\n`);
console.log(
  "| store  |   logos | req/s | p50 ms | p99 ms | server CPU µs/req | denokv CPU µs/req " +
    "| KV reads/req | variant cache hits | server RSS MiB | req/s ÷ smallest |",
);
console.log(
  "| ------ | ------: | ----: | -----: | -----: | ----------------: | ----------------: " +
    "| -----------: | -----------------: | -------------: | ---------------: |",
);
for (const kind of kinds) {
  const smallest = mean(runs.get(`${kind} ${counts[0]}`)!.map((r) => r.requestsPerSecond));
  for (const count of counts) {
    const rs = runs.get(`${kind} ${count}`)!;
    const rps = mean(rs.map((r) => r.requestsPerSecond));
    const engineCpu = mean(rs.map((r) => r.engineCpuUs));
    console.log(
      `| ${kind.padEnd(6)} | ${count.toLocaleString("en").padStart(7)} | ${rps.toFixed(0)} | ` +
        `${mean(rs.map((r) => r.p50Ms)).toFixed(1)} | ${
          mean(rs.map((r) => r.p99Ms)).toFixed(1)
        } | ` +
        `${mean(rs.map((r) => r.serverCpuUs)).toFixed(0)} | ` +
        `${Number.isNaN(engineCpu) ? "—" : engineCpu.toFixed(0)} | ` +
        `${mean(rs.map((r) => r.kvReadsPerRequest)).toFixed(2)} | ` +
        `${(mean(rs.map((r) => r.variantHitRatio)) * 100).toFixed(0)}% | ` +
        `${(Math.max(...rs.map((r) => r.rss)) / 1048576).toFixed(0)} | ` +
        `${(rps / smallest).toFixed(2)}× |`,
    );
  }
}
if (failed) {
  console.error("Unexpected: a lookup answered something but 200");
  Deno.exitCode = 1;
}

async function fileMiB(path: string): Promise<string> {
  let bytes = 0;
  for (const suffix of ["", "-wal"]) {
    bytes += await Deno.stat(path + suffix).then((s) => s.size, () => 0);
  }
  return (bytes / 1048576).toFixed(0);
}
