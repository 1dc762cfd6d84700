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
 *   import, `Deno.openKv` inside it, and the time to the "listening on" line; exits once listening;
 * - `wasm COUNT` — times `startRenderPool(COUNT)` until every worker has loaded imagecore's WASM
 *   (`ready()`): what the render pool loads in the background.
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
    const log = console.log;
    let importedAt = 0;
    console.log = (...data: unknown[]) => {
      const line = data.map(String).join(" ");
      if (/listening on http/i.test(line)) {
        const listeningAt = now();
        report({
          importedAt,
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
  } else if (mode === "wasm") {
    const count = Number(args[0] ?? navigator.hardwareConcurrency);
    const { startRenderPool } = await import(resolve("src/server/render_pool.ts"));
    const started = performance.now();
    const pool = startRenderPool(count);
    await pool?.ready();
    const readyMs = performance.now() - started;
    report({ workers: count, readyMs });
    Deno.exit(0);
  } else {
    console.error(`Unknown mode "${mode}": imports, store, start or wasm`);
    Deno.exit(2);
  }
}
