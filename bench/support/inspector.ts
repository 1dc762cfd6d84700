/**
 * A client of the V8 inspector of a process started with `--inspect=HOST:PORT`: the Chrome
 * DevTools Protocol over Deno's built-in WebSocket, one request at a time. The memory benchmark
 * uses it to force a full garbage collection in the real server (`HeapProfiler.collectGarbage`)
 * and to read `Deno.memoryUsage()` there (`Runtime.evaluate`), so the server needs no debug route.
 *
 * @example
 * ```ts
 * import { Inspector } from "./inspector.ts";
 * const inspector = await Inspector.connect("ws://127.0.0.1:9229/ws/…");
 * await inspector.call("HeapProfiler.collectGarbage");
 * console.log(await inspector.evaluate("Deno.memoryUsage()"));
 * inspector.close();
 * ```
 * @module
 */

interface Reply {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** One inspector session. */
export class Inspector {
  readonly #socket: WebSocket;
  readonly #waiting = new Map<number, (reply: Reply) => void>();
  #nextId = 1;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.onmessage = (event) => {
      const reply = JSON.parse(String(event.data)) as Reply;
      if (reply.id !== undefined) this.#waiting.get(reply.id)?.(reply);
    };
  }

  /** Opens a session on the inspector's WebSocket address (printed as "Debugger listening on"). */
  static connect(url: string): Promise<Inspector> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.onopen = () => resolve(new Inspector(socket));
      socket.onerror = (event) =>
        reject(new Error(`Cannot open the inspector at ${url}: ${event}`));
    });
  }

  /** Sends one protocol command and resolves with its result. */
  call(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, (reply) => {
        this.#waiting.delete(id);
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
        else resolve(reply.result ?? {});
      });
      this.#socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** The value of a JavaScript expression in the main isolate (awaited, by value). */
  async evaluate<T>(expression: string): Promise<T> {
    const result = await this.call("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
    });
    const value = result.result as { value?: T } | undefined;
    if (result.exceptionDetails !== undefined) {
      throw new Error(`Cannot evaluate ${expression}: ${JSON.stringify(result.exceptionDetails)}`);
    }
    return value?.value as T;
  }

  /** Closes the session. */
  close(): void {
    this.#socket.close();
  }
}
