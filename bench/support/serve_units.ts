/**
 * Serving units for `bench/serve_bench.ts`: the real service as `deno task start` runs it
 * (`src/main.ts`), as `deno serve` runs it (`src/serve.ts`, optionally `--parallel`), and the bare
 * ceiling (`bench/support/bare_server.ts`), each a child process optionally pinned to CPUs with
 * `taskset` (its threads — render workers, V8's helpers, tokio — inherit the mask). Every line the
 * child prints is kept; the port is read from its "listening on" line (`{"port": N}` for the bare
 * server), and the moment that line arrived is recorded.
 *
 * @example
 * ```ts
 * import { startUnit } from "./serve_units.ts";
 * const unit = await startUnit({ kind: "main", env: { LOGO_KV: "/tmp/x.kv" }, cpus: "0" });
 * console.log(unit.port, unit.listeningAt - unit.spawnedAt, "ms to listening");
 * await unit.stop();
 * ```
 * @module
 */
import { lines } from "../../test/support/lines.ts";

const ROOT = new URL("../../", import.meta.url);
/** The permissions of deno.json's `start` task. */
export const START_PERMISSIONS = ["net", "env", "read", "write", "sys", "run"].map((name) =>
  `--allow-${name}`
);

/** What to start. */
export interface UnitOptions {
  /**
   * `main`: `deno run … src/main.ts`; `serve`: `deno serve … src/serve.ts`; `bare`: the bare
   * `Deno.serve` of bench/support/bare_server.ts (`args`: image file, headers file); `probe`:
   * bench/support/start_probe.ts (`args`: its mode and arguments).
   */
  kind: "main" | "serve" | "bare" | "probe";
  /** Environment on top of the inherited one (the start task's, `LOGO_KV`, `PORT`, …). */
  env?: Record<string, string>;
  /** `taskset -c` CPU list (`0`, `0,1`); unpinned when absent. */
  cpus?: string;
  /** Port for `serve` (`--port`; main and probe read `PORT` from `env`). */
  port?: number;
  /** `serve`: `--parallel` (with `DENO_JOBS` in `env`). */
  parallel?: boolean;
  /** Arguments after the script. */
  args?: string[];
  /** Resolve as soon as it is spawned instead of once listening. */
  noWait?: boolean;
}

/** A running unit. */
export interface Unit {
  /** Process id (with `taskset`, the same process: taskset execs the command). */
  readonly pid: number;
  /** The port it listens on (0 with `noWait`). */
  readonly port: number;
  /** Epoch ms just before spawning. */
  readonly spawnedAt: number;
  /** Epoch ms at which the "listening on" line was read (NaN with `noWait`). */
  readonly listeningAt: number;
  /** Every line printed so far, stdout and stderr. */
  readonly printed: string[];
  /** The first line matching `pattern`, once printed; rejects if the output ends first. */
  line(pattern: RegExp): Promise<string>;
  /** Resolves with the exit code. */
  readonly exited: Promise<number>;
  /** SIGTERM, then the exit code (SIGKILL after `graceMs`, default 5 s). */
  stop(graceMs?: number): Promise<number>;
}

/** Epoch ms with sub-ms precision, the clock start_probe.ts reports in. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

function command(options: UnitOptions): string[] {
  const config = ["--config", new URL("deno.json", ROOT).pathname];
  const path = (file: string) => new URL(file, ROOT).pathname;
  switch (options.kind) {
    case "main":
      return ["run", ...START_PERMISSIONS, ...config, path("src/main.ts"), ...options.args ?? []];
    case "probe":
      return [
        "run",
        ...START_PERMISSIONS,
        ...config,
        path("bench/support/start_probe.ts"),
        ...options.args ?? [],
      ];
    case "serve":
      return [
        "serve",
        ...START_PERMISSIONS,
        ...config,
        ...(options.parallel ? ["--parallel"] : []),
        "--host",
        "127.0.0.1",
        "--port",
        String(options.port ?? 0),
        path("src/serve.ts"),
      ];
    case "bare":
      return [
        "run",
        "--allow-read",
        "--allow-net",
        path("bench/support/bare_server.ts"),
        ...options.args ?? [],
      ];
  }
}

/** Starts a unit; resolves once it listens (or at once with `noWait`), rejects if it exits first. */
export async function startUnit(options: UnitOptions): Promise<Unit> {
  const args = command(options);
  const [program, programArgs] = options.cpus === undefined
    ? [Deno.execPath(), args]
    : ["taskset", ["-c", options.cpus, Deno.execPath(), ...args]];
  const spawnedAt = epochMs();
  const child = new Deno.Command(program, {
    args: programArgs,
    env: { NO_COLOR: "1", ...options.env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const printed: string[] = [];
  const waiters = new Set<() => void>();
  let listeningAt = NaN;
  const { promise: listening, resolve } = Promise.withResolvers<number>();
  const portPattern = options.kind === "bare"
    ? /^\{"port":(\d+)\}$/
    : /listening on https?:\/\/\S+?:(\d+)/i;
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const line of lines(stream)) {
      printed.push(line);
      const match = portPattern.exec(line);
      if (match && Number.isNaN(listeningAt)) {
        listeningAt = epochMs();
        resolve(Number(match[1]));
      }
      for (const wake of waiters) wake();
    }
  };
  const collected = Promise.all([collect(child.stdout), collect(child.stderr)]);
  let ended = false;
  const exited = (async () => {
    const { code } = await child.status;
    await collected;
    ended = true;
    for (const wake of waiters) wake();
    return code;
  })();
  const line = (pattern: RegExp) =>
    new Promise<string>((resolveLine, reject) => {
      const wake = () => {
        const found = printed.find((text) => pattern.test(text));
        if (found === undefined && !ended) return;
        waiters.delete(wake);
        if (found !== undefined) resolveLine(found);
        else reject(new Error(`no line matching ${pattern}:\n${printed.join("\n")}`));
      };
      waiters.add(wake);
      wake();
    });
  const stop = async (graceMs = 5_000) => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already exited
    }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        // exited meanwhile
      }
    }, graceMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };
  let port = 0;
  if (!options.noWait) {
    try {
      port = await Promise.race([
        listening,
        exited.then((code) =>
          Promise.reject(
            new Error(`${options.kind} exited ${code} before listening:\n${printed.join("\n")}`),
          )
        ),
      ]);
    } catch (error) {
      await stop(0);
      throw error;
    }
  }
  return {
    pid: child.pid,
    port,
    spawnedAt,
    get listeningAt() {
      return listeningAt;
    },
    printed,
    line,
    exited,
    stop,
  };
}

/** A free TCP port on 127.0.0.1 (free when asked; another process could take it after). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Pins every thread of process `pid` to `cpus` (`taskset -a -p -c`). */
export async function pin(pid: number, cpus: string): Promise<void> {
  const output = await new Deno.Command("taskset", {
    args: ["-a", "-p", "-c", cpus, String(pid)],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`taskset -a -p -c ${cpus} ${pid}: ${new TextDecoder().decode(output.stderr)}`);
  }
}
