/**
 * `deno task start`: serves Logo Lookup on `PORT` (default 8000) with Deno KV at `LOGO_KV`
 * (default `./data/logo-lookup.kv`; a remote `https://` KV works the same with
 * `DENO_KV_ACCESS_TOKEN`). On an empty store it seeds a demo key and demo logos and prints a
 * ready-to-paste URL. Logo discovery on a miss is on unless `LOGO_DISCOVERY=off`. SIGINT/SIGTERM
 * stop it cleanly and within a few seconds whatever KV does: in-flight requests finish, unspent
 * rate-limit quota is given back (bounded by {@link QUOTA_RETURN_TIMEOUT_MS}), background
 * discoveries stop (bounded too), KV is closed. `--help` prints {@link USAGE}. A setting that
 * cannot work (a port in use, a store that cannot be opened) stops it with a one-line message
 * naming the setting and what to do, and exit status 1.
 *
 * @module
 */
import { createApp } from "./http/app.ts";
import { parseDnsServer } from "./discovery/bimi.ts";
import { parseConnectTo } from "./discovery/connect_to.ts";
import { discoveryEnabled, startDiscoveryService } from "./discovery/service.ts";
import { createObserver, readObserveSettings } from "./observe/request_observer.ts";
import { safeLog } from "./safe_log.ts";
import { seedIfEmpty } from "./store/seed.ts";
import { DEFAULT_KV_PATH, kvLocation, openKv } from "./store/open_kv.ts";
import { LogoChangeFeed } from "./store/logo_change_feed.ts";
import {
  connectionLimits,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  describeLimits,
  MAX_DEFAULT_CONNECTIONS,
  readDescriptorLimit,
  RESERVED_DESCRIPTORS,
} from "./server/connection_limits.ts";
import { type ConnectionServer, serveConnections } from "./server/serve_connections.ts";
import { parseProcessCount, PROCESS_INDEX_VARIABLE } from "./server/process_count.ts";
import { supervise } from "./server/processes.ts";
import { supervisedChild } from "./server/supervised_child.ts";
import {
  MAX_RENDER_WORKERS,
  renderWorkers,
  startRenderPool,
  stopRenderPool,
} from "./server/render_pool.ts";
import { storeFileCheck } from "./store/store_identity.ts";
import { memoryFigures } from "./server/memory_figures.ts";
import { describeCacheBudgets, MAX_CACHE_MB, readCacheBudgets } from "./server/cache_budgets.ts";
import { hostnameError, parseHostname, urlHost } from "./server/listen_address.ts";

/** Default port when `PORT` is unset. */
export const DEFAULT_PORT = 8000;

/**
 * Reads the port from `PORT`.
 *
 * @throws {RangeError} "Invalid PORT …" unless it is a whole number from 0 to 65535.
 */
export function parsePort(value: string | undefined): number {
  const text = value?.trim();
  if (!text) return DEFAULT_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535 || String(port) !== text) {
    throw new RangeError(`Invalid PORT "${value}": expected a whole number from 0 to 65535`);
  }
  return port;
}

/** How long shutdown waits for unspent rate-limit quota to be given back to KV. */
export const QUOTA_RETURN_TIMEOUT_MS = 2_000;
/** How long shutdown waits for background discoveries to stop. */
export const DISCOVERY_CLOSE_TIMEOUT_MS = 1_000;

