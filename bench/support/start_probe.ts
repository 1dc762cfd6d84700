/**
 * The child process of `bench/serve_bench.ts`'s cold-start breakdown: started like
 * `deno task start` (same permissions, `--config deno.json`, the start task's environment) but with
 * no static import, so the time to its first line is Deno's own start-up, and everything after is
 * timed from inside. Prints one line `PROBE {json}` on stdout; times are epoch ms
 * (`performance.timeOrigin + performance.now()`, the clock the parent reads too) or durations in ms.
 *
 * Modes (`deno run … start_probe.ts MODE [ARG…]`):
 *
 * - `imports SPEC…` — imports each specifier in turn (a bare specifier of deno.json's import map
 *   such as `prom-client`, or a repository path such as `src/http/app.ts`) and times each import
 *   (loading, compiling and evaluating what it adds to the module graph);
 * - `store` — imports `src/store/open_kv.ts` and `src/store/seed.ts`, then times `openKv(LOGO_KV)`
 *   and `seedIfEmpty(kv)` (on a seeded store: the seed check);
 * - `start` — imports `src/main.ts` and runs its `main()` (as `deno task start` does), timing the
 *   import, `Deno.openKv` and `Deno.serve` inside it (the socket listens when `Deno.serve`
 *   returns), and the "listening on" line; exits at that line;
 * - `profile` — as `start`, under V8's CPU profiler (`node:inspector`, sampling every
 *   {@link SAMPLING_US} µs): self time by source (npm package, repository folder, Deno, op) while
 *   `src/main.ts` is imported, and by function (inclusive; the repository's functions and ops)
 *   from `main()` to listening. The profiler slows what it watches: read shares, not durations;
 * - `wasm COUNT` — times `startRenderPool(COUNT)`: the call itself (it creates the worker threads
 *   on the calling thread) and until every worker has loaded imagecore's WASM (`ready()`).
 *
 * @module
 */

const firstLine = performance.timeOrigin + performance.now();
const now = () => performance.timeOrigin + performance.now();
const REPO = new URL("../../", import.meta.url);

/** A bare specifier as is; a repository path (`src/…`, `imagecore/…`) as a file URL. */
function resolve(spec: string): string {
  return /^(src|imagecore|bench|test)\//.test(spec) ? new URL(spec, REPO).href : spec;
}

function report(fields: Record<string, unknown>): void {
  // console.log may be patched in `start` mode; write straight to stdout.
  Deno.stdout.writeSync(
    new TextEncoder().encode(`PROBE ${JSON.stringify({ firstLine, ...fields })}\n`),
  );
}

/** Sampling interval of the `profile` mode, µs. */
const SAMPLING_US = 100;

/** The parts of a V8 CPU profile (`Profiler.stop`) read here. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** Where a profile node's code comes from: an npm package, a repository folder, Deno, an op. */
function source(callFrame: CpuProfile["nodes"][number]["callFrame"]): string {
  const { url, functionName } = callFrame;
  const npm = /\/registry\.npmjs\.org\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (npm) return `npm:${npm[1]}`;
  if (url.startsWith(REPO.href)) {
    const file = url.slice(REPO.href.length);
    return file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : file;
  }
  if (url.startsWith("ext:deno_node") || url.startsWith("node:")) {
    return "Deno: node compat (ext:deno_node)";
  }
  if (url.startsWith("ext:")) return "Deno: runtime JS (ext:)";
  if (url === "" && functionName.startsWith("op_")) return `op ${functionName}`;
  if (url === "") return functionName || "(native)";
  return url;
}

/** Self time per source, ms, largest first. */
function bySource(profile: CpuProfile): Array<[string, number]> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const key = source(nodes.get(id)!.callFrame);
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/**
 * Inclusive time per function of the repository and per op, ms, largest first (a function that
 * recurses counts once per sample).
 */
function byFunction(profile: CpuProfile): Array<[string, number]> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const counted = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = nodes.get(at)!.callFrame;
      let key: string | undefined;
      if (url.startsWith(REPO.href)) {
        key = `${functionName || "(top level)"} ${url.slice(REPO.href.length)}:${lineNumber + 1}`;
      } else if (url === "" && functionName.startsWith("op_")) key = functionName;
      if (key === undefined || counted.has(key)) continue;
      counted.add(key);
      totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    }
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

async function timedImport(spec: string): Promise<number> {
  const started = performance.now();
  await import(resolve(spec));
  return performance.now() - started;
}

