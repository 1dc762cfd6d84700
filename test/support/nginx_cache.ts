/**
 * A real shared cache for integration tests: Debian's nginx as a caching reverse proxy
 * (`proxy_cache`) in front of an upstream URL, everything in a temporary directory. nginx decides
 * what to store from our `Cache-Control`/`Vary` alone (no `proxy_cache_valid`, no ignored headers),
 * revalidates with `If-None-Match` (`proxy_cache_revalidate on`), and tells each answer's fate in
 * `X-Cache-Status` (`MISS`, `HIT`, `EXPIRED`, `REVALIDATED`…) and the upstream's status in
 * `X-Upstream-Status` (empty when the service was not asked). `startDeployRecipe` runs the one-box
 * recipe of `docs/operate/deploy.md` (`docs/operate/deploy/nginx.conf`) instead, with only its addresses and
 * paths moved.
 *
 * @example
 * ```ts
 * import { externalTool } from "./external_tool.ts";
 * import { startNginxCache } from "./nginx_cache.ts";
 * const nginx = externalTool("nginx", ["/usr/sbin/nginx"], "apt-get install nginx");
 * await using cache = await startNginxCache(nginx.path, "http://127.0.0.1:8000");
 * await fetch(`${cache.url}/example.com?token=pk_…`);
 * ```
 * @module
 */
import assert from "node:assert/strict";
import { lines, readUntil } from "./lines.ts";

/** A running nginx cache. */
export interface NginxCache extends AsyncDisposable {
  /** Base URL of the proxy, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  /** The port it listens on (the port of {@link url}). */
  readonly port: number;
  /** The master process's id (its worker is its child). */
  readonly pid: number;
  /** What nginx wrote to its error log so far (for assertion messages). */
  log(): string;
  /**
   * Every line nginx has written on its stderr so far: its error log, and an access log a config
   * sends there (`access_log /dev/stderr …`).
   */
  readonly printed: readonly string[];
  /**
   * The first line of {@link printed} at index `from` or later that matches `pattern`, once
   * written; rejects if nginx's output ends first.
   */
  line(pattern: RegExp, from?: number): Promise<string>;
  /** Stops nginx and removes its directory. */
  close(): Promise<void>;
}

function freeLoopbackPort(): number {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  return port;
}

function config(dir: string, port: number, upstream: string): string {
  return mainConfig(
    dir,
    `
  access_log off;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=logos:1m;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass ${upstream};
      proxy_cache logos;
      proxy_cache_key $scheme$proxy_host$request_uri;
      proxy_cache_revalidate on;
      add_header X-Cache-Status $upstream_cache_status always;
      add_header X-Upstream-Status $upstream_status always;
    }
  }
`,
  );
}

/** What {@link mainConfig} sets in nginx's main context, beyond what a test needs anyway. */
export interface MainContext {
  /** `events { worker_connections N; }`: connections the one worker may hold; default 64. */
  workerConnections?: number;
  /** `worker_rlimit_nofile N;`: descriptors the worker may open; default: the inherited limit. */
  workerRlimitNofile?: number;
}

/**
 * A whole nginx.conf that runs unprivileged in `dir` (pid, temp paths, log on stderr) with `http`
 * as the body of its `http {}` block, one worker process, and the `main` context's limits.
 */
export function mainConfig(dir: string, http: string, main: MainContext = {}): string {
  const runsAsRoot = Deno.uid() === 0;
  const nofile = main.workerRlimitNofile;
  return `
${runsAsRoot ? "user root;" : ""}
worker_processes 1;
${nofile === undefined ? "" : `worker_rlimit_nofile ${nofile};`}
pid ${dir}/nginx.pid;
error_log stderr notice;
events { worker_connections ${main.workerConnections ?? 64}; }
http {
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${http}
}
`;
}

/**
 * Starts nginx (the binary at `nginxPath`) caching `upstream` on a free loopback port, and returns
 * once its master process has bound the port and started its worker (it says so on its log).
 *
 * @throws {Error} with nginx's log when it exits before that.
 */
export function startNginxCache(nginxPath: string, upstream: string): Promise<NginxCache> {
  return startNginx(nginxPath, (dir, port) => config(dir, port, upstream));
}

/**
 * Starts nginx (the binary at `nginxPath`) with the config `configure` makes for a temporary
 * directory and a free loopback port (see {@link mainConfig}), and returns once its master process
 * has bound the port and started its worker.
 *
 * @throws {Error} with nginx's log when it exits before that.
 */
