/**
 * The real server, `src/main.ts`, as a child process: started with the given environment (port 0,
 * discovery off and no colour unless overridden), every line it prints on stdout and stderr kept,
 * its port read from the "listening on" line.
 *
 * @example
 * ```ts
 * import { startMainProcess } from "./main_process.ts";
 * await using server = await startMainProcess({ LOGO_KV: ":memory:" });
 * console.log(server.port, server.printed);
 * console.log(await server.stop()); // exit code after SIGTERM
 * ```
 * @module
 */
import { lines } from "./lines.ts";

const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/** A running `src/main.ts`. Disposing it kills the process if it still runs. */
export interface MainProcess extends AsyncDisposable {
  /** The port it listens on. */
  readonly port: number;
  /** Its process id (its main thread's id too, for `/proc/PID/task/PID/stat`). */
  readonly pid: number;
  /** Every line printed so far, stdout and stderr interleaved as they arrive. */
  readonly printed: string[];
  /**
   * The first line printed at index `from` or later that matches `pattern`, once printed;
   * rejects if the process's output ends first.
   */
  line(pattern: RegExp, from?: number): Promise<string>;
  /** Sends SIGTERM; resolves with the exit code once all output is read. */
  stop(): Promise<number>;
}

/** Starts `src/main.ts`; resolves once it listens, rejects if it exits first. */
export async function startMainProcess(env: Record<string, string>): Promise<MainProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, MAIN],
    // Renders get 30 s, not the production 2 s: a test suite may share its cores with another
    // (issue 30). Tests of the deadline itself use the pool directly.
    env: {
      PORT: "0",
      LOGO_DISCOVERY: "off",
      NO_COLOR: "1",
      LOGO_RENDER_DEADLINE_MS: "30000",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const printed: string[] = [];
  const { promise: listening, resolve } = Promise.withResolvers<number>();
  const waiters = new Set<() => void>();
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const line of lines(stream)) {
      printed.push(line);
      for (const wake of waiters) wake();
      const match = /listening on http:\/\/[^\s]+:(\d+)/.exec(line);
      if (match) resolve(Number(match[1]));
    }
  };
  const collected = Promise.all([collect(child.stdout), collect(child.stderr)]);
  let outputEnded = false;
  collected.finally(() => {
    outputEnded = true;
    for (const wake of waiters) wake();
  });
  const line = (pattern: RegExp, from = 0) =>
    new Promise<string>((resolve, reject) => {
      const wake = () => {
        const found = printed.slice(from).find((text) => pattern.test(text));
        if (found === undefined && !outputEnded) return;
        waiters.delete(wake);
        if (found !== undefined) resolve(found);
        else reject(new Error(`no line matching ${pattern}:\n${printed.join("\n")}`));
      };
      waiters.add(wake);
      wake();
    });
  const ended = async () => {
    const { code } = await child.status;
    await collected;
    return code;
  };
  const kill = async () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
    await ended();
  };
  try {
    const port = await Promise.race([
      listening,
      child.status.then((s) => Promise.reject(new Error(`server exited ${s.code}`))),
    ]);
    return {
      port,
      pid: child.pid,
      printed,
      line,
      stop() {
        child.kill("SIGTERM");
        return ended();
      },
      [Symbol.asyncDispose]: kill,
    };
  } catch (error) {
    await kill();
    throw error;
  }
}
