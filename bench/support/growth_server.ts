/**
 * The store-growth benchmark's server: what `src/main.ts` serves — `createApp` behind
 * `serveHttp` (`Deno.serve`, as `src/main.ts` serves),
 * with its render pool (`LOGO_RENDER_WORKERS`), on the store named by `LOGO_KV` (and
 * `DENO_KV_ACCESS_TOKEN` for denokv), with its logo change feed — without the demo seed and
 * without discovery, with the cache budgets given on the command line, and with counters.
 *
 * Why not `src/main.ts` itself: it reads no cache-budget setting (its budgets are the defaults
 * printed below) and reports no cache statistics; the benchmark needs both to say how often the
 * caches missed. The counters: KV read calls (`get`, `getMany`, `list`) made through this
 * process's `Deno.Kv`, responses by status, the variant cache's statistics, memory.
 *
 * Usage: deno run -A bench/support/growth_server.ts [--variant-cache-mb N] [--record-cache-mb N]
 *        [--record-ttl-ms N]
 * Prints `{"port", "pid", "renderWorkers", "variantCacheBytes", "logoCacheBytes", "recordTtlMs"}`
 * once listening; answers each `stats`
 * line on stdin with a JSON line of {@link GrowthServerStats}; stops when stdin closes.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { createApp } from "../../src/http/app.ts";
import { DEFAULT_VARIANT_CACHE_BYTES } from "../../src/http/variant_cache.ts";
import { LOGO_CACHE_MAX_BYTES, LOGO_CACHE_TTL_MS } from "../../src/http/resolve_logo.ts";
import { LogoChangeFeed } from "../../src/store/logo_change_feed.ts";
import { kvLocation, openKv } from "../../src/store/open_kv.ts";
import { serveHttp } from "../../src/server/serve_http.ts";
import { renderWorkers, startRenderPool, stopRenderPool } from "../../src/server/render_pool.ts";
import type { VariantCacheStats } from "../../src/http/variant_cache.ts";

/** What the server answers to `stats`. */
export interface GrowthServerStats {
  /** KV read calls so far (`get`, `getMany`, `list`). */
  kvReads: number;
  /** Keys read by those calls so far (a `getMany` of 10 counts 10, a `list` 1). */
  kvKeys: number;
  /** Responses by status. */
  statuses: Record<string, number>;
  /** The rendered-variant cache (default renditions read from KV are kept there too). */
  variants: VariantCacheStats;
  /** The logo record cache: domains held, bytes counted, lookups from memory and from KV. */
  records: { entries: number; bytes: number; hits: number; misses: number };
  /** Resident set size, bytes. */
  rss: number;
  /** V8 heap in use, bytes. */
  heapUsed: number;
  /** Memory of ArrayBuffers and other objects outside the V8 heap, bytes. */
  external: number;
}

/** Patches `kv` so every read call (and key read) is counted; returns the live counter. */
function countReads(kv: Deno.Kv): { reads: number; keys: number } {
  const counter = { reads: 0, keys: 0 };
  const get = kv.get.bind(kv);
  const getMany = kv.getMany.bind(kv);
  const list = kv.list.bind(kv);
  kv.get = ((...args: Parameters<Deno.Kv["get"]>) => {
    counter.reads++;
    counter.keys++;
    return get(...args);
  }) as Deno.Kv["get"];
  kv.getMany = ((...args: Parameters<Deno.Kv["getMany"]>) => {
    counter.reads++;
    counter.keys += args[0].length;
    return getMany(...args);
  }) as Deno.Kv["getMany"];
  kv.list = ((...args: Parameters<Deno.Kv["list"]>) => {
    counter.reads++;
    counter.keys++;
    return list(...args);
  }) as Deno.Kv["list"];
  return counter;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      "variant-cache-mb": { type: "string" },
      "record-cache-mb": { type: "string" },
      "record-ttl-ms": { type: "string" },
    },
    strict: true,
  });
  const variantCacheBytes = values["variant-cache-mb"] === undefined
    ? DEFAULT_VARIANT_CACHE_BYTES
    : Math.round(Number(values["variant-cache-mb"]) * 1024 * 1024);
  const logoCacheBytes = values["record-cache-mb"] === undefined
    ? LOGO_CACHE_MAX_BYTES
    : Math.round(Number(values["record-cache-mb"]) * 1024 * 1024);
  const recordTtlMs = values["record-ttl-ms"] === undefined
    ? LOGO_CACHE_TTL_MS
    : Number(values["record-ttl-ms"]);
  if (!(variantCacheBytes >= 0) || !(logoCacheBytes >= 0) || !(recordTtlMs >= 0)) {
    console.error(
      "Invalid cache budget: --variant-cache-mb, --record-cache-mb and --record-ttl-ms take " +
        "numbers ≥ 0",
    );
    Deno.exit(2);
  }
  const kv = await openKv(kvLocation(Deno.env.get("LOGO_KV")), { createFile: false });
  const counter = countReads(kv);
  const statuses: Record<string, number> = {};
  // Renders off the serving isolate, as src/main.ts does (LOGO_RENDER_WORKERS; one process).
  const workers = renderWorkers(
    Deno.env.get("LOGO_RENDER_WORKERS"),
    navigator.hardwareConcurrency,
    1,
  );
  const renderPool = startRenderPool(workers);
  await renderPool?.ready();
  // As src/main.ts: records stay cached until the change feed names them.
  const logoChanges = new LogoChangeFeed(kv);
  logoChanges.start();
  const app = createApp({
    kv,
    variantCacheBytes,
    logoCacheBytes,
    logoCacheTtlMs: recordTtlMs,
    logoChanges,
    imaging: renderPool,
  });
  const server = await serveHttp(
    { port: 0, hostname: "127.0.0.1" },
    async (request) => {
      const response = await app.handler(request);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      return response;
    },
  );
  console.log(JSON.stringify({
    port: server.addr.port,
    pid: Deno.pid,
    renderWorkers: workers,
    variantCacheBytes,
    logoCacheBytes,
    recordTtlMs,
  }));
  const input = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
  for await (const chunk of input) {
    for (const command of chunk.split("\n").map((line) => line.trim())) {
      if (command !== "stats") continue;
      const { rss, heapUsed, external } = Deno.memoryUsage();
      const stats: GrowthServerStats = {
        kvReads: counter.reads,
        kvKeys: counter.keys,
        statuses: { ...statuses },
        variants: app.stats().variants,
        records: app.stats().records,
        rss,
        heapUsed,
        external,
      };
      console.log(JSON.stringify(stats));
    }
  }
  await server.shutdown();
  await logoChanges.stop();
  await app.close();
  await stopRenderPool(renderPool);
  kv.close();
}
