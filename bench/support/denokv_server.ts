/**
 * A `denokv` server (the self-hosted Deno KV engine, `cargo install denokv --locked`) as a child
 * process for benchmarks: its SQLite file at a given path, listening on a free loopback port.
 *
 * @example
 * ```ts
 * import { startDenoKv } from "./denokv_server.ts";
 * const kv = await startDenoKv("/tmp/kv.sqlite", "a-long-access-token");
 * console.log(kv.url); // http://127.0.0.1:PORT — LOGO_KV for the server and the admin CLI
 * await kv.stop();
 * ```
 * @module
 */
import { lines, readUntil } from "../../test/support/lines.ts";

/** Where denokv is looked for: cargo's bin directory, then `PATH`. */
export function denoKvPath(): string | undefined {
  const home = Deno.env.get("HOME") ?? "";
  const candidates = [
    `${home}/.cargo/bin/denokv`,
    ...(Deno.env.get("PATH") ?? "").split(":").filter(Boolean).map((dir) => `${dir}/denokv`),
  ];
  return candidates.find((path) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  });
}

/** A running denokv. */
export interface DenoKvServer {
  /** Its KV Connect URL. */
  readonly url: string;
  /** Its process id (for its CPU time in /proc). */
  readonly pid: number;
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts denokv on `sqlitePath` with `token`; resolves once it listens. */
export async function startDenoKv(sqlitePath: string, token: string): Promise<DenoKvServer> {
  const path = denoKvPath();
  if (path === undefined) {
    throw new Error("denokv is not installed (cargo install denokv --locked)");
  }
  const child = new Deno.Command(path, {
    args: ["--sqlite-path", sqlitePath, "serve", "--access-token", token, "--addr", "127.0.0.1:0"],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const log = lines(child.stderr);
  const printed = await readUntil(log, (line) => /Listening on http:\/\//.test(line));
  const url = /Listening on (http:\/\/\S+)/.exec(printed.at(-1) ?? "")?.[1];
  const drained = (async () => {
    for await (const _ of log); // keep reading, so denokv never blocks on a full pipe
  })();
  if (url === undefined) {
    child.kill("SIGKILL");
    await child.status;
    throw new Error(`denokv did not start:\n${printed.join("\n")}`);
  }
  return {
    url,
    pid: child.pid,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        // already exited
      }
      await child.status;
      await drained;
    },
  };
}
