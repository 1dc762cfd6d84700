/**
 * The lookup half of the store-growth benchmark: starts `growth_server.ts` on a store and measures
 * random-domain lookups with wrk (`random_domains.lua`: each request a domain drawn uniformly from
 * the N imported), reading the server's counters before and after each run.
 *
 * @example
 * ```ts
 * import { GrowthServer } from "./growth_lookups.ts";
 * const server = await GrowthServer.start({ LOGO_KV: "/tmp/store.kv" }, []);
 * const run = await server.measure({ token: "pk_…", seed: 1, count: 1000, query: "", seconds: 5 });
 * console.log(run.requestsPerSecond, run.variantHitRatio);
 * await server.stop();
 * ```
 * @module
 */
import { lines } from "../../test/support/lines.ts";
import type { GrowthServerStats } from "./growth_server.ts";
import { runWrk, type WrkResult } from "./wrk.ts";
import { cpuMs, startTaskEnv, startTaskV8Flags } from "./start_task.ts";

const SERVER = new URL("./growth_server.ts", import.meta.url).pathname;
const SCRIPT = new URL("./random_domains.lua", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/** CPU time (user + system) a process has used so far, in ms (`start_task.ts`). */
export const processCpuMs = cpuMs;

/** One wrk run of random-domain lookups and what the server counted meanwhile. */
export interface LookupRun extends WrkResult {
  /** Server CPU per request, µs. */
  serverCpuUs: number;
  /** CPU of another process (the denokv server) per request, µs; NaN when there is none. */
  engineCpuUs: number;
  /** KV read calls per request (record, manifest, chunk list, key, limiter…). */
  kvReadsPerRequest: number;
  /** Keys read per request: the read calls, a batched `getMany` counting each of its keys. */
  kvKeysPerRequest: number;
  /** Share of render-step lookups answered by the variant cache. */
  variantHitRatio: number;
  /** Share of record lookups answered from memory (a default request's answer is kept with it). */
  recordHitRatio: number;
  /** Responses other than 200. */
  not200: number;
  /** Server RSS after the run, bytes. */
  rss: number;
}

/** What to request in {@link GrowthServer.measure}. */
export interface LookupOptions {
  /** Publishable key. */
  token: string;
  /** Seed and size of the logo set (the domains are `growth-SEED-INDEX.com`). */
  seed: number;
  /** Number of domains to draw from. */
  count: number;
  /** Extra query (`&size=64`), or "" for the default request. */
  query: string;
  /** Seconds of load. */
  seconds: number;
  /** Open connections; default 50. */
  connections?: number;
  /** The engine's process id, to report its CPU per request too. */
  enginePid?: number;
  /**
   * Another wrk script to shape the requests (default `random_domains.lua`: uniform draws) and
   * the environment it reads besides the token, seed, count, query and `BENCH_THREADS`.
   */
  traffic?: { script: string; env: Record<string, string> };
}

/** A running `growth_server.ts`. */
export class GrowthServer {
  readonly #child: Deno.ChildProcess;
  readonly #lines: AsyncIterator<string>;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  /** Where it listens. */
  readonly port: number;
  /** The variant-cache budget it runs with, bytes. */
  readonly variantCacheBytes: number;
  /** The record-cache TTL it runs with, ms. */
  readonly recordTtlMs: number;
  /** Render workers it runs with (0: renders inline). */
  readonly renderWorkers: number;
  /** The record-cache budget it runs with, bytes. */
  readonly logoCacheBytes: number;

  private constructor(
    child: Deno.ChildProcess,
    output: AsyncIterator<string>,
    info: {
      port: number;
      variantCacheBytes: number;
      recordTtlMs: number;
      renderWorkers: number;
      logoCacheBytes: number;
    },
  ) {
    this.#child = child;
    this.#lines = output;
    this.#stdin = child.stdin.getWriter();
    this.port = info.port;
    this.variantCacheBytes = info.variantCacheBytes;
    this.recordTtlMs = info.recordTtlMs;
    this.renderWorkers = info.renderWorkers;
    this.logoCacheBytes = info.logoCacheBytes;
  }

  /** Starts the server with `env` and `args` (cache budgets); resolves once it listens. */
  static async start(env: Record<string, string>, args: string[]): Promise<GrowthServer> {
    const v8Flags = await startTaskV8Flags();
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--config",
        CONFIG,
        ...(v8Flags.length > 0 ? [`--v8-flags=${v8Flags.join(",")}`] : []),
        SERVER,
        ...args,
      ],
      env: { ...await startTaskEnv(), ...env },
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const output = jsonLines(child.stdout);
    const first = await output.next();
    if (first.done) {
      await child.status;
      throw new Error("The growth server exited before listening");
    }
    return new GrowthServer(child, output, JSON.parse(first.value));
  }

  /** The server's process id. */
  get pid(): number {
    return this.#child.pid;
  }

  /** The server's counters now. */
  async stats(): Promise<GrowthServerStats> {
    await this.#stdin.write(new TextEncoder().encode("stats\n"));
    const { value, done } = await this.#lines.next();
    if (done) throw new Error("The growth server exited");
    return JSON.parse(value);
  }

  /** Runs wrk with random domains and returns its figures with the server's counters. */
  async measure(options: LookupOptions): Promise<LookupRun> {
    const before = await this.stats();
    const cpuBefore = processCpuMs(this.pid);
    const engineBefore = options.enginePid ? processCpuMs(options.enginePid) : NaN;
    const result = await runWrk(`http://127.0.0.1:${this.port}/`, {
      seconds: options.seconds,
      connections: options.connections ?? 50,
      threads: 2,
      script: options.traffic?.script ?? SCRIPT,
      env: {
        BENCH_TOKEN: options.token,
        BENCH_SEED: String(options.seed),
        BENCH_COUNT: String(options.count),
        BENCH_QUERY: options.query,
        BENCH_THREADS: "2",
        ...options.traffic?.env,
      },
    });
    const requests = Math.max(1, result.requests);
    const serverCpuUs = (processCpuMs(this.pid) - cpuBefore) * 1000 / requests;
    const engineCpuUs = options.enginePid
      ? (processCpuMs(options.enginePid) - engineBefore) * 1000 / requests
      : NaN;
    const after = await this.stats();
    const hits = after.variants.hits - before.variants.hits;
    const misses = after.variants.misses - before.variants.misses;
    const answered = Object.values(after.statuses).reduce((a, b) => a + b, 0) -
      Object.values(before.statuses).reduce((a, b) => a + b, 0);
    const ok = (after.statuses["200"] ?? 0) - (before.statuses["200"] ?? 0);
    return {
      ...result,
      serverCpuUs,
      engineCpuUs,
      kvReadsPerRequest: (after.kvReads - before.kvReads) / Math.max(1, answered),
      kvKeysPerRequest: (after.kvKeys - before.kvKeys) / Math.max(1, answered),
      variantHitRatio: hits / Math.max(1, hits + misses),
      recordHitRatio: (after.records.hits - before.records.hits) /
        Math.max(
          1,
          after.records.hits - before.records.hits + after.records.misses - before.records.misses,
        ),
      not200: answered - ok,
      rss: after.rss,
    };
  }

  /** Closes its stdin, which stops it, and waits for it to exit. */
  async stop(): Promise<void> {
    await this.#stdin.close().catch(() => {});
    for (;;) if ((await this.#lines.next()).done) break;
    await this.#child.status;
  }
}

/** The JSON lines of a child's stdout (anything else it prints is passed over). */
async function* jsonLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  for await (const line of lines(stream)) {
    const trimmed = line.trim();
    if (trimmed.startsWith("{")) yield trimmed;
  }
}
