/**
 * `deno task start`: serves Logo Lookup's fetch handler (`src/server/service.ts`, the same one
 * `src/serve.ts` gives `deno serve` and Deno Deploy) with `Deno.serve` on `PORT` (default 8000),
 * with Deno KV at `LOGO_KV` (default `./data/logo-lookup.kv`; a remote `https://` KV works the
 * same with `DENO_KV_ACCESS_TOKEN`). On an empty store it seeds a demo key and demo logos and
 * prints a ready-to-paste URL. SIGINT/SIGTERM stop it within a few seconds whatever KV does:
 * in-flight requests finish, unspent rate-limit quota is given back (bounded by
 * {@link QUOTA_RETURN_TIMEOUT_MS}), background discoveries stop, KV is closed. `--help` prints
 * {@link USAGE}, made from the settings table (`src/settings/`). A setting that cannot work (a
 * bad value, a port in use, a store that cannot be opened) stops it with a one-line message
 * naming the setting and what to do, and exit status 1.
 *
 * @module
 */
import {
  DISCOVERY_CLOSE_TIMEOUT_MS,
  QUOTA_RETURN_TIMEOUT_MS,
  type Service,
  startService,
} from "./server/service.ts";
import { describeCacheBudgets } from "./server/cache_budgets.ts";
import { hostnameError, urlHost } from "./server/listen_address.ts";
import { type HttpServer, serveHttp } from "./server/serve_http.ts";
import { startWatchdog } from "./server/watchdog.ts";
import { processEnv } from "./settings/process_env.ts";
import { readSettings } from "./settings/read_settings.ts";
import type { SettingsEnv } from "./settings/setting.ts";
import { PROGRAM_NAMES, settingsHelp } from "./settings/settings_help.ts";

export { DISCOVERY_CLOSE_TIMEOUT_MS, QUOTA_RETURN_TIMEOUT_MS };

/** What `deno task start --help` prints: every setting the server reads (`src/settings/`). */
export const USAGE = `Usage: deno task start [--help]

Serves Logo Lookup: GET /{domain}?token=pk_… answers with the domain's logo; GET /healthz
(200 while serving) and GET /readyz (200, or 503 when the store does not answer or its file was
deleted or replaced) are the probes. The same handler runs under \`deno serve src/serve.ts\` and
on Deno Deploy (docs/operate/deploy.md).
Settings, all read from the environment; in brackets the programs that read each: start is
${PROGRAM_NAMES.start}, serve is ${PROGRAM_NAMES.serve}, admin is ${PROGRAM_NAMES.admin}.

${settingsHelp(["start", "serve"], { readBy: true })}
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

/**
 * Reads the settings from `env` (default: the process's), starts the service and resolves once it
 * has stopped after SIGINT or SIGTERM.
 *
 * @throws {Error} the one-line message of a bad setting, before anything is opened.
 */
export async function main(env: SettingsEnv = processEnv()): Promise<void> {
  const settings = readSettings(env, "start");
  const { port, hostname, reusePort } = settings;
  const service: Service = await startService(settings);

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
  const watchdog = startWatchdog(settings.watchdogMs); // a hung serving thread ends the process
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
