/**
 * The fetch handler as an entry point, for `deno serve src/serve.ts` and Deno Deploy: the default
 * export `{ fetch }` is the same handler `deno task start` serves (`src/server/service.ts`).
 * Settings come from the environment as for `deno task start` (`src/settings/`; the port is the
 * runner's: `deno serve --port`, or the platform's, so `PORT` and the other listen settings are
 * not read). Start-up happens once per isolate when this module is
 * evaluated; a bad setting fails it with a one-line message. On Deno Deploy (`DENO_DEPLOYMENT_ID`
 * set) the store is the deployment's KV and no demo key is seeded (docs/operate/deploy.md).
 *
 * ```sh
 * deno serve -A --unstable-kv --port 8000 src/serve.ts
 * ```
 *
 * @module
 */
import { startService } from "./server/service.ts";
import { urlHost } from "./server/listen_address.ts";
import { processEnv } from "./settings/process_env.ts";
import { readSettings } from "./settings/read_settings.ts";

const service = await startService(readSettings(processEnv(), "serve"));
// `deno serve` stops taking requests on SIGINT/SIGTERM and exits once nothing else runs: the
// service's timers, workers and KV close here, as `deno task start` closes them.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => void service.close());
}
if (service.demo !== null) console.log(`Demo logo: ${service.demo.path}`);

/**
 * The service's fetch handler, as `deno serve` and Deno Deploy take it; once listening, the render
 * workers and discovery start loading.
 */
export default {
  fetch: service.fetch,
  onListen(addr) {
    const { hostname, port } = addr as Deno.NetAddr;
    console.log(
      `Logo Lookup listening on http://${urlHost(hostname)}:${port} (KV: ${service.location})`,
    );
    service.warmUp();
  },
} satisfies Deno.ServeDefaultExport;
