/**
 * `deno task start`: serves Logo Lookup's fetch handler (`src/server/service.ts`, the same one
 * `src/serve.ts` gives `deno serve` and Deno Deploy) with `Deno.serve` on `PORT` (default 8000),
 * with Deno KV at `LOGO_KV` (default `./data/logo-lookup.kv`; a remote `https://` KV works the
 * same with `DENO_KV_ACCESS_TOKEN`). On an empty store it seeds a demo key and demo logos and
 * prints a ready-to-paste URL. SIGINT/SIGTERM stop it within a few seconds whatever KV does:
 * in-flight requests finish, unspent rate-limit quota is given back (bounded by
 * {@link QUOTA_RETURN_TIMEOUT_MS}), background discoveries stop, KV is closed. `--help` prints
 * {@link USAGE}. A setting that cannot work (a port in use, a store that cannot be opened) stops
 * it with a one-line message naming the setting and what to do, and exit status 1.
 *
 * @module
 */
import { DEFAULT_KV_PATH } from "./store/open_kv.ts";
import {
  DISCOVERY_CLOSE_TIMEOUT_MS,
  QUOTA_RETURN_TIMEOUT_MS,
  type Service,
  startService,
} from "./server/service.ts";
import { MAX_RENDER_WORKERS } from "./server/render_pool.ts";
import { describeCacheBudgets, MAX_CACHE_MB } from "./server/cache_budgets.ts";
import { hostnameError, parseHostname, urlHost } from "./server/listen_address.ts";
import { type HttpServer, serveHttp } from "./server/serve_http.ts";
import { DEFAULT_WATCHDOG_MS, parseWatchdogMs, startWatchdog } from "./server/watchdog.ts";

export { DISCOVERY_CLOSE_TIMEOUT_MS, QUOTA_RETURN_TIMEOUT_MS };

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

/** Whether `LOGO_REUSE_PORT` asks to share the port with other processes (`on`/`off`). */
export function parseReusePort(value: string | undefined): boolean {
  const text = value?.trim().toLowerCase();
  if (!text || text === "off") return false;
  if (text === "on") return true;
  throw new RangeError(`Invalid LOGO_REUSE_PORT "${value}": expected on or off`);
}

