/**
 * A load client of keep-alive HTTP/1.1 connections over raw TCP, for the memory benchmark: each
 * connection sends the next path of a shared list and reads the answer (status line, headers, a
 * `Content-Length` body) before sending the next, so every path is requested exactly once. The
 * connections stay open afterwards, until {@link KeepAliveLoad.close} (the server, behind
 * `Deno.serve`, keeps idle keep-alive connections: timing them out is the reverse proxy's job).
 *
 * @example
 * ```ts
 * import { KeepAliveLoad } from "./keepalive_load.ts";
 * const load = await KeepAliveLoad.open(8000, 4);
 * const result = await load.run(["/example.com?token=pk_…"]);
 * console.log(result.statuses);
 * load.close();
 * ```
 * @module
 */

/** What one {@link KeepAliveLoad.run} saw. */
export interface LoadResult {
  /** Answers by status. */
  statuses: Record<string, number>;
  /** Wall-clock time, ms. */
  wallMs: number;
  /** Body bytes received. */
  bodyBytes: number;
}

const CRLF2 = new TextEncoder().encode("\r\n\r\n");
/** How long an answer may stall before the load fails (instead of waiting for ever). */
const STALL_MS = 30_000;

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** One keep-alive connection with a read buffer. */
class Connection {
  #buffer = new Uint8Array(0);
  #closed = false;
  constructor(readonly conn: Deno.TcpConn) {}

  /**
   * Reads more bytes; false once the server closed the connection. With `stallMs`, fails when no
   * byte comes for that long (an answer that never comes), saying what was buffered.
   */
  async #fill(stallMs?: number): Promise<boolean> {
    const chunk = new Uint8Array(64 * 1024);
    const read = this.conn.read(chunk).catch(() => null);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = stallMs === undefined ? read : new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const text = new TextDecoder().decode(this.#buffer.subarray(0, 400));
        reject(new Error(`No bytes for ${stallMs} ms; ${this.#buffer.length} buffered: ${text}`));
      }, stallMs);
    });
    const n = await Promise.race([read, stalled]).finally(() => clearTimeout(timer));
    if (n === null) {
      this.#closed = true;
      return false;
    }
    const joined = new Uint8Array(this.#buffer.length + n);
    joined.set(this.#buffer);
    joined.set(chunk.subarray(0, n), this.#buffer.length);
    this.#buffer = joined;
    return true;
  }

  /** Sends one GET and reads its answer: status and body length. */
  async get(path: string): Promise<{ status: number; bytes: number }> {
    await this.conn.write(
      new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
    );
    let end;
    while ((end = indexOf(this.#buffer, CRLF2, 0)) < 0) {
      if (!await this.#fill(STALL_MS)) {
        throw new Error(`Connection closed before the answer to ${path}`);
      }
    }
    const head = new TextDecoder().decode(this.#buffer.subarray(0, end));
    const status = Number(head.split(" ", 2)[1]);
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
    if (!Number.isFinite(length)) {
      throw new Error(`No Content-Length in the answer to ${path}:\n${head}`);
    }
    while (this.#buffer.length < end + 4 + length) {
      if (!await this.#fill(STALL_MS)) {
        throw new Error(`Connection closed inside the answer to ${path}`);
      }
    }
    this.#buffer = this.#buffer.slice(end + 4 + length);
    return { status, bytes: length };
  }

  /** Closes the connection (once). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.conn.close();
  }
}

/** A set of open keep-alive connections to one port. */
export class KeepAliveLoad {
  readonly #connections: Connection[];
  private constructor(connections: Connection[]) {
    this.#connections = connections;
  }

  /** Opens `connections` connections to `port` on 127.0.0.1. */
  static async open(port: number, connections: number): Promise<KeepAliveLoad> {
    const opened = await Promise.all(
      Array.from({ length: connections }, () => Deno.connect({ hostname: "127.0.0.1", port })),
    );
    return new KeepAliveLoad(opened.map((conn) => new Connection(conn)));
  }

  /** Requests every path once, spread over the connections; resolves when all are answered. */
  async run(paths: readonly string[]): Promise<LoadResult> {
    const statuses: Record<string, number> = {};
    let next = 0;
    let bodyBytes = 0;
    const started = performance.now();
    await Promise.all(this.#connections.map(async (connection) => {
      for (let i = next++; i < paths.length; i = next++) {
        const { status, bytes } = await connection.get(paths[i]);
        statuses[status] = (statuses[status] ?? 0) + 1;
        bodyBytes += bytes;
      }
    }));
    return { statuses, wallMs: performance.now() - started, bodyBytes };
  }

  /** Closes every connection from this side. */
  close(): void {
    for (const connection of this.#connections) connection.close();
  }
}
