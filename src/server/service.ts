/**
 * Everything behind the one fetch handler, from the settings the entry point read and checked
 * (`src/settings/`): the store opened (and seeded outside Deno Deploy), discovery, the render pool, the logo change feed
 * and the application. Both entry points use it: `src/main.ts` (`deno task start`, `Deno.serve`
 * with signals) and `src/serve.ts` (`deno serve`, Deno Deploy). Start-up work is bounded and done
 * once per isolate. What the first cache hit does not need starts shortly after the server
 * listens ({@link Service.warmUp}): the render workers and discovery (its modules and its image
 * worker). A render or a miss that comes first starts them itself and waits for them.
 *
 * @example
 * ```ts
 * import { startService } from "./service.ts";
 * import { readSettings } from "../settings/read_settings.ts";
 * const service = await startService(readSettings({ LOGO_KV: ":memory:" }, "serve"));
 * const server = Deno.serve({ port: 0, onListen: () => service.warmUp() }, service.fetch);
 * // … at shutdown: stop taking requests, then close the service.
 * await server.shutdown();
 * await service.close();
 * ```
 * @module
 */
import { type App, createApp } from "../http/app.ts";
import type { DiscoveryService } from "../discovery/service.ts";
import type {
  ImagePool,
  ImageWork,
  MonogramWork,
  SvgThemeWork,
} from "../../imagecore/image_pool.ts";
import { observeSettings, startObserver } from "../observe/request_observer.ts";
import { safeLog } from "../safe_log.ts";
import { type DemoInfo, seedIfEmpty } from "../store/seed.ts";
import { isKvFile, openKv } from "../store/open_kv.ts";
import { whileLocked } from "../store/store_locked.ts";
import { LogoChangeFeed } from "../store/logo_change_feed.ts";
import { storeFileCheck } from "../store/store_identity.ts";
import type { ServiceSettings } from "../settings/settings_table.ts";
import { startRenderPool, stopRenderPool } from "./render_pool.ts";
import { memoryFigures } from "./memory_figures.ts";
import { type CacheBudgets, cacheBudgets } from "./cache_budgets.ts";

/** How long shutdown waits for unspent rate-limit quota to be given back to KV. */
export const QUOTA_RETURN_TIMEOUT_MS = 2_000;
/** How long shutdown waits for background discoveries to stop. */
export const DISCOVERY_CLOSE_TIMEOUT_MS = 1_000;

/**
 * How long after listening the render workers and discovery start (unless a render or a miss
 * started them already): the first requests of a cold instance are answered before that.
 */
export const WARM_UP_DELAY_MS = 250;

/** A started service. */
export interface Service {
  /** The fetch handler: answers every request, never throws. */
  fetch(request: Request): Promise<Response>;
  /** The store's location, as `LOGO_KV` names it (`platform` on Deno Deploy). */
  readonly location: string;
  /** The demo key and logos seeded (or found) in the store; `null` when none (always on Deploy). */
  readonly demo: DemoInfo | null;
  /** Render worker threads; 0 renders inline. */
  readonly workers: number;
  /** The cache budgets in force. */
  readonly budgets: CacheBudgets;
  /** The application, for tests and benchmarks. */
  readonly app: App;
  /**
   * Starts the render workers and discovery {@link WARM_UP_DELAY_MS} from now; call it once the
   * server listens.
   */
  warmUp(): void;
  /**
   * Stops what runs beside the handler, each step bounded whatever KV does: the change feed,
   * unspent quota given back, discoveries, render workers, then KV is closed. Call it once no
   * request is being answered any more.
   */
  close(): Promise<void>;
}

/** Options of {@link startService}. */
export interface ServiceOptions {
  /** Where start-up and shutdown lines go; default `console.log`. */
  print?: (line: string) => void;
}

