/**
 * `deno task bench:memory`: does the server's memory stay within its budgets? Serves N distinct
 * domains at three sizes from the real server and prints its RSS and where the memory is.
 *
 * 1. A store of N logos (bench/support/memory_store.ts: written through `LogoStore.put`, kept in
 *    `~/.cache/logo-lookup/`), copied to a temporary directory.
 * 2. The real `src/main.ts` with `deno task start`'s permissions and V8 flags, discovery off,
 *    `--inspect` on loopback (to force a full GC) and `/metrics` on (to read
 *    `logo_memory_bytes{part}`): bench/support/memory_server.ts.
 * 3. Baseline: RSS after start-up and one request at each size (so each render worker has
 *    rendered once).
 * 4. Load: every domain at every size, once each (or `--repeat` times in a row), in a seeded
 *    random order, over keep-alive
 *    connections (bench/support/keepalive_load.ts). Then: RSS after the load; once the client has
 *    closed its connections, with nothing forced; and after a full GC. Memory by part comes from
 *    `logo_memory_bytes{part}` (src/server/memory_figures.ts); "anon" and "file" split RSS into
 *    anonymous memory and file pages (the deno binary's code, mostly).
 *
 * The target (issue 17): RSS after the load within 1.5 × (cache budgets + baseline), and back
 * there after it. The cache budgets are the variant cache's, the source cache's and the record
 * cache's bytes (`LOGO_RECORD_CACHE_MB`; a server from before that setting printed none, and its
 * records lived 5 s: counted 0). The ratio to the two image budgets alone, the measure before the
 * record cache kept records for longer, is printed beside it.
 *
 * Flags:
 *   --count N            domains (default 10000)
 *   --seed N             seed of the logo set (default 1)
 *   --sizes A,B,C        sizes requested for every domain (default 128,64,300: the stored default
 *                        rendition, a render from it, a render from the source rendition)
 *   --repeat N           ask for each domain and size N times in a row (default 1); with 2, every
 *                        cached variant has been answered twice, so it holds its prepared
 *                        response's copy of its bytes (src/http/respond.ts): the worst case the
 *                        variant cache's budget counts
 *   --connections N      keep-alive connections (default 16)
 *   --heap-snapshot P    write a heap snapshot of the serving isolate to P after the last GC
 *   --malloc-trim        experiment: also call glibc's malloc_trim(0) in the server when idle
 *                        (runs it with --allow-ffi, which `deno task start` does not grant)
 *   --root DIR           serve with DIR/src/main.ts (an export of another commit, for a "before":
 *                        `git archive COMMIT | tar -x -C DIR`); default this checkout
 *
 * Settings of the server (LOGO_RENDER_WORKERS, LOGO_VARIANT_CACHE_MB …) pass through from this
 * process's environment (so does MALLOC_ARENA_MAX, read by glibc). Exit status 1 when an answer
 * is neither a 200 nor a 503 (the render queue shedding load on a busy machine).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { memoryStore } from "./support/memory_store.ts";
import { type MemorySample, MemoryServer } from "./support/memory_server.ts";
import { KeepAliveLoad } from "./support/keepalive_load.ts";
import { seededRandom } from "./support/growth_logos.ts";
import { printTable, wholeNumber } from "./support/bench_cli.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    count: { type: "string", default: "10000" },
    seed: { type: "string", default: "1" },
    sizes: { type: "string", default: "128,64,300" },
    repeat: { type: "string", default: "1" },
    connections: { type: "string", default: "16" },
    "heap-snapshot": { type: "string" },
    root: { type: "string" },
    "malloc-trim": { type: "boolean", default: false },
  },
  strict: true,
});

const count = wholeNumber("count", values.count, 1);
const seed = wholeNumber("seed", values.seed, 0);
const sizes = values.sizes.split(",").map((s) => wholeNumber("sizes", s, 1));
const repeat = wholeNumber("repeat", values.repeat, 1);
const connections = wholeNumber("connections", values.connections, 1);
const MiB = 1024 * 1024;
const mib = (n: number | undefined) => (n === undefined ? "—" : (n / MiB).toFixed(1));
const loadAverage = () => Deno.loadavg().map((n) => n.toFixed(2)).join(" ");

console.log(
  `memory: ${count} domains × sizes ${sizes.join(", ")}${
    repeat > 1 ? ` × ${repeat} in a row` : ""
  }, ` +
    `${connections} connections, ` +
    `${navigator.hardwareConcurrency} cores, load average ${loadAverage()}`,
);
const store = await memoryStore({
  seed,
  count,
  progress: (done) => console.log(`  building the store: ${done}/${count}`),
});
console.log(
  `store: ${store.path} (${
    store.builtMs > 0 ? `built in ${(store.builtMs / 1000).toFixed(0)} s` : "cached"
  })`,
);
const dir = await Deno.makeTempDir({ prefix: "logo-lookup-memory-" });
const kvPath = join(dir, "store.kv");
await Deno.copyFile(store.path, kvPath);

const path = (domain: string, size: number) =>
  `/${domain}?token=${store.token}${size === 128 ? "" : `&size=${size}`}`;
let server: MemoryServer | undefined;
let failed = false;
try {
  server = await MemoryServer.start(
    { LOGO_KV: kvPath },
    values.root,
    values["malloc-trim"] ? ["--allow-ffi"] : [],
  );
  // main.ts prints its budgets just after the "listening" line that `start` waits for: give the
  // line a second to arrive (a loaded machine read the defaults' fallback below in its place).
  const hasBudgets = () => server!.printed.some((line) => line.startsWith("Cache budgets:"));
  for (let i = 0; i < 20 && !hasBudgets(); i++) await new Promise((r) => setTimeout(r, 50));
  // A server that does not print its budgets (before they were settings) has the defaults.
  const budgetLine = server.printed.find((line) => line.startsWith("Cache budgets:")) ??
    "Cache budgets: variants 64 MiB, sources 32 MiB.";
  const [variantBudget, sourceBudget] = [/variants ([\d.]+) MiB/, /sources ([\d.]+) MiB/]
    .map((pattern) => Number(pattern.exec(budgetLine)?.[1] ?? NaN) * MiB);
  const recordBudget = Number(/records ([\d.]+) MiB/.exec(budgetLine)?.[1] ?? 0) * MiB;
  for (const line of server.printed.filter((l) => /^(Cache budgets|Render)/.test(l))) {
    console.log(`server: ${line}`);
  }
  const rows: [string, MemorySample][] = [];
  const load = await KeepAliveLoad.open(server.port, connections);
  const first = await load.run(sizes.map((size) => path(store.domains[0], size)));
  rows.push(["baseline (started, 1 request per size)", await server.sample()]);

  const unique = store.domains.flatMap((domain) => sizes.map((size) => path(domain, size)));
  const random = seededRandom(seed);
  for (let i = unique.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [unique[i], unique[j]] = [unique[j], unique[i]];
  }
  const paths = unique.flatMap((p) => Array<string>(repeat).fill(p));
  console.log(`load: ${paths.length} requests (load average ${loadAverage()}) …`);
  const run = await load.run(paths);
  console.log(
    `  ${(paths.length / (run.wallMs / 1000)).toFixed(0)} req/s, statuses ${
      JSON.stringify(run.statuses)
    }, ${mib(run.bodyBytes)} MiB of bodies (load average ${loadAverage()})`,
  );
  const loadEnded = performance.now();
  // A 503 (render queue full or render past its deadline, with Retry-After) is the server
  // shedding load on a busy machine; anything else but a 200 is a failure.
  failed = Object.keys({ ...first.statuses, ...run.statuses }).some((s) => !/^(200|503)$/.test(s));
  rows.push(["after the load", await server.sample()]);
  // Idle: nothing forced, what the server gives back by itself (V8's memory reducer, caches).
  load.close();
  const idleMs = performance.now() - loadEnded;
  rows.push([
    `idle (connections closed; ${(idleMs / 1000).toFixed(1)} s after the load)`,
    await server.sample(),
  ]);
  await server.collectGarbage();
  rows.push(["idle + full GC", await server.sample()]);
  if (values["heap-snapshot"]) {
    await server.heapSnapshot(values["heap-snapshot"]);
    console.log(`heap snapshot: ${values["heap-snapshot"]}`);
  }
  if (values["malloc-trim"]) {
    await server.mallocTrim();
    rows.push(["idle + full GC + malloc_trim(0)", await server.sample()]);
  }

  const baseline = rows[0][1].rss;
  const budgets = variantBudget + sourceBudget + recordBudget;
  const allowed = budgets + baseline;
  const imageAllowed = variantBudget + sourceBudget + baseline;
  const partNames = [...new Set(rows.flatMap(([, s]) => Object.keys(s.parts)))];
  console.log(
    `\nMemory, MiB (cache budgets ${mib(budgets)}: variants ${mib(variantBudget)}, ` +
      `sources ${mib(sourceBudget)}, records ${mib(recordBudget)}; baseline RSS ${
        mib(baseline)
      }; ` +
      `target: RSS ≤ 1.5 × (budgets + baseline) = ${mib(1.5 * allowed)}; ` +
      `load average ${loadAverage()})\n`,
  );
  const header = [
    "moment",
    "RSS",
    "RSS ÷ (budgets + baseline)",
    "RSS ÷ (image budgets + baseline)",
    "anon",
    "file",
    ...partNames,
  ];
  const table = rows.map(([name, s]) => [
    name,
    mib(s.rss),
    (s.rss / allowed).toFixed(2),
    (s.rss / imageAllowed).toFixed(2),
    mib(s.rssAnon),
    mib(s.rssFile),
    ...partNames.map((part) => mib(s.parts[part])),
  ]);
  printTable(header, table);
} catch (error) {
  // Said before the server is stopped, which may itself wait on what went wrong.
  console.error("memory benchmark failed:", error);
  Deno.exitCode = 1;
} finally {
  await server?.stop();
  await Deno.remove(dir, { recursive: true });
}
if (failed) {
  console.error("Unexpected: an answer was not a 200");
  Deno.exitCode = 1;
}