if (import.meta.main) {
  const [mode, ...args] = Deno.args;
  if (mode === "imports") {
    const steps: Array<{ spec: string; ms: number }> = [];
    for (const spec of args) steps.push({ spec, ms: await timedImport(spec) });
    report({ steps });
    Deno.exit(0);
  } else if (mode === "store") {
    const started = performance.now();
    const { openKv } = await import(resolve("src/store/open_kv.ts"));
    const { seedIfEmpty } = await import(resolve("src/store/seed.ts"));
    const importMs = performance.now() - started;
    const opening = performance.now();
    const kv: Deno.Kv = await openKv(Deno.env.get("LOGO_KV"));
    const openKvMs = performance.now() - opening;
    const seeding = performance.now();
    const demo = await seedIfEmpty(kv, { log: () => {} });
    const seedCheckMs = performance.now() - seeding;
    kv.close();
    report({ importMs, openKvMs, seedCheckMs, seeded: demo?.created ?? false });
    Deno.exit(0);
  } else if (mode === "start") {
    // Deno.openKv timed where startService calls it.
    const kvTimes: Array<[number, number]> = [];
    const openKv = Deno.openKv;
    const timedOpenKv = async (path?: string) => {
      const started = now();
      try {
        return await openKv(path);
      } finally {
        kvTimes.push([started, now()]);
      }
    };
    // With `--unstable-kv` it is a configurable getter; without a way to replace it, not timed.
    try {
      Object.defineProperty(Deno, "openKv", { value: timedOpenKv, configurable: true });
    } catch { /* left untimed */ }
    // Deno.serve too: it returns once the socket listens.
    let servingAt: number | undefined;
    const serve = Deno.serve;
    const timedServe = (...args: unknown[]) => {
      const server = (serve as (...args: unknown[]) => Deno.HttpServer)(...args);
      servingAt ??= now();
      return server;
    };
    try {
      Object.defineProperty(Deno, "serve", { value: timedServe, configurable: true });
    } catch { /* left untimed */ }
    const log = console.log;
    let importedAt = 0;
    console.log = (...data: unknown[]) => {
      const line = data.map(String).join(" ");
      if (/listening on http/i.test(line)) {
        const listeningAt = now();
        report({
          importedAt,
          servingAt,
          listeningAt,
          openKvStart: kvTimes[0]?.[0],
          openKvEnd: kvTimes[0]?.[1],
        });
        Deno.exit(0);
      }
      log(...data);
    };
    const started = now();
    const { main } = await import(resolve("src/main.ts"));
    importedAt = now();
    if (importedAt - started < 0) throw new Error("clock went backwards");
    await main();
  } else if (mode === "profile") {
    const { Session } = await import("node:inspector");
    const session = new Session();
    session.connect();
    const post = (method: string, params: Record<string, unknown> = {}) =>
      new Promise<Record<string, unknown>>((resolve, reject) =>
        session.post(
          method,
          params,
          (error, result) =>
            error ? reject(error) : resolve((result ?? {}) as Record<string, unknown>),
        )
      );
    await post("Profiler.enable");
    await post("Profiler.setSamplingInterval", { interval: SAMPLING_US });
    await post("Profiler.start");
    let started = performance.now();
    const { main } = await import(resolve("src/main.ts"));
    const importMs = performance.now() - started;
    const imports = (await post("Profiler.stop")).profile as CpuProfile;
    await post("Profiler.start");
    started = performance.now();
    const log = console.log;
    console.log = async (...data: unknown[]) => {
      if (!/listening on http/i.test(data.map(String).join(" "))) return log(...data);
      const startMs = performance.now() - started;
      const start = (await post("Profiler.stop")).profile as CpuProfile;
      report({
        samplingUs: SAMPLING_US,
        importMs,
        importBySource: bySource(imports),
        startMs,
        startByFunction: byFunction(start),
      });
      Deno.exit(0);
    };
    await main();
  } else if (mode === "wasm") {
    const count = Number(args[0] ?? navigator.hardwareConcurrency);
    const { startRenderPool } = await import(resolve("src/server/render_pool.ts"));
    const started = performance.now();
    const pool = startRenderPool(count);
    const createMs = performance.now() - started; // the calling thread, blocked
    await pool?.ready();
    const readyMs = performance.now() - started;
    report({ workers: count, createMs, readyMs });
    Deno.exit(0);
  } else {
    console.error(`Unknown mode "${mode}": imports, store, start, profile or wasm`);
    Deno.exit(2);
  }
}
