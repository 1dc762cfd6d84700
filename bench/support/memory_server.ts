/**
 * The memory benchmark's server: the real `src/main.ts`, started as `deno task start` starts it
 * (its permissions and V8 flags, `start_task.ts`) plus `--inspect` on a loopback port, so the
 * benchmark can force a full garbage collection in it, and with `LOGO_METRICS_TOKEN` set, so it
 * can read `logo_memory_bytes{part}` from `GET /metrics`. RSS is read from `/proc/PID/status`.
 *
 * @example
 * ```ts
 * import { MemoryServer } from "./memory_server.ts";
 * const server = await MemoryServer.start({ LOGO_KV: "/tmp/store.kv" });
 * console.log(await server.sample());
 * await server.stop();
 * ```
 * @module
 */
import { lines } from "../../test/support/lines.ts";
import { Inspector } from "./inspector.ts";
import { startTaskEnv, startTaskV8Flags } from "./start_task.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const METRICS_TOKEN = "memory-bench-metrics-token-0123456789";
/** `deno task start`'s permissions (deno.json). */
const START_PERMISSIONS = [
  "--allow-net",
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-sys",
  "--allow-run",
];

/** Memory of the server at one moment, bytes. */
export interface MemorySample {
  /** Resident set size of the whole process (every thread). */
  rss: number;
  /** Its anonymous part (heap, WASM, buffers). */
  rssAnon: number;
  /** Its file-backed part (the deno binary's pages, mapped files). */
  rssFile: number;
  /** `logo_memory_bytes{part}` from `/metrics`. */
  parts: Record<string, number>;
}

/** A running `src/main.ts` under the benchmark's eye. */
export class MemoryServer {
  readonly #child: Deno.ChildProcess;
  readonly #inspector: Inspector;
  /** Where it listens. */
  readonly port: number;
  /** Lines it printed. */
  readonly printed: string[];

  private constructor(
    child: Deno.ChildProcess,
    inspector: Inspector,
    port: number,
    printed: string[],
  ) {
    this.#child = child;
    this.#inspector = inspector;
    this.port = port;
    this.printed = printed;
  }

  /**
   * Starts the server with `env` added; resolves once it listens and its inspector is open.
   * `root` is the checkout whose `src/main.ts` and `deno.json` run (default this one), so a
   * "before" can be measured from an export of an older commit.
   */
  static async start(
    env: Record<string, string>,
    root = ROOT,
    extraPermissions: string[] = [],
  ): Promise<MemoryServer> {
    const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const inspectPort = (probe.addr as Deno.NetAddr).port;
    probe.close();
    const v8Flags = await startTaskV8Flags();
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...START_PERMISSIONS,
        ...extraPermissions,
        "--config",
        `${root}/deno.json`,
        ...(v8Flags.length > 0 ? [`--v8-flags=${v8Flags.join(",")}`] : []),
        `--inspect=127.0.0.1:${inspectPort}`,
        `${root}/src/main.ts`,
      ],
      env: {
        ...await startTaskEnv(),
        PORT: "0",
        LOGO_DISCOVERY: "off",
        NO_COLOR: "1",
        LOGO_METRICS_TOKEN: METRICS_TOKEN,
        ...env,
      },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const printed: string[] = [];
    const found = { port: Promise.withResolvers<number>(), ws: Promise.withResolvers<string>() };
    const collect = async (stream: ReadableStream<Uint8Array>) => {
      for await (const line of lines(stream)) {
        printed.push(line);
        const listening = /listening on http:\/\/[^\s]+:(\d+)/.exec(line);
        if (listening) found.port.resolve(Number(listening[1]));
        const debuggerUrl = /Debugger listening on (ws:\/\/\S+)/.exec(line);
        if (debuggerUrl) found.ws.resolve(debuggerUrl[1]);
      }
    };
    const ended = Promise.all([collect(child.stdout), collect(child.stderr)]).then(() => {
      const error = new Error(`The server exited before listening:\n${printed.join("\n")}`);
      found.port.reject(error);
      found.ws.reject(error);
    });
    ended.catch(() => {});
    const [port, url] = await Promise.all([found.port.promise, found.ws.promise]);
    return new MemoryServer(child, await Inspector.connect(url), port, printed);
  }

  /** A full garbage collection in the serving isolate (V8's `HeapProfiler.collectGarbage`). */
  async collectGarbage(): Promise<void> {
    await this.#inspector.call("HeapProfiler.collectGarbage");
  }

  /** Writes a heap snapshot of the serving isolate to `path` (for finding where memory goes). */
  async heapSnapshot(path: string): Promise<void> {
    await this.#inspector.evaluate(
      `import("node:v8").then((v8) => v8.writeHeapSnapshot(${JSON.stringify(path)}))`,
    );
  }

  /**
   * Calls glibc's `malloc_trim(0)` in the server through `Deno.dlopen` (the server must have been
   * started with `--allow-ffi`): how much of RSS is memory `free`d but kept by the allocator.
   */
  async mallocTrim(): Promise<void> {
    await this.#inspector.evaluate(
      `Deno.dlopen("libc.so.6", { malloc_trim: { parameters: ["usize"], result: "i32" } })` +
        `.symbols.malloc_trim(0)`,
    );
  }

  /** RSS and the parts the server reports now. */
  async sample(): Promise<MemorySample> {
    const status = await Deno.readTextFile(`/proc/${this.#child.pid}/status`);
    const kb = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) * 1024;
    const response = await fetch(`http://127.0.0.1:${this.port}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const text = await response.text();
    const parts: Record<string, number> = {};
    for (const match of text.matchAll(/^logo_memory_bytes\{part="([^"]+)"\} (\S+)$/gm)) {
      parts[match[1]] = Number(match[2]);
    }
    return { rss: kb("VmRSS"), rssAnon: kb("RssAnon"), rssFile: kb("RssFile"), parts };
  }

  /** Stops it with SIGTERM and waits for it to exit. */
  async stop(): Promise<void> {
    this.#inspector.close();
    try {
      this.#child.kill("SIGTERM");
    } catch {
      // already exited
    }
    await this.#child.status;
  }
}
