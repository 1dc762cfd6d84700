/**
 * Discovery as the running service uses it, configured by the server's settings
 * ({@link DiscoverySettings}, read and checked at start-up by `src/settings/`):
 *
 * - `LOGO_DISCOVERY`: `on` (default) or `off`;
 * - `LOGO_CONNECT_TO`: resolve overrides, `host:port:address:port,…` (see `connect_to.ts`);
 * - `LOGO_DNS_SERVER`: the name server of discovery's DNS lookups, `address:port` (see `bimi.ts`);
 * - `DENO_CERT`: a PEM file of extra CA certificates (a private CA's), trusted besides the default
 *   roots (`extra_ca.ts`).
 *
 * On a miss the endpoint waits for discovery at most {@link REQUEST_BUDGET_MS} (3 s): a miss that
 * takes longer answers 404 while discovery finishes in the background, and a later request finds
 * the logo. Discovery looks for the logo of the registrable domain (`lookupChain`'s last entry),
 * which every subdomain falls back to, so random subdomains cannot each start a discovery. Each
 * discovery stores the site's wordmark beside its icon (`DiscoveryConfig.wordmarks`). An hourly
 * sweep refreshes discovered logos and wordmarks older than 30 days. Each failed discovery is logged
 * once with its reason (see `failure_memory.ts` for how long a failure is remembered), at most 10
 * lines a minute (`src/observe/bounded_log.ts`).
 * `close()` waits for background discoveries at most `closeTimeoutMs` (2 s), so a KV that no
 * longer answers cannot hold up shutdown.
 *
 * @module
 */
import { createBoundedLog } from "../observe/bounded_log.ts";
import { lookupChain } from "../domain_name.ts";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { SingleFlight } from "../single_flight.ts";
import { LogoStore } from "../store/logo_store.ts";
import { logosOfType } from "../store/typed_logo_store.ts";
import type { NameServer } from "./bimi.ts";
import type { ConnectToMap } from "./connect_to.ts";
import { discoveryEnabled } from "./discovery_setting.ts";
import { trustedRoots } from "./fetch_hop.ts";

export { discoveryEnabled };
import { createDiscovery, type Discovery, type DiscoveryConfig } from "./discover.ts";
import { IMAGE_DEADLINE_MS } from "./measure_image.ts";

/** How long a request waits for discovery before answering 404. */
export const REQUEST_BUDGET_MS = 3_000;
/** How often stale discovered logos are looked for again. */
export const REFRESH_SWEEP_MS = 60 * 60 * 1000;

/** Discovery wired for the endpoint. */
export interface DiscoveryService {
  /** For `AppDeps.discover`: resolves when discovery is done or the request budget is spent. */
  discover(domain: string): Promise<void>;
  /** The underlying discovery. */
  discovery: Discovery;
  /**
   * Resolves once the image pool that decodes what discovery fetches has loaded imagecore, so that
   * no request budget counts that loading; `main.ts` waits for it before serving.
   */
  ready(): Promise<void>;
  /**
   * Stops the refresh sweep, cuts background discoveries short and waits for them to end, at
   * most `closeTimeoutMs`; resolves `false` when some were still running then.
   */
  close(): Promise<boolean>;
}

/** Discovery's settings, parsed: the server's settings (`src/settings/`) hold them. */
export interface DiscoverySettings {
  /** `LOGO_DISCOVERY`: whether discovery runs at all. */
  readonly discovery: boolean;
  /** `LOGO_CONNECT_TO`: resolve overrides. */
  readonly connectTo: ConnectToMap;
  /** `LOGO_DNS_SERVER`: the name server to ask, or undefined for the system's. */
  readonly dnsServer: NameServer | undefined;
  /** `DENO_CERT`'s certificates, trusted besides the default roots, or undefined. */
  readonly extraCaCerts: string[] | undefined;
}

/** Options of {@link startDiscoveryService}, beyond the settings. */
export interface DiscoveryServiceOptions extends Partial<DiscoveryConfig> {
  /** How long a request waits; default {@link REQUEST_BUDGET_MS}. */
  requestBudgetMs?: number;
  /** Refresh sweep period; default {@link REFRESH_SWEEP_MS}; 0 disables the sweep. */
  sweepMs?: number;
  /** Where failed discoveries and background failures are reported; default `console.error`. */
  log?: (message: string, error?: unknown) => void;
  /** How long `close()` waits for background discoveries; default 2000 ms. */
  closeTimeoutMs?: number;
  /** Told each discovery's outcome (`stored`, `not-found`…, or `error`) and duration in s. */
  onDiscovery?: (outcome: string, seconds: number) => void;
}

