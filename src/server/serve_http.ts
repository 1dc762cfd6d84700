/**
 * `Deno.serve` that keeps listening. In Deno 2.9.6 an accept that fails (most often "Too many
 * open files" when clients hold every descriptor) closes the listener and every connection and
 * rejects `finished`; left alone the process then exits, or, with `finished` caught, serves
 * nothing ever again. Here the listener is opened again on the same address, at once and then
 * every {@link RELISTEN_RETRY_MS} while the descriptors are still taken, so the service answers
 * again as soon as the attack's connections close (docs/operate/operations.md, "Connections").
 *
 * @example
 * ```ts
 * import { serveHttp } from "./serve_http.ts";
 * const server = await serveHttp({ port: 0, hostname: "127.0.0.1" }, () => new Response("ok"));
 * console.log(server.addr.port);
 * await server.shutdown();
 * ```
 * @module
 */
import { createBoundedLog } from "../observe/bounded_log.ts";

/** How often a listener that cannot be opened again is retried, in ms. */
export const RELISTEN_RETRY_MS = 250;

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** TCP port; 0 picks a free one (kept when the listener is opened again). */
  port: number;
  /** Address to listen on; default `0.0.0.0`. */
  hostname?: string;
  /** Share the port with other processes that set it too (`SO_REUSEPORT`, Linux). */
  reusePort?: boolean;
  /**
   * Told when the listener first fails (it is being opened again) and when a request is answered
   * again after that: two lines an episode, however many accepts fail in it; default
   * `console.error` at a bounded rate.
   */
  log?: (line: string) => void;
  /** The server to run; default `Deno.serve` (tests pass a fake). */
  serve?: (options: Deno.ServeTcpOptions, handler: Deno.ServeHandler) => Deno.HttpServer;
  /** Timer used between retries; default `setTimeout`. */
  setTimer?: (callback: () => void, ms: number) => unknown;
}

/** A running server. */
export interface HttpServer {
  /** Where it listens. */
  readonly addr: { hostname: string; port: number };
  /** How many times the listener failed and was opened again. */
  readonly relistens: number;
  /** Resolves once {@link HttpServer.shutdown} has finished. */
  readonly finished: Promise<void>;
  /** Stops accepting and resolves once the requests being answered have finished. */
  shutdown(): Promise<void>;
}

/**
 * Listens on `options.port` and answers with `handler`; resolves once listening, rejects if the
 * first listen fails (a port in use, a bad address).
 */
export function serveHttp(
  options: ServeHttpOptions,
  handler: Deno.ServeHandler,
): Promise<HttpServer> {
  const serve = options.serve ?? Deno.serve;
  const setTimer = options.setTimer ?? setTimeout;
  const log = options.log ?? createBoundedLog().kind("listener");
  let current: Deno.HttpServer | undefined;
  let stopped = false;
  let relistens = 0;
  let failures = 0; // in the current episode: since the last request answered
  const serving: Deno.ServeHandler = (request, info) => {
    if (failures > 0) {
      log(`Answering again after ${failures} failed listener(s).`);
      failures = 0;
    }
    return handler(request, info);
  };
  const { promise: finished, resolve: finish } = Promise.withResolvers<void>();
  const addr = { hostname: options.hostname ?? "0.0.0.0", port: options.port };

  const listen = (): Deno.HttpServer => {
    const server = serve({
      port: addr.port,
      hostname: addr.hostname,
      reusePort: options.reusePort,
      onListen() {},
    }, serving);
    current = server;
    server.finished.then(() => {}, (error: unknown) => {
      if (stopped || current !== server) return;
      const reason = error instanceof Error ? error.message : String(error);
      if (failures++ === 0) log(`The listener failed (${reason}); opening it again.`);
      relisten();
    });
    return server;
  };
  const relisten = () => {
    if (stopped) return;
    try {
      listen();
      relistens++;
    } catch {
      setTimer(relisten, RELISTEN_RETRY_MS); // descriptors still taken: try again shortly
    }
  };

  try {
    const first = listen();
    const bound = first.addr as Deno.NetAddr;
    addr.hostname = bound.hostname;
    addr.port = bound.port;
  } catch (error) {
    return Promise.reject(error);
  }
  return Promise.resolve({
    addr,
    get relistens() {
      return relistens;
    },
    finished,
    async shutdown() {
      stopped = true;
      await current?.shutdown().catch(() => {});
      finish();
      await finished;
    },
  });
}