/** What `deno task start --help` prints: every setting `src/` reads from the environment. */
export const USAGE = `Usage: deno task start [--help]

Serves Logo Lookup: GET /{domain}?token=pk_… answers with the domain's logo; GET /healthz
(200 while serving) and GET /readyz (200, or 503 when the store does not answer or its file was
deleted or replaced) are the probes. The same handler runs under \`deno serve src/serve.ts\` and
on Deno Deploy (docs/operate/deploy.md).
Settings, all read from the environment:

  PORT                  TCP port to listen on (default ${DEFAULT_PORT}; 0 picks a free port).
  LOGO_HOSTNAME         IP address to listen on (default 0.0.0.0, every IPv4 address;
                        127.0.0.1 behind a reverse proxy on the same machine; :: for IPv6).
  LOGO_REUSE_PORT       on: share PORT with other instances that set it too (SO_REUSEPORT,
                        Linux); default off. One instance per core: docs/operate/scaling.md.
  LOGO_WATCHDOG_MS      When the serving thread has not run for this many ms (a hang), end
                        the process so that its supervisor replaces it (default
                        ${DEFAULT_WATCHDOG_MS}; 0: off). Needs --allow-run (the task has it).
  LOGO_KV               The store: a file path (default ${DEFAULT_KV_PATH}; its directory is
                        created), :memory:, platform (Deno.openKv() with no path: on Deno
                        Deploy the app's own KV; the default when DENO_DEPLOYMENT_ID is
                        set, where a file or :memory: is refused), or the http(s):// URL of
                        a KV Connect server (a denokv server or Deno Deploy KV).
  DENO_KV_ACCESS_TOKEN  Access token of the remote KV named by LOGO_KV (read by Deno).
  LOGO_DISCOVERY        on (default) or off: on a miss, look for the logo on the domain's own
                        website. Needs outbound HTTPS (and HTTP); without it misses are 404s
                        and discovery retries after 1 min, 2, 4 … up to 1 h.
  LOGO_CONNECT_TO       host:port:address:port,… send discovery's connections for host:port to
                        address:port instead (private deployments, tests).
  LOGO_DNS_SERVER       address:port ([v6]:port) of the name server discovery asks (A, AAAA and
                        BIMI TXT lookups) instead of the system's (private deployments, tests).
  LOGO_ACCESS_LOG       off (default), json or logfmt: one line per request on stdout
                        (docs/operate/observability.md). Never a token or a query string.
  LOGO_ACCESS_LOG_SAMPLE
                        Share of requests in the access log, above 0 and at most 1 (default 1).
  LOGO_METRICS_TOKEN    Turns on GET /metrics (Prometheus text) for Authorization: Bearer
                        <this token>, at least 16 characters; unset: /metrics does not exist.
  OTEL_DENO             true: Deno's OpenTelemetry export, with a span per request step
                        (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL; read by Deno).
  LOGO_VARIANT_CACHE_MB Memory for rendered logos (and default renditions read from the
                        store), in MiB, 0 to ${MAX_CACHE_MB} (default 64).
  LOGO_SOURCE_CACHE_MB  Memory for stored renditions kept to render from, in MiB, 0 to
                        ${MAX_CACHE_MB} (default 32).
  LOGO_RECORD_CACHE_MB  Memory for logo records (each with its default image), in MiB, 0 to
                        ${MAX_CACHE_MB} (default 32). docs/operate/capacity.md: what RSS to expect.
  LOGO_RENDER_WORKERS   Worker threads that render resized, greyscale or themed logos, 0 to
                        ${MAX_RENDER_WORKERS} (default: one per core; 0 renders in the serving
                        isolate).
  LOGO_RENDER_DEADLINE_MS
                        Longest a render may take once a worker has it, in ms, 100 to 60000
                        (default 2000); past it the answer is 503 with Retry-After.

Connections: Deno.serve has no header or idle timeout and no connection cap; put the nginx
recipe (docs/operate/deploy/nginx.conf) in front of any public instance. If clients take every file
descriptor, the listener is opened again as soon as they let go.

SIGINT or SIGTERM stops it within a few seconds: in-flight requests finish, unspent rate-limit
quota is given back (given up after ${
  QUOTA_RETURN_TIMEOUT_MS / 1000
} s if KV does not answer), KV is closed.
`;

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
  const env = (name: string) => Deno.env.get(name);
  const port = parsePort(env("PORT"));
  const hostname = parseHostname(env("LOGO_HOSTNAME"));
  const reusePort = parseReusePort(env("LOGO_REUSE_PORT"));
  const watchdogMs = parseWatchdogMs(env("LOGO_WATCHDOG_MS"));
  const service: Service = await startService(env);

  let server: HttpServer | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      console.log("Stopping…");
      await server?.shutdown(); // in-flight requests finish
      await service.close(); // every step bounded
    })();
  };
  // Installed before listening: a signal right after the "listening" line stops it cleanly.
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  try {
    server = await serveHttp({ port, hostname, reusePort }, service.fetch);
  } catch (error) {
    Deno.removeSignalListener("SIGINT", stop);
    Deno.removeSignalListener("SIGTERM", stop);
    await service.close();
    throw hostnameError(hostname, error) ?? listenError(port, error);
  }
  service.warmUp(); // render workers and discovery load now, not before the first request
  const watchdog = startWatchdog(watchdogMs); // a hung serving thread ends the process
  const base = `http://${urlHost(server.addr.hostname)}:${server.addr.port}`;
  console.log(`Logo Lookup listening on ${base} (KV: ${service.location})`);
  console.log(
    service.workers === 0 ? "Renders run inline." : `Render workers: ${service.workers}.`,
  );
  console.log(describeCacheBudgets(service.budgets));
  if (service.demo !== null) {
    const demo = service.demo;
    console.log(`${demo.created ? "Created a demo key and logos." : "Demo key:"} Try:`);
    console.log(`  ${base}${demo.path}`);
    console.log(`  or paste the key into the page at ${base}/`);
  }
  await server.finished;
  await stopping;
  watchdog?.stop();
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
    await main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    Deno.exit(1);
  }
  // Stopped: leave now, even if a KV client still retries calls that will never be answered.
  Deno.exit(0);
}