/**
 * Starts discovery for the service with `settings`, or returns undefined when `LOGO_DISCOVERY=off`.
 * A `DENO_CERT`'s certificates are trusted besides the default roots unless `options.caCerts`
 * replaces the roots.
 *
 * @example
 * ```ts
 * import { createApp } from "../http/app.ts";
 * import { NO_CONNECT_TO } from "./connect_to.ts";
 *
 * const kv = await Deno.openKv();
 * const settings = {
 *   discovery: true,
 *   connectTo: NO_CONNECT_TO,
 *   dnsServer: undefined,
 *   extraCaCerts: undefined,
 * };
 * const discovery = startDiscoveryService(kv, settings);
 * const app = createApp({ kv, discover: discovery?.discover });
 * ```
 */
export function startDiscoveryService(
  kv: Deno.Kv,
  settings: DiscoverySettings,
  options: DiscoveryServiceOptions = {},
): DiscoveryService | undefined {
  if (!settings.discovery) return undefined;
  const log = options.log ?? console.error;
  // Failed discoveries are logged with their reason at a bounded rate (src/observe/bounded_log.ts).
  const failures = createBoundedLog({ log, clock: options.clock });
  const failureLog = failures.kind("discovery failure");
  const onDiscovery = options.onDiscovery ?? (() => {});
  const shutdown = new AbortController();
  const { connectTo, dnsServer, extraCaCerts } = settings;
  // Fetched bytes are decoded in a worker pool, started now, unless the caller passes its own.
  const pool = options.imaging ? undefined : startImagePool({ deadlineMs: IMAGE_DEADLINE_MS });
  const imaging = options.imaging ?? pool!;
  const logos = new LogoStore(kv, { clock: options.clock, imaging });
  const discovery = createDiscovery({
    signal: shutdown.signal,
    kv,
    store: logos,
    wordmarks: logosOfType(logos, "logo"), // stored and refreshed beside the icon (discover.ts)
    connectTo,
    dnsServer,
    ...options,
    caCerts: options.caCerts ?? (extraCaCerts ? trustedRoots(extraCaCerts) : undefined),
    imaging,
    log: (message) => failureLog(message),
  });
  const requestBudgetMs = options.requestBudgetMs ?? REQUEST_BUDGET_MS;
  const background = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    background.add(promise);
    promise.finally(() => background.delete(promise)).catch(() => {});
    return promise;
  };
  const sweeping = new SingleFlight<"sweep", unknown>(); // a sweep still running is not doubled
  const sweepMs = options.sweepMs ?? REFRESH_SWEEP_MS;
  const timer = sweepMs > 0
    ? setInterval(() => {
      track(sweeping.run("sweep", () =>
        discovery.refreshStale().catch((error) =>
          log("Discovery refresh sweep failed", error)
        )));
    }, sweepMs)
    : undefined;
  if (timer !== undefined) Deno.unrefTimer(timer);

  return {
    discovery,
    discover(domain) {
      const target = lookupChain(domain).at(-1) ?? domain;
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      const done = track(
        discovery.discover(target).then(
          (outcome) => onDiscovery(outcome.status, seconds()),
          (error) => {
            onDiscovery("error", seconds());
            failureLog(`Discovery failed for ${target}`, error);
          },
        ),
      );
      let timeout: ReturnType<typeof setTimeout> | undefined;
      const budget = new Promise<void>((resolve) => {
        timeout = setTimeout(resolve, requestBudgetMs);
      });
      return Promise.race([done, budget]).finally(() => clearTimeout(timeout));
    },
    ready: () => pool?.ready() ?? Promise.resolve(),
    async close() {
      if (timer !== undefined) clearInterval(timer);
      failures.flush();
      shutdown.abort();
      const poolClosed = pool?.close(); // fails the image jobs in flight: discoveries end sooner
      let deadline: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        deadline = setTimeout(() => resolve(false), options.closeTimeoutMs ?? 2_000);
      });
      const settled = Promise.allSettled([...background]).then(() => true);
      const finished = await Promise.race([settled, timedOut]).finally(() =>
        clearTimeout(deadline)
      );
      await poolClosed;
      return finished;
    },
  };
}
