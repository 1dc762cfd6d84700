/**
 * The service's Prometheus metrics, kept with `prom-client` (the maintained Prometheus client for
 * Node, which runs unchanged under Deno) in a registry of their own. Counters are per process:
 * each instance (and each isolate of `deno serve --parallel`) counts its own requests, and
 * Prometheus sums them across scrape targets.
 *
 * Request counts and latencies are recorded as they happen; cache, rate-limit and memory figures
 * are read from their owners when scraped ({@link Metrics.watch}, `queueDepth`, `rss`), so the
 * request path pays nothing for them.
 *
 * @example
 * ```ts
 * import { createMetrics } from "./metrics.ts";
 * const metrics = createMetrics({ queueDepth: () => 0 });
 * metrics.request(200);
 * metrics.render("rendered", 0.004);
 * console.log(await metrics.text());
 * ```
 * @module
 */
import client from "prom-client";

/** Cumulative counters read from the application at scrape time. */
export interface AppCounters {
  /** Rendered-variant cache: lookups answered from memory, and renders. */
  variants: { hits: number; misses: number };
  /** Key lookups answered from the key cache, and read from KV. */
  keys: { hits: number; misses: number };
  /** Logo-record lookups answered from the record cache, and read from KV. */
  logos: { hits: number; misses: number };
  /** Rate-limit lease attempts that reached KV, and leases committed (one KV commit each). */
  leases: { attempts: number; commits: number };
}

/** Options of {@link createMetrics}. */
export interface MetricsOptions {
  /** Image jobs waiting for a worker; default always 0. */
  queueDepth?: () => number;
  /** Resident set size in bytes; default `Deno.memoryUsage().rss`. */
  rss?: () => number;
  /**
   * Bytes of memory by part (`logo_memory_bytes{part}`: heap, caches, WASM of each worker — see
   * `src/server/memory_figures.ts`), read when scraped; default none.
   */
  memory?: () => Readonly<Record<string, number>>;
}

/** How a render ended for the latency histogram: sent as stored or rendered by imagecore. */
export type RenderKind = "stored" | "rendered";

/** The service's metrics. */
export interface Metrics {
  /** Counts one answered request by status. */
  request(status: number): void;
  /** Records one render's latency in seconds (cache hits are not renders). */
  render(kind: RenderKind, seconds: number): void;
  /** Records one discovery's latency in seconds, by its outcome (`stored`, `not-found`…). */
  discovery(outcome: string, seconds: number): void;
  /** Where the cache and lease counters are read at scrape time; the last one given wins. */
  watch(counters: () => AppCounters): void;
  /** The Prometheus text exposition of every metric. */
  text(): Promise<string>;
  /** The `Content-Type` of {@link Metrics.text}. */
  readonly contentType: string;
}

/** Buckets of the render histogram, in seconds: from a cached source's resize to a hostile SVG. */
export const RENDER_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Buckets of the discovery histogram, in seconds: up to its 10 s budget. */
export const DISCOVERY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20];

const NO_COUNTERS: AppCounters = {
  variants: { hits: 0, misses: 0 },
  keys: { hits: 0, misses: 0 },
  logos: { hits: 0, misses: 0 },
  leases: { attempts: 0, commits: 0 },
};

/** Creates the metrics in a fresh registry. */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new client.Registry();
  const registers = [registry];
  let counters: () => AppCounters = () => NO_COUNTERS;
  const requests = new client.Counter({
    name: "logo_http_requests_total",
    help: "Requests answered, by status.",
    labelNames: ["status"] as const,
    registers,
  });
  // One child per status: a label lookup per request instead of hashing a label object.
  const byStatus = new Map<number, client.Counter.Internal>();
  const renders = new client.Histogram({
    name: "logo_render_duration_seconds",
    help: "Time to produce an image that was not in the variant cache, by kind.",
    labelNames: ["kind"] as const,
    buckets: RENDER_BUCKETS,
    registers,
  });
  const discoveries = new client.Histogram({
    name: "logo_discovery_duration_seconds",
    help: "Time one discovery took, by outcome.",
    labelNames: ["outcome"] as const,
    buckets: DISCOVERY_BUCKETS,
    registers,
  });
  /** A counter whose value is read from the application when scraped. */
  const readCounter = (name: string, help: string, read: (c: AppCounters) => number) =>
    new client.Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read(counters()));
      },
    });
  const cacheCounter = (cache: "variants" | "keys" | "logos", what: string) => {
    const prefix = `logo_${cache === "variants" ? "variant" : cache.slice(0, -1)}_cache`;
    readCounter(`${prefix}_hits_total`, `${what} answered from memory.`, (c) => c[cache].hits);
    readCounter(`${prefix}_misses_total`, `${what} that missed memory.`, (c) => c[cache].misses);
  };
  cacheCounter("variants", "Rendered-variant lookups");
  cacheCounter("keys", "API key lookups");
  cacheCounter("logos", "Logo record lookups");
  readCounter(
    "logo_rate_limit_lease_attempts_total",
    "Rate-limit lease attempts that reached KV.",
    (c) => c.leases.attempts,
  );
  readCounter(
    "logo_rate_limit_lease_commits_total",
    "Rate-limit leases committed to KV (one commit each).",
    (c) => c.leases.commits,
  );
  const queueDepth = options.queueDepth ?? (() => 0);
  new client.Gauge({
    name: "logo_image_queue_depth",
    help: "Image jobs waiting for a worker.",
    registers,
    collect() {
      this.set(queueDepth());
    },
  });
  const rss = options.rss ?? (() => Deno.memoryUsage().rss);
  new client.Gauge({
    name: "process_resident_memory_bytes",
    help: "Resident memory size in bytes.",
    registers,
    collect() {
      this.set(rss());
    },
  });
  const memory = options.memory;
  if (memory !== undefined) {
    new client.Gauge({
      name: "logo_memory_bytes",
      help: "Bytes of memory by part: V8 heap, caches, WASM linear memory of each isolate.",
      labelNames: ["part"] as const,
      registers,
      collect() {
        this.reset();
        for (const [part, bytes] of Object.entries(memory())) this.labels(part).set(bytes);
      },
    });
  }

  return {
    request(status) {
      let child = byStatus.get(status);
      if (child === undefined) {
        child = requests.labels(String(status));
        byStatus.set(status, child);
      }
      child.inc();
    },
    render(kind, seconds) {
      renders.labels(kind).observe(seconds);
    },
    discovery(outcome, seconds) {
      discoveries.labels(outcome).observe(seconds);
    },
    watch(read) {
      counters = read;
    },
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
