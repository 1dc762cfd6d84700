/**
 * `deno task start`: serves Logo Lookup on `PORT` (default 8000) with Deno KV at `LOGO_KV`
 * (default `./data/logo-lookup.kv`; a remote `https://` KV works the same with
 * `DENO_KV_ACCESS_TOKEN`). On an empty store it seeds a demo key and demo logos and prints a
 * ready-to-paste URL. Logo discovery on a miss is on unless `LOGO_DISCOVERY=off`. SIGINT/SIGTERM
 * stop it cleanly: in-flight requests finish, unspent rate-limit quota is given back, background
 * discoveries stop, KV is closed.
 *
 * @module
 */
import { createApp } from "./app.ts";
import { startDiscoveryService } from "./discovery/service.ts";
import { seedIfEmpty } from "./seed.ts";
import { kvLocation, openKv } from "./store/open_kv.ts";

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

/** Starts the service and resolves once it has stopped after SIGINT or SIGTERM. */
export async function main(): Promise<void> {
  const port = parsePort(Deno.env.get("PORT"));
  const location = kvLocation(Deno.env.get("LOGO_KV"));
  const kv = await openKv(location);
  const demo = await seedIfEmpty(kv);
  const discovery = startDiscoveryService(kv, (name) => Deno.env.get(name));
  const app = createApp({ kv, discover: discovery?.discover });

  let stopping: Promise<void> | undefined;
  const server = Deno.serve({
    port,
    onListen({ hostname, port }) {
      const host = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
      const base = `http://${host}:${port}`;
      console.log(`Logo Lookup listening on ${base} (KV: ${location})`);
      if (demo !== null) {
        console.log(`${demo.created ? "Created a demo key and logos." : "Demo key:"} Try:`);
        console.log(`  ${base}${demo.path}`);
      }
    },
  }, app.handler);

  const stop = () => {
    stopping ??= (async () => {
      console.log("Stopping…");
      await server.shutdown();
      await app.close();
      await discovery?.close();
      kv.close();
    })();
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await server.finished;
  await stopping;
  Deno.removeSignalListener("SIGINT", stop);
  Deno.removeSignalListener("SIGTERM", stop);
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    Deno.exit(1);
  }
}