/** Resolves with "done" once `promise` settles, or with "timeout" after `ms`. */
export async function within(promise: Promise<unknown>, ms: number): Promise<"done" | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"timeout">((resolve) => timer = setTimeout(resolve, ms, "timeout"));
  try {
    return await Promise.race([promise.then(() => "done" as const, () => "done" as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The store's location in `settings`: `LOGO_KV`, or the platform's KV on Deno Deploy
 * (`DENO_DEPLOYMENT_ID` set). On Deploy a local file or `:memory:` would give every instance a
 * store of its own, so that is refused.
 *
 * @throws {Error} "Cannot use LOGO_KV=… on Deno Deploy …" for a file or `:memory:` on Deploy.
 */
export function storeLocation(
  settings: Pick<ServiceSettings, "kvLocation" | "deploymentId">,
): string {
  const location = settings.kvLocation;
  if (settings.deploymentId && (isKvFile(location) || location === ":memory:")) {
    throw new Error(
      `Cannot use LOGO_KV=${location} on Deno Deploy (DENO_DEPLOYMENT_ID is set): each instance ` +
        "would have a store of its own. Unset LOGO_KV to use the deployment's KV, or set it to " +
        "the https:// URL of a KV Connect server.",
    );
  }
  return location;
}

/**
 * Opens and starts the service with `settings`, read and checked by the entry point
 * (`readSettings(env, "serve")`). A store location Deno Deploy cannot use throws before anything
 * is opened, with a one-line message naming it.
 */
export async function startService(
  settings: ServiceSettings,
  options: ServiceOptions = {},
): Promise<Service> {
  const print = options.print ?? console.log;
  const location = storeLocation(settings);
  const onDeploy = settings.deploymentId !== undefined;
  const budgets = cacheBudgets(settings); // docs/operate/capacity.md
  // Workers where the runtime has them; inline renders otherwise (docs/operate/deploy.md).
  const workers = typeof Worker === "function" ? settings.renderWorkers : 0;
  let app: App | undefined = undefined; // set below; read by the metrics
  let renderPool: ImagePool | undefined;
  const deadlineMs = settings.renderDeadlineMs;
  const pool = () => renderPool ??= startRenderPool(workers, deadlineMs)!; // docs/internals/render_pool.md
  const imaging: (ImageWork & MonogramWork & SvgThemeWork) | undefined = workers === 0
    ? undefined
    : {
      probe: (...args) => pool().probe(...args),
      transform: (...args) => pool().transform(...args),
      renditions: (...args) => pool().renditions(...args),
      monogram: (...args) => pool().monogram(...args), // src/http/monogram.ts
      themeSvg: (...args) => pool().themeSvg(...args), // format=svg with greyscale or theme
    };
  const observer = await startObserver({
    settings: observeSettings(settings),
    queueDepth: () => renderPool?.stats().queued ?? 0,
    memory: () => app ? memoryFigures(app, renderPool) : {}, // logo_memory_bytes{part}
  });
  const kv = await openKv(location);
  let demo: DemoInfo | null = null;
  try {
    // A production store is never seeded with a demo key: on Deploy, keys come from the admin CLI.
    if (!onDeploy) demo = await whileLocked(() => seedIfEmpty(kv)); // instances starting at once
  } catch (error) {
    kv.close();
    throw error;
  }
  // Discovery's modules (an HTML parser, …) and its image worker load once the server listens.
  let discovery: Promise<DiscoveryService | undefined> | undefined;
  const startDiscovery = () =>
    discovery ??= import("../discovery/service.ts").then(({ startDiscoveryService }) =>
      startDiscoveryService(kv, settings, {
        closeTimeoutMs: DISCOVERY_CLOSE_TIMEOUT_MS,
        log: safeLog(console.error), // no query string or token in a log line (src/safe_log.ts)
        onDiscovery: observer.metrics?.discovery, // the discovery latency histogram
      })
    );
  const discover = settings.discovery
    ? async (domain: string) => await (await startDiscovery())?.discover(domain)
    : undefined;
  // Other processes' logo writes, read once a second: cached records stay until one names them.
  const logoChanges = new LogoChangeFeed(kv, { log: safeLog(console.error) });
  logoChanges.start();
  app = createApp({
    kv,
    logoChanges,
    discover,
    checkStore: storeFileCheck(location), // the file opened, for /readyz
    observer,
    imaging,
    ...budgets,
  });
  const running = app;
  let closing: Promise<void> | undefined;
  return {
    fetch: running.handler,
    location,
    demo,
    workers,
    budgets,
    app: running,
    warmUp() {
      // Not at once: creating a worker holds the serving thread, and the
      // request that woke a cold instance is answered first.
      const timer = setTimeout(() => {
        if (closing !== undefined) return;
        if (workers > 0) pool();
        if (discover !== undefined) void startDiscovery().catch(() => {});
      }, WARM_UP_DELAY_MS);
      Deno.unrefTimer(timer);
    },
    close() {
      closing ??= (async () => {
        void logoChanges.stop(); // no new read; one in flight is not waited for
        if (await within(running.close(), QUOTA_RETURN_TIMEOUT_MS) === "timeout") {
          console.error("KV did not take unspent rate-limit quota back in time; it expires.");
        }
        const stopDiscovery = discovery?.then((started) => started?.close());
        await within(stopDiscovery ?? Promise.resolve(), DISCOVERY_CLOSE_TIMEOUT_MS);
        await stopRenderPool(renderPool, print);
        kv.close();
      })();
      return closing;
    },
  };
}
