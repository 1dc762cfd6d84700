/** A client connection a test holds open until the other side ends it. */
import { latin1 } from "./latin1.ts";
import { splitAnswers } from "./split_answers.ts";

/**
 * A connection to 127.0.0.1 that sent a request (or part of one, or nothing) and is then held,
 * reading, until the other side ends it: when it was opened, last read and ended, and what it got.
 */
export class HeldConnection {
  /** When it was made (`performance.now()`). */
  readonly opened: number;
  /** When its last bytes came (when it was made, until some come). */
  lastRead: number;
  /** When the other side ended it; undefined while it is open. */
  closed: number | undefined;
  /** Everything received, as Latin-1. */
  received = "";
  /** Resolves once it has ended. */
  readonly ended: Promise<void>;
  #closedHere = false;
  #answered = Promise.withResolvers<void>();

  private constructor(private readonly conn: Deno.TcpConn) {
    this.opened = this.lastRead = performance.now();
    this.#answered.promise.catch(() => {}); // looked at only when an answer is expected
    this.ended = this.#read();
  }

  /** Connects to 127.0.0.1:`port` and sends `request`, if any. */
  static async open(port: number, request?: Uint8Array): Promise<HeldConnection> {
    const client = new HeldConnection(await Deno.connect({ hostname: "127.0.0.1", port }));
    if (request !== undefined) await client.conn.write(request);
    return client;
  }

  /** Sends `bytes` every `everyMs` until the connection ends (write failures ignored). */
  trickle(bytes: Uint8Array, everyMs: number): void {
    const ticker = setInterval(() => this.conn.write(bytes).catch(() => {}), everyMs);
    this.ended.finally(() => clearInterval(ticker));
  }

  /** Resolves once one whole answer has come; rejects if the connection ended first. */
  answered(): Promise<void> {
    return this.#answered.promise;
  }

  async #read(): Promise<void> {
    const buffer = new Uint8Array(4096);
    try {
      for (;;) {
        const n = await this.conn.read(buffer);
        if (n === null) break;
        this.received += latin1(buffer.subarray(0, n));
        this.lastRead = performance.now();
        const { answers, rest } = splitAnswers(this.received, []);
        if (answers.length > 0 && rest === "") this.#answered.resolve();
      }
    } catch {
      // reset by the other side, or closed here
    }
    this.closed = performance.now();
    this.#answered.reject(new Error(`ended after ${JSON.stringify(this.received.slice(0, 80))}`));
    if (!this.#closedHere) this.conn.close();
  }

  /** Closes it from this side (cleanup). */
  close(): void {
    if (this.closed !== undefined || this.#closedHere) return;
    this.#closedHere = true;
    this.conn.close();
  }
}
