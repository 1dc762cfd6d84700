/**
 * A real `denokv` server (the self-hosted Deno KV engine, built with `cargo install denokv
 * --locked`) for tests: started on a free loopback port with its own SQLite file and access token,
 * ready once it answers HTTP. {@link DenoKvServer.kill} stops it abruptly (an outage),
 * {@link DenoKvServer.restart} brings it back on the same port with the same file, and
 * {@link DenoKvServer.close} stops it and deletes its directory. Tests that need it pass
 * {@link denokv}`.ignore` to `Deno.test` (see `external_tool.ts`: ignored on a machine without
 * it, failing under CI).
 *
 * @example
 * ```ts
 * import { denokv, startDenoKv } from "./denokv.ts";
 * Deno.test({ name: "over denokv", ignore: denokv.ignore }, async () => {
 *   await using kv = await startDenoKv();
 *   console.log(kv.env); // { LOGO_KV: "http://127.0.0.1:…", DENO_KV_ACCESS_TOKEN: "…" }
 *   await kv.kill();
 *   await kv.restart();
 * });
 * ```
 * @module
 */
import { type ExternalTool, externalTool } from "./external_tool.ts";
import { lines } from "./lines.ts";

const HOME = Deno.env.get("HOME") ?? "/root";

/** The `denokv` program: `~/.cargo/bin/denokv` or on `PATH`. */
export const denokv: ExternalTool = externalTool(
  "denokv",
  [`${HOME}/.cargo/bin/denokv`],
  "cargo install denokv --locked",
);

/** A running (or killed, restartable) `denokv`. Disposing it is {@link DenoKvServer.close}. */
export interface DenoKvServer extends AsyncDisposable {
  /** Its URL, `http://127.0.0.1:PORT`: the same across restarts. */
  readonly url: string;
  /** Its port. */
  readonly port: number;
  /** The access token clients must present. */
  readonly token: string;
  /** Its SQLite file. */
  readonly sqlitePath: string;
  /** The environment that points `src/main.ts` and the admin CLI at it. */
  readonly env: { LOGO_KV: string; DENO_KV_ACCESS_TOKEN: string };
  /** The last lines it printed (stdout and stderr), for failure messages. */
  readonly printed: readonly string[];
  /** Kills it with SIGKILL (no clean shutdown) and waits until it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port and SQLite file; resolves once it answers HTTP. */
  restart(): Promise<void>;
  /** Kills it if it runs and deletes its directory. */
  close(): Promise<void>;
}

/** Lines of output kept for failure messages. */
const KEPT_LINES = 50;

interface Running {
  child: Deno.ChildProcess;
  drained: Promise<void>;
}

/**
 * Starts `denokv` on a port the system picks (or `port`), in a new temporary directory; resolves
 * once it listens and has answered an HTTP request.
 *
 * @throws {Error} when it exits before listening, with what it printed.
 */
export async function startDenoKv(options: { port?: number } = {}): Promise<DenoKvServer> {
  const dir = await Deno.makeTempDir({ prefix: "denokv-" });
  const sqlitePath = `${dir}/kv.sqlite`;
  const token = `test-token-${crypto.randomUUID()}`;
  const printed: string[] = [];
  let running: Running | undefined;
  let port = options.port ?? 0;

  const start = async (): Promise<number> => {
    const child = new Deno.Command(denokv.path, {
      args: [
        "--sqlite-path",
        sqlitePath,
        "serve",
        "--access-token",
        token,
        "--addr",
        `127.0.0.1:${port}`,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const { promise: listening, resolve } = Promise.withResolvers<number>();
    const drain = async (stream: ReadableStream<Uint8Array>) => {
      for await (const line of lines(stream)) {
        printed.push(line);
        if (printed.length > KEPT_LINES) printed.shift();
        const match = /Listening on http:\/\/[^\s:]+:(\d+)/.exec(line);
        if (match) resolve(Number(match[1]));
      }
    };
    const drained = Promise.all([drain(child.stdout), drain(child.stderr)]).then(() => {});
    running = { child, drained };
    const exited = child.status.then(async (status) => {
      await drained;
      throw new Error(`denokv exited ${status.code} before listening:\n${printed.join("\n")}`);
    });
    exited.catch(() => {}); // only a failure while starting matters
    try {
      const bound = await Promise.race([listening, exited]);
      await answers(`http://127.0.0.1:${bound}`, exited);
      return bound;
    } catch (error) {
      await stop();
      throw error;
    }
  };

  const stop = async (): Promise<void> => {
    if (running === undefined) return;
    const { child, drained } = running;
    running = undefined;
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
    await child.status;
    await drained;
  };

  try {
    port = await start();
  } catch (error) {
    await Deno.remove(dir, { recursive: true });
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    await stop();
    await Deno.remove(dir, { recursive: true });
  };
  return {
    url,
    port,
    token,
    sqlitePath,
    env: { LOGO_KV: url, DENO_KV_ACCESS_TOKEN: token },
    printed,
    kill: stop,
    async restart() {
      await stop();
      await start();
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * Resolves once `url` answers an HTTP request (any status: it is denokv's own endpoint), trying
 * again each time a connection is refused; rejects when `exited` does (the server died).
 */
async function answers(url: string, exited: Promise<never>): Promise<void> {
  for (;;) {
    const attempt = fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
      async (response) => {
        await response.body?.cancel();
        return true;
      },
      () => false,
    );
    if (await Promise.race([attempt, exited])) return;
    // A refused connection is answered at once: yield to the event loop before trying again.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
