/**
 * The supervisor `deno task start` becomes with `LOGO_PROCESSES` above 1: it runs N server
 * processes (its own command line again, `src/main.ts`) on one port with `SO_REUSEPORT`, so the
 * kernel spreads connections over N isolates, each with its own caches and rate limiter over the
 * one shared KV. It starts the first process alone (it creates the store's schema and seeds an
 * empty store, once), then the others; prints one set of start-up lines; passes their output on
 * in whole lines; starts a new process when one dies (after 0.25 s, doubling to at most 30 s while
 * they keep dying); and on SIGTERM or SIGINT stops them all (SIGTERM each; SIGKILL for any still
 * running after {@link STOP_TIMEOUT_MS}). Each process's stdin is a pipe this supervisor holds, so
 * if it is killed its processes see the pipe end and stop too. Linux spreads connections over
 * processes sharing a port (`SO_REUSEPORT`); elsewhere the first one may take them all. Why
 * processes and not `deno serve --parallel`: docs/scaling.md.
 *
 * @example
 * ```ts
 * import { supervise } from "./processes.ts";
 * if (import.meta.main) Deno.exit(await supervise({ count: 2, port: 8000, store: "x.kv" }));
 * ```
 * @module
 */
import { type ChildOutput, readChildOutput } from "./child_output.ts";
import { PROCESS_INDEX_VARIABLE } from "./process_count.ts";

/** How long the processes have to stop after SIGTERM before they are killed. */
export const STOP_TIMEOUT_MS = 4_000;
/** A process that served this long before dying restarts after the shortest delay again. */
export const STABLE_AFTER_MS = 30_000;
/** The longest wait before a new process replaces one that died. */
export const MAX_RESTART_DELAY_MS = 30_000;

/** The wait before the next start after `failures` deaths in a row: 0.25 s doubling, at most 30 s. */
export function restartDelayMs(failures: number): number {
  return Math.min(MAX_RESTART_DELAY_MS, 250 * 2 ** Math.min(failures, 10));
}

/** Options of {@link supervise}. */
export interface SuperviseOptions {
  /** How many server processes. */
  count: number;
  /** The address they listen on (`LOGO_HOSTNAME`); default 0.0.0.0. */
  hostname?: string;
  /** The port they share; 0: the first one picks a free port and the others take it. */
  port: number;
  /** The store they share (`LOGO_KV`'s location): a file or a KV server, never `:memory:`. */
  store: string;
  /** The program and arguments of one server process; default {@link serverCommand}. */
  command?: { path: string; args: string[] };
  /** Turns an error of listening on `port` into the message to stop with; default as is. */
  portError?: (error: unknown) => Error;
}

/** The permissions a server process gets when the supervisor holds them (all but `run`). */
const SERVER_PERMISSIONS = ["read", "write", "net", "env", "sys", "ffi"] as const;

/**
 * The command that runs one server process: this Deno, `run`, each of {@link SERVER_PERMISSIONS}
 * this process holds in full, the project's `deno.json`, and this process's main module. V8 flags
 * reach it through the environment (`DENO_V8_FLAGS`, which `deno task start` sets), as every
 * other setting does.
 */
export function serverCommand(): { path: string; args: string[] } {
  const granted = SERVER_PERMISSIONS.filter((name) =>
    Deno.permissions.querySync({ name }).state === "granted"
  );
  const config = new URL("../../deno.json", import.meta.url);
  return {
    path: Deno.execPath(),
    args: [
      "run",
      ...granted.map((name) => `--allow-${name}`),
      "--config",
      config.pathname,
      new URL(Deno.mainModule).pathname,
    ],
  };
}

/** Throws unless `store` is one store every process opens (`:memory:` would be one each). */
export function checkSharedStore(count: number, store: string): void {
  if (store !== ":memory:") return;
  throw new Error(
    `LOGO_PROCESSES=${count} needs one store for all processes, but LOGO_KV=:memory: gives ` +
      "each its own. Set LOGO_KV to a file or a KV server, or LOGO_PROCESSES=1.",
  );
}

/** Throws when another program listens on `port` (with reusePort the processes would join it). */
function checkPortFree(
  hostname: string,
  port: number,
  portError: (error: unknown) => Error,
): void {
  if (port === 0) return;
  try {
    Deno.listen({ port, hostname }).close();
  } catch (error) {
    throw portError(error);
  }
}

/** Writes all of `bytes` to stdout (synchronously: lines of two processes never interleave). */
function writeOut(bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += Deno.stdout.writeSync(bytes.subarray(at));
}

/** A started process and its stdout. */
interface Started {
  process: Deno.ChildProcess;
  output: ChildOutput;
  /** Keeps the stdin pipe open while the process runs. */
  stdin: WritableStreamDefaultWriter<Uint8Array>;
}

/**
 * Runs `options.count` server processes until SIGTERM or SIGINT; resolves with the exit status:
 * 0 when every process stopped cleanly, 1 when one did not or one failed to start (its reason is
 * on stderr, which the processes share with the supervisor).
 *
 * @throws {Error} when `options.port` is taken (through `options.portError`), or the store is
 * `:memory:`.
 */