export async function startNginx(
  nginxPath: string,
  configure: (dir: string, port: number) => string,
): Promise<NginxCache> {
  const dir = await Deno.makeTempDir({ prefix: "nginx_" });
  const port = freeLoopbackPort();
  await Deno.writeTextFile(`${dir}/nginx.conf`, configure(dir, port));
  const child = new Deno.Command(nginxPath, {
    args: ["-p", dir, "-e", "stderr", "-c", `${dir}/nginx.conf`, "-g", "daemon off;"],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const output = lines(child.stderr);
  const logged = await readUntil(output, (line) => line.includes("start worker process"));
  if (!logged.some((line) => line.includes("start worker process"))) {
    await child.status;
    await Deno.remove(dir, { recursive: true });
    throw new Error(`nginx did not start:\n${logged.join("\n")}`);
  }
  // Keep draining the log, so nginx never blocks on a full pipe.
  const waiters = new Set<() => void>();
  let ended = false;
  const drained = (async () => {
    for await (const line of output) {
      logged.push(line);
      for (const wake of waiters) wake();
    }
  })().finally(() => {
    ended = true;
    for (const wake of waiters) wake();
  });
  const line = (pattern: RegExp, from = 0) =>
    new Promise<string>((resolve, reject) => {
      const wake = () => {
        const found = logged.slice(from).find((text) => pattern.test(text));
        if (found === undefined && !ended) return;
        waiters.delete(wake);
        if (found !== undefined) resolve(found);
        else reject(new Error(`nginx wrote no line matching ${pattern}:\n${logged.join("\n")}`));
      };
      waiters.add(wake);
      wake();
    });
  let closed: Promise<void> | undefined;
  async function close(): Promise<void> {
    child.kill("SIGTERM");
    await child.status;
    await drained;
    await Deno.remove(dir, { recursive: true });
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    log: () => logged.join("\n"),
    printed: logged,
    line,
    close() {
      closed ??= close();
      return closed;
    },
    [Symbol.asyncDispose]() {
      closed ??= close();
      return closed;
    },
  };
}

/** The one-box recipe of `docs/operate/deploy.md`, as it ships. */
export const DEPLOY_RECIPE = new URL("../../docs/operate/deploy/nginx.conf", import.meta.url);

/**
 * Replaces `from`, which must occur exactly once in `config`, with `to`.
 *
 * @throws {AssertionError} when `from` occurs another number of times.
 */
export function moveOnce(config: string, from: string, to: string): string {
  const parts = config.split(from);
  assert.equal(parts.length, 2, `the recipe holds "${from}" exactly once`);
  return parts.join(to);
}

/** Options of {@link startDeployRecipe}. */
export interface DeployRecipeOptions {
  /** Ports (on 127.0.0.1) of the recipe's two instances; one port serves as both. */
  upstreams: readonly [number] | readonly [number, number];
  /** Further changes to the recipe (use {@link moveOnce}), after its addresses are moved. */
  edit?: (config: string) => string;
  /** The main context nginx runs with (see {@link mainConfig}). */
  main?: MainContext;
}

/**
 * Runs {@link DEPLOY_RECIPE} with only its addresses and paths moved, each of which must occur
 * exactly once: `server 127.0.0.1:8001` and `:8002` to `upstreams`, the cache directory into
 * nginx's temporary directory, and `listen 80 default_server;` to a free loopback port.
 */
export async function startDeployRecipe(
  nginxPath: string,
  options: DeployRecipeOptions,
): Promise<NginxCache> {
  const recipe = await Deno.readTextFile(DEPLOY_RECIPE);
  const [first, second = first] = options.upstreams;
  return await startNginx(nginxPath, (dir, port) => {
    let config = moveOnce(recipe, "server 127.0.0.1:8001 ", `server 127.0.0.1:${first} `);
    config = moveOnce(config, "server 127.0.0.1:8002 ", `server 127.0.0.1:${second} `);
    config = moveOnce(config, "/var/cache/nginx/logo-lookup", `${dir}/cache`);
    config = moveOnce(
      config,
      "listen 80 default_server;",
      `listen 127.0.0.1:${port} default_server;`,
    );
    return mainConfig(dir, options.edit?.(config) ?? config, options.main);
  });
}
