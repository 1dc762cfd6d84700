/**
 * Scale-out as it is deployed: one real `denokv` (`denokv.ts`) and several `src/main.ts`
 * processes over it (`LOGO_KV=http://127.0.0.1:PORT`, its access token, discovery off), plus the
 * admin CLI run against the same store. With {@link exchangeWithin} (a request that must answer
 * in time) and {@link pollUntil} (retry until a condition holds, or fail at a deadline).
 *
 * @example
 * ```ts
 * import { startCluster } from "./denokv_cluster.ts";
 * await using cluster = await startCluster(3);
 * const key = await cluster.admin<{ publishableKey: string }>(["key", "create"]);
 * console.log(cluster.url(0, `/example.com?token=${key.publishableKey}`));
 * ```
 * @module
 */
import { runAdminJson } from "./admin_cli.ts";
import { type DenoKvServer, startDenoKv } from "./denokv.ts";
import { type Exchange, readExchange } from "./http.ts";
import { type MainProcess, startMainProcess } from "./main_process.ts";

/** A denokv with server instances over it. Disposing it stops them all. */
export interface Cluster extends AsyncDisposable {
  /** The denokv server (kill and restart it for an outage). */
  readonly kv: DenoKvServer;
  /** The running `src/main.ts` processes. */
  readonly instances: readonly MainProcess[];
  /** `http://127.0.0.1:PORT{path}` of instance `index`. */
  url(index: number, path: string): string;
  /** Runs `deno task admin …args` against the cluster's store; its JSON output. */
  admin<T = unknown>(args: string[]): Promise<T>;
}

/** Starts a denokv and `count` instances over it (all at once, as a deployment does). */
export async function startCluster(count: number): Promise<Cluster> {
  const kv = await startDenoKv();
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => startMainProcess(kv.env)),
  );
  const instances = started.flatMap((s) => s.status === "fulfilled" ? [s.value] : []);
  const close = async () => {
    await Promise.all(instances.map((instance) => instance[Symbol.asyncDispose]()));
    await kv.close();
  };
  const failed = started.find((s) => s.status === "rejected");
  if (failed !== undefined) {
    await close();
    throw failed.reason;
  }
  return {
    kv,
    instances,
    url: (index, path) => `http://127.0.0.1:${instances[index].port}${path}`,
    admin: <T>(args: string[]) => runAdminJson<T>(kv.url, args, kv.env),
    [Symbol.asyncDispose]: close,
  };
}

/**
 * Fetches `url` and reads the whole answer; throws "no answer within N ms" if that takes longer
 * than `ms` (a hang is a failure, not a slow pass).
 */
export async function exchangeWithin(
  url: string,
  ms: number,
  init: RequestInit = {},
): Promise<Exchange> {
  const signal = AbortSignal.timeout(ms);
  try {
    return await readExchange(await fetch(url, { ...init, signal }));
  } catch (error) {
    if (signal.aborted) throw new Error(`${new URL(url).pathname}: no answer within ${ms} ms`);
    throw error;
  }
}

/** Pause between two attempts of {@link pollUntil}. */
export const POLL_INTERVAL_MS = 50;

/**
 * Calls `attempt` until it returns `{ done: value }` (`{ state }` says what it saw instead),
 * pausing {@link POLL_INTERVAL_MS} between attempts; resolves with the value and the ms it took.
 *
 * @throws {Error} "`what` not within N ms (last: …)" once `deadlineMs` has passed, with the last
 * attempt's state.
 */
export async function pollUntil<T, S>(
  what: string,
  deadlineMs: number,
  attempt: () => Promise<{ done: T } | { state: S }>,
): Promise<{ value: T; elapsedMs: number }> {
  const start = performance.now();
  for (;;) {
    const outcome = await attempt();
    const elapsedMs = performance.now() - start;
    if ("done" in outcome) return { value: outcome.done, elapsedMs };
    if (elapsedMs > deadlineMs) {
      throw new Error(
        `${what} not within ${deadlineMs} ms (last: ${JSON.stringify(outcome.state)})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
