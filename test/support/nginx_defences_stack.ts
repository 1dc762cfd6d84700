/**
 * Issue #29's defences, kept behind the shipped proxy (`nginx_defences_*_test.ts`): the real
 * `src/main.ts` (`Deno.serve`, its access log on: one JSON line per request its handler answers)
 * behind the real nginx recipe (`docs/operate/deploy/nginx.conf`, both upstream lines pointing at that one
 * instance), moved as `deploy_nginx_test.ts` moves it (`startDeployRecipe`), with nginx's main
 * context as the recipe's comments advise and one addition: an access log of the test's own format
 * on nginx's stderr ({@link ACCESS_LOG}: which client connection, nginx's status, what nginx passed
 * to the service and what came back). Every other directive is the recipe's, timeouts included.
 * The same defences without nginx: `malformed_requests_test.ts`,
 * `test/server/connection_limits_test.ts`.
 */
import assert from "node:assert/strict";
import { prepareCorpusStore } from "./corpus_store.ts";
import { externalTool } from "./external_tool.ts";
import { latin1 } from "./latin1.ts";
import { type MainProcess, startMainProcess } from "./main_process.ts";
import { ACCESS_LOG } from "./nginx_access_log.ts";
import { type NginxCache, startDeployRecipe } from "./nginx_cache.ts";
import { MAIN_CONTEXT } from "./recipe_settings.ts";

/** nginx, or why the tests that need it are ignored. */
export const nginx = externalTool("nginx", ["/usr/sbin/nginx"], "apt-get install nginx");
const encoder = new TextEncoder();

/** What no line the service prints may contain: a `token=` parameter, a key token, a query. */
const FORBIDDEN = [/token=/i, /[ps]k_[0-9a-z]/i, /\?[^\s]*=/];

/** `request` as Latin-1 text (a string sent as UTF-8), its placeholders replaced (ASCII). */
export function fill(request: string | Uint8Array, values: Record<string, string>): string {
  const text = latin1(typeof request === "string" ? encoder.encode(request) : request);
  return text.replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
}

/** The real service behind the real recipe, over a store with the corpus's keys and logos. */
export interface Stack extends AsyncDisposable {
  readonly service: MainProcess;
  readonly proxy: NginxCache;
  /** The corpus's placeholders' values (tokens). */
  readonly values: Record<string, string>;
  /** The pid of nginx's worker, the process that holds the clients' connections. */
  readonly worker: number;
}

/** Starts the service over a new store with the corpus's keys and logos, and nginx before it. */
export async function startStack(): Promise<Stack> {
  const dir = await Deno.makeTempDir({ prefix: "nginx_defences_" });
  const opened: AsyncDisposable[] = [];
  const close = async () => {
    for (const resource of opened.reverse()) await resource[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  };
  try {
    const values = await prepareCorpusStore(`${dir}/store.kv`);
    const service = await startMainProcess({
      LOGO_KV: `${dir}/store.kv`,
      LOGO_HOSTNAME: "127.0.0.1",
      LOGO_ACCESS_LOG: "json",
    });
    opened.push(service);
    const proxy = await startDeployRecipe(nginx.path, {
      upstreams: [service.port],
      main: MAIN_CONTEXT,
      edit: (config) => ACCESS_LOG + config,
    });
    opened.push(proxy);
    const started = await proxy.line(/start worker process \d+/);
    const worker = Number(/start worker process (\d+)/.exec(started)![1]);
    return { service, proxy, values, worker, [Symbol.asyncDispose]: close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Stops the service, then checks that nothing it printed holds a token or a query string. */
export async function assertNoSecrets(stack: Stack): Promise<void> {
  const { service, values } = stack;
  assert.equal(await service.stop(), 0, service.printed.slice(-20).join("\n"));
  assert.ok(service.printed.some((line) => line.includes("listening on")), "output captured");
  const tokens = Object.values(values);
  const leaks = service.printed.filter((line) =>
    FORBIDDEN.some((pattern) => pattern.test(line)) || tokens.some((token) => line.includes(token))
  );
  assert.deepEqual(leaks, [], "printed by the service");
}