/** What `deno task start --help` prints: every setting `src/` reads from the environment. */
export const USAGE = `Usage: deno task start [--help]

Serves Logo Lookup: GET /{domain}?token=pk_… answers with the domain's logo; GET /healthz
(200 while serving) and GET /readyz (200, or 503 when the store does not answer or its file was
deleted or replaced) are the probes.
Settings, all read from the environment:

  PORT                  TCP port to listen on (default ${DEFAULT_PORT}; 0 picks a free port).
  LOGO_HOSTNAME         IP address to listen on (default 0.0.0.0, every IPv4 address;
                        127.0.0.1 behind a reverse proxy on the same machine; :: for IPv6).
  LOGO_KV               The store: a file path (default ${DEFAULT_KV_PATH}; its directory is
                        created), :memory:, platform (Deno.openKv() with no path: on Deno
                        Deploy the app's own KV; the default when DENO_DEPLOYMENT_ID is
                        set), or the http(s):// URL of a KV Connect server (a denokv server
                        or Deno Deploy KV).
  DENO_KV_ACCESS_TOKEN  Access token of the remote KV named by LOGO_KV (read by Deno).
  LOGO_DISCOVERY        on (default) or off: on a miss, look for the logo on the domain's own
                        website. Needs outbound HTTPS (and HTTP); without it misses are 404s
                        and discovery retries after 1 min, 2, 4 … up to 1 h.
  LOGO_CONNECT_TO       host:port:address:port,… send discovery's connections for host:port to
                        address:port instead (private deployments, tests).
  LOGO_DNS_SERVER       address:port ([v6]:port) of the name server discovery asks (A, AAAA and
                        BIMI TXT lookups) instead of the system's (private deployments, tests).
  LOGO_MAX_CONNECTIONS  Most client connections held at once; at the cap the oldest one with no
                        request being answered is closed for a new one (default: what the
                        open-file limit leaves after ${RESERVED_DESCRIPTORS} descriptors, at most ${MAX_DEFAULT_CONNECTIONS}).
  LOGO_HEADERS_TIMEOUT_MS
                        A client must send its whole request within this many ms (default
                        ${DEFAULT_HEADERS_TIMEOUT_MS}); else 408 and the connection is closed.
  LOGO_IDLE_TIMEOUT_MS  A keep-alive connection with no request for this many ms (plus about
                        1 s) is closed (default ${DEFAULT_IDLE_TIMEOUT_MS}).
  LOGO_ACCESS_LOG       off (default), json or logfmt: one line per request on stdout
                        (docs/observability.md). Never a token or a query string.
  LOGO_ACCESS_LOG_SAMPLE
                        Share of requests in the access log, above 0 and at most 1 (default 1).
  LOGO_METRICS_TOKEN    Turns on GET /metrics (Prometheus text) for Authorization: Bearer
                        <this token>, at least 16 characters; unset: /metrics does not exist.
  OTEL_DENO             true: Deno's OpenTelemetry export, with a span per request step
                        (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL; read by Deno).
  LOGO_PROCESSES        Server processes sharing PORT (Linux), each with its own caches over
                        the one store: 1 (default), a number up to 64, or auto (one per core).
                        Above 1 a supervisor starts them, replaces one that dies, stops them all.
  LOGO_VARIANT_CACHE_MB Memory for rendered logos (and default renditions read from the
                        store) per process, in MiB, 0 to ${MAX_CACHE_MB} (default 64).
  LOGO_SOURCE_CACHE_MB  Memory for stored renditions kept to render from, per process, in
                        MiB, 0 to ${MAX_CACHE_MB} (default 32).
  LOGO_RECORD_CACHE_MB  Memory for logo records (each with its default image) per process, in
                        MiB, 0 to ${MAX_CACHE_MB} (default 32). docs/capacity.md: what RSS to expect.
  LOGO_RENDER_WORKERS   Worker threads per process that render resized, greyscale or themed
                        logos, 0 to ${MAX_RENDER_WORKERS} (default: the cores divided among
                        LOGO_PROCESSES, at least 1; 0 renders in the serving isolate).

SIGINT or SIGTERM stops it within a few seconds: in-flight requests finish, unspent rate-limit
quota is given back (given up after ${
  QUOTA_RETURN_TIMEOUT_MS / 1000
} s if KV does not answer), KV is closed.
`;

/** Resolves with `promise`'s outcome, or with "timeout" after `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<"done" | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"timeout">((resolve) => timer = setTimeout(resolve, ms, "timeout"));
  try {
    return await Promise.race([promise.then(() => "done" as const, () => "done" as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The start-up error of a port that cannot be listened on, naming `PORT` and what to do. */
export function listenError(port: number, error: unknown): Error {
  const setting = `Cannot listen on PORT=${port}`;
  if (error instanceof Deno.errors.AddrInUse) {
    return new Error(`${setting}: the port is in use. Stop the other process or set PORT.`);
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return new Error(`${setting}: not permitted (ports below 1024 need privileges). Set PORT.`);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`${setting}: ${reason}. Set PORT to a free port.`);
}

