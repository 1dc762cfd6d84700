/**
 * `deno task bench:lookup`: default requests when the catalogue is larger than the caches — req/s,
 * p50, p99 and RSS on stores of 1,000, 30,000 and 100,000 logos, and the ratios to 1,000, on a
 * local KV file and on denokv, for two kinds of traffic: uniform (every domain alike: the worst
 * case; issue 17's "one KV read per miss", issue 16's lookup figures) and Zipf (s = 1.0: the
 * domain of popularity rank k asked for in proportion to 1/k, as real traffic is skewed; issue 34).
 *
 * 1. Builds each store directly (bench/support/lookup_store.ts: 200 generated logos rendered with
 *    the real recipe, made distinct per domain, written with `restoreLogo`; one record and its own
 *    blobs per logo, in the layout the current code writes). Importing 100,000 logos would take
 *    hours. With `--stores DIR` the stores are kept there and reused by the next run
 *    (bench/support/kept_lookup_store.ts).
 * 2. For each kind of store and each traffic, starts one fresh server per store
 *    (bench/support/growth_server.ts: what `src/main.ts` serves — `createApp` behind
 *    `serveConnections`, default cache budgets, render pool — with counters); denokv serves the
 *    same SQLite file for the `denokv` rows.
 * 3. Runs wrk (2 threads, 50 connections), each request the default logo (128 px PNG) of a
 *    domain drawn from the store's N: uniformly (bench/support/random_domains.lua), or from a
 *    seeded Zipf stream written to a file beforehand (bench/support/zipf_traffic.ts,
 *    bench/support/listed_domains.lua). A warm-up of `--warmup` seconds, not reported, then
 *    `--rounds` rounds of `--seconds`, the stores taking turns within a round so drifting machine
 *    load hits them alike. Each run goes on with new requests (`BENCH_RUN`: the Zipf list from
 *    further on, the uniform stream from another seed): a round that replayed the warm-up's
 *    requests would find in the caches whatever the warm-up left there.
 *
 * Prints, per traffic and store: req/s, p50, p99, server CPU µs per request, KV read calls and
 * keys read per request (a batched `getMany` is one call of several keys), the record cache's hit ratio (a default answer is kept with its record), the server's RSS at start (its baseline) and its largest
 * RSS after a round, against 1.5 × (cache budgets + baseline); then the ratios the targets use:
 * req/s ÷ that of the smallest store, and p99 ÷ that of the smallest store; and the smallest
 * store's server CPU per request ÷ this one's, the rate ratio the server's CPU alone predicts (the
 * steadier figure on a shared machine, where req/s follows what other processes leave).
 *
 * Flags: --counts 1000,30000,100000  --store file|denokv|both (default both)
 *        --traffic zipf,uniform (default both)  --zipf-s 1.0  --seconds 10  --rounds 2
 *        --warmup 5  --seed 7  --stores DIR (keep and reuse the stores there)
 *        --keep (keep the temporary store directory, printed)
 *        --variant-cache-mb N  --record-cache-mb N (the servers' budgets; default the server's,
 *        32 and 64: LOGO_VARIANT_CACHE_MB and LOGO_RECORD_CACHE_MB of `src/main.ts`)
 * Needs wrk (`apt-get install wrk`) and, for denokv, denokv (`cargo install denokv --locked`).
 * Exit status 1 when a request is answered anything but 200.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { buildLookupStore } from "./support/lookup_store.ts";
import { keptLookupStore } from "./support/kept_lookup_store.ts";
import { type DenoKvServer, startDenoKv } from "./support/denokv_server.ts";
import { GrowthServer, type LookupRun } from "./support/growth_lookups.ts";
import { hasWrk } from "./support/wrk.ts";
import { zipfIndices, zipfShare } from "./support/zipf_traffic.ts";
import { DEFAULT_SOURCE_CACHE_BYTES } from "../src/http/render_variant.ts";

const ACCESS_TOKEN = "lookup-bench-denokv-access-token-0123456789";
const LISTED = new URL("./support/listed_domains.lua", import.meta.url).pathname;
const UNIFORM = new URL("./support/random_domains.lua", import.meta.url).pathname;
/** Indices in each Zipf request list (each of wrk's 2 threads starts half of it away). */
const ZIPF_LIST_LENGTH = 2_000_000;
/** Indices a thread moves on per run: more than one thread asks for in a run of 10 s. */
const ZIPF_RUN_STRIDE = 150_000;

