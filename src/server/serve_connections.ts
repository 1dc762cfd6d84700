/**
 * Serves a `Request → Response` handler over HTTP/1.1 with bounded connections: Node's HTTP server
 * (`node:http`, built into Deno) parses requests and enforces the header-read and keep-alive idle
 * timeouts; this module caps the open connections below the open-file limit and, at the cap,
 * closes the oldest connection that has no request being answered (an idle keep-alive one, or one
 * still sending its request) so a new client is served; when every connection is busy, a new one
 * is closed at once. Running out of connections therefore refuses or drops connections and never
 * ends the process. Why not `Deno.serve`: in Deno 2.9.6 it has neither timeout, and an accept that
 * fails with "Too many open files" closes its listener and every connection, then rejects
 * `finished` (see `docs/operations.md`, "Connections").
 *
 * @example
 * ```ts
 * import { serveConnections } from "./serve_connections.ts";
 * const limits = { maxConnections: 100, headersTimeoutMs: 10_000, idleTimeoutMs: 5_000 };
 * const server = await serveConnections({ port: 0, limits }, () => new Response("ok"));
 * console.log(server.addr.port);
 * await server.shutdown();
 * ```
 * @module
 */
import http from "node:http";
import type { Socket } from "node:net";
import type { ConnectionLimits } from "./connection_limits.ts";
import { refusal, serializeResponse, toRequest, writeResponse } from "./node_request.ts";

/** Largest request head accepted, in bytes (Node's default is 16 KiB; a 20 KB cookie is fine). */
export const MAX_HEADER_BYTES = 64 * 1024;

/** Options of {@link serveConnections}. */
export interface ServeConnectionsOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Address to listen on; default `0.0.0.0`. */
  hostname?: string;
  /** The cap and timeouts. */
  limits: Pick<ConnectionLimits, "maxConnections" | "headersTimeoutMs" | "idleTimeoutMs">;
  /**
   * Share the port with other processes that set it too (`SO_REUSEPORT`, Linux): the kernel
   * spreads new connections over them. Default false: a port in use is an error.
   */
  reusePort?: boolean;
}

/** Counters of what the connection cap did. */
export interface ConnectionStats {
  /** Connections open now. */
  readonly open: number;
  /** Connections closed to make room for a new one (they had no request being answered). */
  readonly dropped: number;
}

/** A running server. */
export interface ConnectionServer {
  /** Where it listens. */
  readonly addr: { hostname: string; port: number };
  /** Resolves once it has stopped and every connection has ended. */
  readonly finished: Promise<void>;
  /** Stops accepting, lets requests being answered finish, closes every other connection. */
  shutdown(): Promise<void>;
  /** What the cap did so far. */
  stats(): ConnectionStats;
}

/** An error of `listen`, as the matching `Deno.errors` class when there is one. */
function listenFailure(error: NodeJS.ErrnoException): Error {
  if (error.code === "EADDRINUSE") return new Deno.errors.AddrInUse(error.message);
  if (error.code === "EACCES") return new Deno.errors.PermissionDenied(error.message);
  return error;
}

/** A bare 400 with no body, as `Deno.serve` answered a request it could not parse. */
function refuse(outgoing: http.ServerResponse): void {
  outgoing.shouldKeepAlive = false;
  outgoing.writeHead(400, { "content-length": "0", connection: "close" });
  outgoing.end();
}

/**
 * Listens on `options.port` and serves `handler` within `options.limits`.
 *
 * @throws {Deno.errors.AddrInUse} when the port is taken; {@link Deno.errors.PermissionDenied}
 * when it needs privileges; Node's error otherwise.
 */
export function serveConnections(
  options: ServeConnectionsOptions,
  handler: (request: Request) => Response | Promise<Response>,
): Promise<ConnectionServer> {
  const { maxConnections, headersTimeoutMs, idleTimeoutMs } = options.limits;
  const server = http.createServer({
    // How often Node checks the header-read timeout: often enough for short test timeouts.
    connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
    headersTimeout: headersTimeoutMs,
    requestTimeout: headersTimeoutMs,
    keepAliveTimeout: idleTimeoutMs,
    // As Deno.serve: HTTP/1.0 and some clients send no Host; a 20 KB header is served.
    requireHostHeader: false,
    maxHeaderSize: MAX_HEADER_BYTES,
  });
  server.maxHeadersCount = 0; // counted by refusal(), never silently truncated
  // Node closes a connection beyond this at once; below it the oldest idle one makes room.
  server.maxConnections = maxConnections + 1;
  /** Open connections, oldest first, and whether a request on each is being answered. */
  const open = new Map<Socket, { busy: boolean }>();
  let dropped = 0;
  let stopping = false;

  server.on("connection", (socket: Socket) => {
    for (const [other, state] of open) {
      if (open.size < maxConnections) break;
      if (state.busy) continue;
      open.delete(other);
      other.destroy();
      dropped++;
    }
    open.set(socket, { busy: false });
    socket.on("close", () => open.delete(socket));
  });

  server.on("request", (incoming: http.IncomingMessage, outgoing: http.ServerResponse) => {
    const socket = incoming.socket as Socket;
    const state = open.get(socket);
    if (state !== undefined) state.busy = true;
    outgoing.on("close", () => {
      if (state !== undefined) state.busy = false;
      if (stopping) socket.end(() => socket.destroy());
    });
    if (refusal(incoming) !== undefined) return refuse(outgoing);
    Promise.resolve()
      .then(() => handler(toRequest(incoming)))
      .then((response) => writeResponse(response, incoming.method ?? "GET", outgoing))
      .catch(() => {
        if (outgoing.headersSent) return void outgoing.destroy();
        outgoing.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        outgoing.end("Internal server error");
      });
  });

  // CONNECT: Node hands the socket over raw. The app answers 405; a path target is a bare 400.
  server.on("connect", (incoming: http.IncomingMessage, socket: Socket) => {
    const close = (bytes: Uint8Array | string) => socket.end(bytes, () => socket.destroy());
    if (refusal(incoming) !== undefined || incoming.url?.startsWith("/")) {
      return close("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    }
    Promise.resolve()
      .then(() => handler(toRequest(incoming)))
      .then(serializeResponse)
      .then(close, () => socket.destroy());
  });

  // A malformed request or a timeout: Node's own answer (400, 408…) when the socket can take it.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return void socket.destroy();
    const timeout = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
    const status = timeout ? "408 Request Timeout" : "400 Bad Request";
    const answer = `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
    socket.end(answer, () => socket.destroy()); // never wait for a client that does not read
  });

  const finished = new Promise<void>((resolve) => server.once("close", () => resolve()));

  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(listenFailure(error)));
    const listen = {
      port: options.port,
      host: options.hostname ?? "0.0.0.0",
      reusePort: options.reusePort ?? false,
    };
    server.listen(listen, () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : options.port;
      const hostname = options.hostname ?? "0.0.0.0";
      // After listening, an error must never end the process: log it and keep serving.
      server.on("error", (error) => console.error(`Server error: ${error.message}`));
      resolve({
        addr: { hostname, port },
        finished,
        stats: () => ({ open: open.size, dropped }),
        shutdown() {
          stopping = true;
          server.close();
          for (const [socket, state] of open) if (!state.busy) socket.destroy();
          return finished;
        },
      });
    });
  });
}