export async function supervise(options: SuperviseOptions): Promise<number> {
  checkSharedStore(options.count, options.store);
  const command = options.command ?? serverCommand();
  checkPortFree(
    options.hostname ?? "0.0.0.0",
    options.port,
    options.portError ?? ((error) => error as Error),
  );
  const running = new Set<Started>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let stopping = false;
  const { promise: stopRequested, resolve: requestStop } = Promise.withResolvers<void>();
  const onSignal = () => {
    stopping = true;
    requestStop();
  };
  Deno.addSignalListener("SIGTERM", onSignal);
  Deno.addSignalListener("SIGINT", onSignal);

  const start = (index: number, port: number): Started => {
    const process = new Deno.Command(command.path, {
      args: command.args,
      env: { PORT: String(port), [PROCESS_INDEX_VARIABLE]: String(index) },
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const started = {
      process,
      output: readChildOutput(process.stdout, writeOut),
      stdin: process.stdin.getWriter(),
    };
    running.add(started);
    process.status.then(() => running.delete(started));
    return started;
  };
  /** Resolves with the port once `started` listens, or `undefined` if it stopped before. */
  const listening = async (started: Started) => {
    const { port, lines } = await started.output.started;
    if (port === undefined) {
      await started.process.status;
      for (const line of lines) console.log(line);
    }
    return port;
  };

  const run = async (): Promise<number> => {
    const first = start(1, options.port);
    const port = await listening(first);
    if (port === undefined || stopping) return 1;
    const others = Array.from({ length: options.count - 1 }, (_, i) => start(i + 2, port));
    const ports = await Promise.all(others.map(listening));
    if (ports.includes(undefined) || stopping) return 1;
    const pids = [first, ...others].map((started) => started.process.pid);
    console.log(
      `Processes: ${options.count} serving port ${port} (pids ${pids.join(", ")}); ` +
        `this supervisor (pid ${Deno.pid}) replaces one that dies.`,
    );
    for (const line of (await first.output.started).lines) console.log(line);
    [first, ...others].forEach((started, i) => watch(i + 1, started, port, 0));
    await stopRequested;
    return 0;
  };

  /** When `started` (process `index`) dies while not stopping, starts another after a delay. */
  const watch = (index: number, started: Started, port: number, failures: number) => {
    const readyAt = performance.now();
    started.process.status.then((status) => {
      if (stopping) return;
      const stable = performance.now() - readyAt >= STABLE_AFTER_MS;
      const delay = restartDelayMs(stable ? 0 : failures);
      const how = status.signal === null ? `status ${status.code}` : `signal ${status.signal}`;
      console.error(
        `Process ${index} (pid ${started.process.pid}) exited with ${how}; ` +
          `starting another in ${delay / 1000} s.`,
      );
      replace(index, port, stable ? 1 : failures + 1, delay);
    });
  };
  const replace = (index: number, port: number, failures: number, delay: number) => {
    const timer = setTimeout(async () => {
      timers.delete(timer);
      if (stopping) return;
      const started = start(index, port);
      if (await listening(started) === undefined) {
        if (stopping) return;
        const next = restartDelayMs(failures);
        console.error(`Process ${index} did not start; trying again in ${next / 1000} s.`);
        return replace(index, port, failures + 1, next);
      }
      if (stopping) return;
      console.log(`Process ${index} replaced: pid ${started.process.pid} serving port ${port}.`);
      watch(index, started, port, failures);
    }, delay);
    timers.add(timer);
  };

  let code = await Promise.race([run(), stopRequested.then(() => 0)]);
  stopping = true;
  for (const timer of timers) clearTimeout(timer);
  code = Math.max(code, await stopAll([...running]));
  Deno.removeSignalListener("SIGTERM", onSignal);
  Deno.removeSignalListener("SIGINT", onSignal);
  return code;
}

/** SIGTERM to each process, SIGKILL after {@link STOP_TIMEOUT_MS}; 1 unless all exited with 0. */
async function stopAll(processes: Started[]): Promise<number> {
  const signal = (started: Started, name: Deno.Signal) => {
    try {
      started.process.kill(name);
    } catch {
      // Already exited.
    }
  };
  for (const started of processes) signal(started, "SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) =>
    timer = setTimeout(resolve, STOP_TIMEOUT_MS, "late")
  );
  const all = Promise.all(processes.map((started) => started.process.status));
  if (await Promise.race([all, late]) === "late") {
    console.error(`Processes still running ${STOP_TIMEOUT_MS / 1000} s after SIGTERM: killed.`);
    for (const started of processes) signal(started, "SIGKILL");
  }
  clearTimeout(timer);
  const statuses = await all;
  await Promise.all(processes.map((started) => started.output.ended));
  for (const started of processes) await started.stdin.close().catch(() => undefined);
  return statuses.every((status) => status.code === 0) ? 0 : 1;
}
