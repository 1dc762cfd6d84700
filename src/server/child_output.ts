/**
 * What the supervisor (`src/server/processes.ts`) does with a server process's stdout: the lines
 * it prints while starting are held (the supervisor prints one set of start-up lines for all its
 * processes) up to its ready line (`src/server/supervised_child.ts`); after that, its output is
 * passed on in whole lines only, so lines of several processes never mix mid-line, with no
 * decoding: bytes up to the last newline of what was read are written as they are.
 *
 * @example
 * ```ts
 * import { readChildOutput } from "./child_output.ts";
 * const stream = ReadableStream.from([new TextEncoder().encode(
 *   "Listening\nlogo-lookup-process ready, port 8000\nGET /a 200\n",
 * )]);
 * const output = readChildOutput(stream, (bytes) => Deno.stdout.writeSync(bytes));
 * console.log(await output.started); // { lines: ["Listening"], port: 8000 }
 * await output.ended; // "GET /a 200" was written
 * ```
 * @module
 */
import { parseReadyLine } from "./supervised_child.ts";

/** What a process printed before it was ready, and its port (`undefined`: it never got ready). */
export interface StartupOutput {
  /** Lines printed before the ready line. */
  readonly lines: string[];
  /** The port from the ready line, or `undefined` when the output ended before one. */
  readonly port: number | undefined;
}

/** A process's stdout being read. */
export interface ChildOutput {
  /** Resolves at the ready line, or when the output ends before one. Never rejects. */
  readonly started: Promise<StartupOutput>;
  /** Resolves when the output has ended and everything after the ready line was written. */
  readonly ended: Promise<void>;
}

const NEWLINE = 10;

/**
 * Reads `stream`: holds its lines until the ready line, then passes whole lines to `write` (and,
 * when the stream ends, whatever is left). `write` must write all it is given before returning.
 */
export function readChildOutput(
  stream: ReadableStream<Uint8Array>,
  write: (bytes: Uint8Array) => void,
): ChildOutput {
  const lines: string[] = [];
  const { promise: started, resolve } = Promise.withResolvers<StartupOutput>();
  const ended = (async () => {
    const decoder = new TextDecoder();
    let port: number | undefined;
    let pending = new Uint8Array(0);
    try {
      for await (const chunk of stream) {
        let bytes = pending.length === 0 ? chunk : concat(pending, chunk);
        while (port === undefined) {
          const end = bytes.indexOf(NEWLINE);
          if (end < 0) break;
          const line = decoder.decode(bytes.subarray(0, end)).replace(/\r$/, "");
          bytes = bytes.subarray(end + 1);
          port = parseReadyLine(line);
          if (port === undefined) lines.push(line);
          else resolve({ lines, port });
        }
        if (port === undefined) {
          pending = bytes.slice();
          continue;
        }
        const last = bytes.lastIndexOf(NEWLINE);
        if (last >= 0) write(bytes.subarray(0, last + 1));
        pending = bytes.slice(last + 1);
      }
    } catch {
      // The process's pipe broke: what was read is all there is.
    }
    if (port === undefined) {
      if (pending.length > 0) lines.push(decoder.decode(pending));
      resolve({ lines, port: undefined });
    } else if (pending.length > 0) {
      write(pending);
    }
  })();
  return { started, ended };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