/** Starts the service and resolves once it has stopped after SIGINT or SIGTERM. */
export async function main(): Promise<void> {
  const port = parsePort(Deno.env.get("PORT"));
  const hostname = parseHostname(Deno.env.get("LOGO_HOSTNAME"));
  const location = kvLocation(Deno.env.get("LOGO_KV"), Deno.env.get("DENO_DEPLOYMENT_ID"));
  // Settings are checked before anything is opened, so a typo costs nothing.
  discoveryEnabled(Deno.env.get("LOGO_DISCOVERY"));
  parseConnectTo(Deno.env.get("LOGO_CONNECT_TO"));
  parseDnsServer(Deno.env.get("LOGO_DNS_SERVER"));
  const limits = connectionLimits((name) => Deno.env.get(name), readDescriptorLimit());
  const budgets = readCacheBudgets((name) => Deno.env.get(name)); // docs/capacity.md
  const observer = createObserver({
    settings: readObserveSettings((name) => Deno.env.get(name)),
    // read when /metrics is scraped, after the pool below has started
    queueDepth: () => renderPool?.stats().queued ?? 0,
    memory: () => memoryFigures(app, renderPool), // logo_memory_bytes{part}
  });
  const supervised = supervisedChild((name) => Deno.env.get(name)); // one of LOGO_PROCESSES
  const workers = renderWorkers(
    Deno.env.get("LOGO_RENDER_WORKERS"),
    navigator.hardwareConcurrency,
    parseProcessCount(Deno.env.get("LOGO_PROCESSES"), navigator.hardwareConcurrency),
  );
  const kv = await openKv(location);
  const checkStore = storeFileCheck(location); // the file opened, for /readyz
  const demo = await seedIfEmpty(kv);
  const discovery = startDiscoveryService(kv, (name) => Deno.env.get(name), {
    closeTimeoutMs: DISCOVERY_CLOSE_TIMEOUT_MS,
    log: safeLog(console.error), // no query string or token in a log line (src/safe_log.ts)
    onDiscovery: observer.metrics?.discovery, // the discovery latency histogram
  });
  await discovery?.ready(); // imagecore loaded in the image worker before the first request
  const renderPool = startRenderPool(workers); // docs/render_pool.md
  await renderPool?.ready();
  console.log(workers === 0 ? "Renders run inline." : `Render workers: ${workers}.`);
  // Other processes' logo writes, read once a second: cached records stay until one names them.
  const logoChanges = new LogoChangeFeed(kv, { log: safeLog(console.error) });
  logoChanges.start();
  const app = createApp({
    kv,
    logoChanges,
    discover: discovery?.discover,
    checkStore,
    observer,
    imaging: renderPool,
    ...budgets,
  });
  const closeRenderPool = () => stopRenderPool(renderPool); // bounded

  let stopping: Promise<void> | undefined;
  // Not Deno.serve: no timeouts, and running out of descriptors ends it (serve_connections.ts).
  const serving = serveConnections(
    { port, hostname, limits, reusePort: !!supervised },
    app.handler,
  );
  // Every step that may wait on KV is bounded: a KV that stopped answering cannot hold the
  // process (the entry point exits once this is done, whatever KV calls are still pending).
  const stop = () => {
    stopping ??= (async () => {
      console.log("Stopping…");
      await serving.then((server) => server.shutdown(), () => undefined);
      void logoChanges.stop(); // no new read; one in flight is not waited for
      if (await within(app.close(), QUOTA_RETURN_TIMEOUT_MS) === "timeout") {
        console.error("KV did not take unspent rate-limit quota back in time; it expires.");
      }
      await within(discovery?.close() ?? Promise.resolve(), DISCOVERY_CLOSE_TIMEOUT_MS);
      await closeRenderPool();
      kv.close();
    })();
  };
  // Installed before listening: a signal right after the "listening" line stops it cleanly
  // (without a listener, SIGTERM's default action ends the process with status 143).
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  supervised?.supervisorGone().then(stop); // never an orphan serving on
  let server: ConnectionServer;
  try {
    server = await serving;
    const base = `http://${urlHost(server.addr.hostname)}:${server.addr.port}`;
    console.log(`Logo Lookup listening on ${base} (KV: ${location})`);
    console.log(describeLimits(limits));
    console.log(describeCacheBudgets(budgets));
    if (demo !== null) {
      console.log(`${demo.created ? "Created a demo key and logos." : "Demo key:"} Try:`);
      console.log(`  ${base}${demo.path}`);
      console.log(`  or paste the key into the page at ${base}/`);
    }
    supervised?.ready(server.addr.port);
  } catch (error) {
    Deno.removeSignalListener("SIGINT", stop);
    Deno.removeSignalListener("SIGTERM", stop);
    stopping ??= (async () => {
      void logoChanges.stop();
      await within(discovery?.close() ?? Promise.resolve(), DISCOVERY_CLOSE_TIMEOUT_MS);
      await closeRenderPool();
      kv.close();
    })();
    await stopping;
    throw hostnameError(hostname, error) ?? listenError(port, error);
  }

  await server.finished;
  await stopping;
  Deno.removeSignalListener("SIGINT", stop);
  Deno.removeSignalListener("SIGTERM", stop);
}

if (import.meta.main) {
  if (Deno.args.includes("--help") || Deno.args.includes("-h")) {
    console.log(USAGE);
    Deno.exit(0);
  }
  if (Deno.args.length > 0) {
    console.error(`Unknown argument "${Deno.args[0]}": settings are environment variables.\n`);
    console.error(USAGE);
    Deno.exit(2);
  }
  try {
    const processes = parseProcessCount(
      Deno.env.get("LOGO_PROCESSES"),
      navigator.hardwareConcurrency,
    );
    if (processes > 1 && Deno.env.get(PROCESS_INDEX_VARIABLE) === undefined) {
      const port = parsePort(Deno.env.get("PORT"));
      Deno.exit(
        await supervise({
          count: processes,
          hostname: parseHostname(Deno.env.get("LOGO_HOSTNAME")),
          port,
          store: kvLocation(Deno.env.get("LOGO_KV"), Deno.env.get("DENO_DEPLOYMENT_ID")),
          portError: (error) => listenError(port, error),
        }),
      );
    }
    await main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    Deno.exit(1);
  }
  // Stopped: leave now, even if a KV client still retries calls that will never be answered.
  Deno.exit(0);
}