const { values } = parseArgs({
  args: Deno.args,
  options: {
    counts: { type: "string", default: "1000,30000,100000" },
    store: { type: "string", default: "both" },
    traffic: { type: "string", default: "zipf,uniform" },
    "zipf-s": { type: "string", default: "1.0" },
    seconds: { type: "string", default: Deno.env.get("BENCH_SECONDS") ?? "10" },
    rounds: { type: "string", default: "2" },
    warmup: { type: "string", default: "5" },
    seed: { type: "string", default: "7" },
    stores: { type: "string" },
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
const zipfS = Number(values["zipf-s"]);
if (!(zipfS >= 0)) {
  console.error(`Invalid --zipf-s "${values["zipf-s"]}": expected a number ≥ 0`);
  Deno.exit(2);
}
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
const traffics = values.traffic.split(",");
if (!traffics.every((t) => t === "zipf" || t === "uniform")) {
  console.error(`Invalid --traffic "${values.traffic}": expected zipf, uniform or both, by commas`);
  Deno.exit(2);
}
if (!await hasWrk()) {
  console.error("wrk is not installed (Debian/Ubuntu: apt-get install wrk)");
  Deno.exit(1);
}

const load = () => Deno.loadavg().map((n) => n.toFixed(2)).join(" ");
const trafficName = (t: string) => t === "zipf" ? `Zipf s=${zipfS}` : "uniform";
console.log(
  `store lookups: stores of ${counts.join(", ")} logos, ${kinds.join(" + ")}, ` +
    `${traffics.map(trafficName).join(" + ")} traffic, ` +
    `${rounds} × ${seconds} s per store after ${warmup} s of warm-up, ` +
    `server budgets ${budgetArgs.length > 0 ? budgetArgs.join(" ") : "default"}, ` +
    `${navigator.hardwareConcurrency} cores, load average ${load()}`,
);
if (traffics.includes("zipf")) {
  for (const count of counts) {
    const share = (top: number) => `${(zipfShare(count, zipfS, top) * 100).toFixed(0)}%`;
    console.log(
      `  Zipf over ${count}: the top 1,000 take ${share(1000)} of requests, ` +
        `the top 5,000 ${share(5000)}, the top 10,000 ${share(10_000)}`,
    );
  }
}

const dir = await Deno.makeTempDir({ prefix: "logo-lookup-lookups-" });
const stores: { count: number; path: string; token: string; list: string }[] = [];
/** Every run, by traffic, store kind and count. */
const runs = new Map<string, LookupRun[]>();
/** Each server's RSS once started, before any load, by the same key. */
const baselines = new Map<string, number[]>();
let budgetBytes = 0;
let failed = false;
try {
  for (const count of counts) {
    const progress = (done: number) => console.log(`  ${count}: ${done} written (load ${load()})`);
    const store = values.stores === undefined
      ? { path: join(dir, `lookup-${count}.sqlite`), ...await buildOne(count, progress) }
      : await keptLookupStore(values.stores, { seed, count, progress });
    if (store.built) {
      console.log(
        `built ${count} logos in ${(store.built.writeMs / 1000).toFixed(1)} s ` +
          `(${store.built.logosPerSecond.toFixed(0)} logos/s; ${await fileMiB(
            store.path,
          )} MiB on disk)`,
      );
    } else console.log(`reused the store of ${count} logos in ${store.path}`);
    const list = join(dir, `zipf-${count}.txt`);
    if (traffics.includes("zipf")) {
      const indices = zipfIndices({ count, s: zipfS, seed, length: ZIPF_LIST_LENGTH });
      await Deno.writeTextFile(list, indices.join("\n") + "\n");
    }
    stores.push({ count, path: store.path, token: store.token, list });
  }
  for (const kind of kinds) {
    for (const traffic of traffics) {
      const engines: DenoKvServer[] = [];
      const servers: GrowthServer[] = [];
      try {
        for (const store of stores) {
          const engine = kind === "denokv"
            ? await startDenoKv(store.path, ACCESS_TOKEN)
            : undefined;
          if (engine) engines.push(engine);
          const server = await GrowthServer.start(
            engine ? { LOGO_KV: engine.url, DENO_KV_ACCESS_TOKEN: ACCESS_TOKEN } : {
              LOGO_KV: store.path,
            },
            budgetArgs,
          );
          servers.push(server);
          budgetBytes = server.variantCacheBytes + server.logoCacheBytes +
            DEFAULT_SOURCE_CACHE_BYTES;
          const key = `${traffic} ${kind} ${store.count}`;
          baselines.set(key, [...(baselines.get(key) ?? []), (await server.stats()).rss]);
        }
        // Each run of a server goes on with new requests: the warm-up is 0, the rounds 1, 2…
        const runsOf = servers.map(() => 0);
        const measure = (i: number, secs: number) =>
          servers[i].measure({
            token: stores[i].token,
            seed,
            count: stores[i].count,
            query: "",
            seconds: secs,
            enginePid: engines[i]?.pid,
            traffic: traffic === "zipf"
              ? {
                script: LISTED,
                env: {
                  BENCH_LIST: stores[i].list,
                  BENCH_RUN: String(runsOf[i]++),
                  BENCH_STRIDE: String(ZIPF_RUN_STRIDE),
                },
              }
              : { script: UNIFORM, env: { BENCH_RUN: String(runsOf[i]++) } },
          });
        if (warmup > 0) { for (let i = 0; i < stores.length; i++) await measure(i, warmup); }
        for (let round = 1; round <= rounds; round++) {
          for (let i = 0; i < stores.length; i++) {
            const run = await measure(i, seconds);
            const key = `${traffic} ${kind} ${stores[i].count}`;
            runs.set(key, [...(runs.get(key) ?? []), run]);
            if (run.not200 > 0) failed = true;
            console.log(
              `  [${kind}, ${trafficName(traffic)}] ${stores[i].count} logos, round ${round}: ` +
                `${run.requestsPerSecond.toFixed(0)} req/s, p99 ${run.p99Ms.toFixed(1)} ms, ` +
                `RSS ${(run.rss / 1048576).toFixed(0)} MiB (load ${load()})`,
            );
          }
        }
      } finally {
        for (const server of servers) await server.stop();
        for (const engine of engines) await engine.stop();
      }
    }
  }
} finally {
  if (values.keep) console.log(`stores kept in ${dir}`);
  else await Deno.remove(dir, { recursive: true });
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const MiB = 1048576;
console.log(
  `\nDefault requests (means of ${rounds} rounds; load ${load()}; budgets ` +
    `${(budgetBytes / MiB).toFixed(0)} MiB in all; RSS bound 1.5 × (budgets + baseline)):`,
);
for (const traffic of traffics) {
  console.log(`\n${trafficName(traffic)} traffic:\n`);
  console.log(
    "| store  |   logos | req/s | p50 ms | p99 ms | server CPU µs/req | denokv CPU µs/req " +
      "| KV reads/req | KV keys/req | record cache hits | RSS at start MiB | RSS after MiB | RSS ÷ bound " +
      "| req/s ÷ smallest | p99 ÷ smallest | smallest's CPU/req ÷ this |",
  );
  console.log(
    "| ------ | ------: | ----: | -----: | -----: | ----------------: | ----------------: " +
      "| -----------: | ----------: | -----------------: | ---------------: | ------------: | ----------: " +
      "| ---------------: | -------------: | ------------------------: |",
  );
  for (const kind of kinds) {
    const first = runs.get(`${traffic} ${kind} ${counts[0]}`)!;
    const smallestRps = mean(first.map((r) => r.requestsPerSecond));
    const smallestP99 = mean(first.map((r) => r.p99Ms));
    const smallestCpu = mean(first.map((r) => r.serverCpuUs));
    for (const count of counts) {
      const key = `${traffic} ${kind} ${count}`;
      const rs = runs.get(key)!;
      const rps = mean(rs.map((r) => r.requestsPerSecond));
      const p99 = mean(rs.map((r) => r.p99Ms));
      const engineCpu = mean(rs.map((r) => r.engineCpuUs));
      const baseline = Math.max(...baselines.get(key)!);
      const rss = Math.max(...rs.map((r) => r.rss));
      console.log(
        `| ${kind.padEnd(6)} | ${count.toLocaleString("en").padStart(7)} | ${rps.toFixed(0)} | ` +
          `${mean(rs.map((r) => r.p50Ms)).toFixed(1)} | ${p99.toFixed(1)} | ` +
          `${mean(rs.map((r) => r.serverCpuUs)).toFixed(0)} | ` +
          `${Number.isNaN(engineCpu) ? "—" : engineCpu.toFixed(0)} | ` +
          `${mean(rs.map((r) => r.kvReadsPerRequest)).toFixed(2)} | ` +
          `${mean(rs.map((r) => r.kvKeysPerRequest)).toFixed(2)} | ` +
          `${(mean(rs.map((r) => r.recordHitRatio)) * 100).toFixed(0)}% | ` +
          `${(baseline / MiB).toFixed(0)} | ${(rss / MiB).toFixed(0)} | ` +
          `${(rss / (1.5 * (budgetBytes + baseline))).toFixed(2)} | ` +
          `${(rps / smallestRps).toFixed(2)}× | ${(p99 / smallestP99).toFixed(2)}× | ` +
          `${(smallestCpu / mean(rs.map((r) => r.serverCpuUs))).toFixed(2)}× |`,
      );
    }
  }
}
if (failed) {
  console.error("Unexpected: a lookup answered something but 200");
  Deno.exitCode = 1;
}

async function buildOne(count: number, progress: (done: number) => void) {
  const built = await buildLookupStore(join(dir, `lookup-${count}.sqlite`), {
    seed,
    count,
    progress,
  });
  return { token: built.token, built };
}

async function fileMiB(path: string): Promise<string> {
  let bytes = 0;
  for (const suffix of ["", "-wal"]) {
    bytes += await Deno.stat(path + suffix).then((s) => s.size, () => 0);
  }
  return (bytes / 1048576).toFixed(0);
}
