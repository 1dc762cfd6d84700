/**
 * The server's side of being one of the supervisor's processes (`src/server/processes.ts`): it
 * says on stdout, in one line the supervisor swallows, when it listens and on which port; and it
 * learns that the supervisor is gone (killed, crashed) when its stdin — a pipe the supervisor
 * holds — ends, so it can stop instead of serving on as an orphan nobody will stop.
 *
 * @example
 * ```ts
 * import { supervisedChild } from "./supervised_child.ts";
 * const child = supervisedChild((name) => Deno.env.get(name));
 * if (child !== undefined) {
 *   child.supervisorGone().then(() => console.log("stopping"));
 *   child.ready(8000);
 * }
 * ```
 * @module
 */
import { supervisedIndex } from "./process_count.ts";

/** Start of the line a supervised process prints once it listens; the port follows. */
export const READY_LINE_PREFIX = "logo-lookup-process ready, port ";

/** A process started by the supervisor. */
export interface SupervisedChild {
  /** Its index among the supervisor's processes, 1…N. */
  readonly index: number;
  /** Tells the supervisor this process listens on `port` and has printed its start-up lines. */
  ready(port: number): void;
  /** Resolves when the supervisor is gone (stdin ended or failed). */
  supervisorGone(): Promise<void>;
}

/** The ready line for `port`. */
export function readyLine(port: number): string {
  return `${READY_LINE_PREFIX}${port}`;
}

/** The port in a ready line, or `undefined` when `line` is not one. */
export function parseReadyLine(line: string): number | undefined {
  if (!line.startsWith(READY_LINE_PREFIX)) return undefined;
  const port = Number(line.slice(READY_LINE_PREFIX.length));
  return Number.isInteger(port) && port > 0 && port <= 65_535 ? port : undefined;
}

/**
 * This process as one of the supervisor's, or `undefined` when it runs on its own.
 * `stdin` and `print` default to the process's own.
 */
export function supervisedChild(
  env: (name: string) => string | undefined,
  stdin: () => ReadableStream<Uint8Array> = () => Deno.stdin.readable,
  print: (line: string) => void = console.log,
): SupervisedChild | undefined {
  const index = supervisedIndex(env);
  if (index === undefined) return undefined;
  let gone: Promise<void> | undefined;
  return {
    index,
    ready: (port) => print(readyLine(port)),
    supervisorGone() {
      gone ??= (async () => {
        try {
          // The supervisor never writes: the pipe only ends, when it exits.
          for await (const _ of stdin());
        } catch {
          // A broken pipe ends it the same way.
        }
      })();
      return gone;
    },
  };
}
