/**
 * Log lines of one kind at a bounded rate: at most `perMinute` lines of each kind (unexpected
 * errors, failed discoveries…) per minute; the lines past that are counted, and the first line of
 * that kind in a later minute is preceded by one summary, `… 42 more "kind" lines suppressed in
 * the last minute`. So a storm of failures costs a few lines a minute, and none is lost silently.
 * `flush()` prints the pending summaries (main.ts calls it on shutdown).
 *
 * Messages and errors go to `log` as given: wrap it in `safeLog` (`src/safe_log.ts`) so no token
 * reaches a line.
 *
 * @example
 * ```ts
 * import { createBoundedLog } from "./bounded_log.ts";
 * const bounded = createBoundedLog({ log: console.error, perMinute: 10 });
 * const internal = bounded.kind("unexpected error");
 * internal("Internal error on the request path", new Error("boom"));
 * bounded.flush();
 * ```
 * @module
 */
import type { Log } from "../safe_log.ts";

/** Default most lines of one kind per minute. */
export const DEFAULT_LINES_PER_MINUTE = 10;

/** The length of a rate window. */
export const RATE_WINDOW_MS = 60_000;

/** Options of {@link createBoundedLog}. */
export interface BoundedLogOptions {
  /** Where lines go; default `console.error`. */
  log?: Log;
  /** Most lines of one kind per minute; default {@link DEFAULT_LINES_PER_MINUTE}. */
  perMinute?: number;
  /** Epoch-ms clock; default `Date.now`. */
  clock?: () => number;
}

/** Bounded logs, one {@link Log} per kind. */
export interface BoundedLog {
  /** A log whose lines count against `name`'s budget. */
  kind(name: string): Log;
  /** Prints the summary of every kind with suppressed lines, and starts their windows afresh. */
  flush(): void;
}

interface KindState {
  windowStart: number;
  printed: number;
  suppressed: number;
}

/** The summary line of `count` lines of `kind` left out. */
export function suppressedLine(kind: string, count: number): string {
  return `… ${count} more "${kind}" line${count === 1 ? "" : "s"} suppressed in the last minute`;
}

/** Creates a bounded log; see the module documentation. */
export function createBoundedLog(options: BoundedLogOptions = {}): BoundedLog {
  const log = options.log ?? console.error;
  const perMinute = options.perMinute ?? DEFAULT_LINES_PER_MINUTE;
  if (!Number.isInteger(perMinute) || perMinute < 1) {
    throw new RangeError("Cannot create bounded log: perMinute must be a whole number above 0");
  }
  const clock = options.clock ?? Date.now;
  const kinds = new Map<string, KindState>();

  function summarize(name: string, state: KindState, now: number): void {
    if (state.suppressed > 0) log(suppressedLine(name, state.suppressed));
    state.windowStart = now;
    state.printed = 0;
    state.suppressed = 0;
  }

  return {
    kind(name) {
      return (message, error) => {
        const now = clock();
        let state = kinds.get(name);
        if (state === undefined) {
          state = { windowStart: now, printed: 0, suppressed: 0 };
          kinds.set(name, state);
        } else if (now - state.windowStart >= RATE_WINDOW_MS) {
          summarize(name, state, now);
        }
        if (state.printed >= perMinute) {
          state.suppressed++;
          return;
        }
        state.printed++;
        if (error === undefined) log(message);
        else log(message, error);
      };
    },
    flush() {
      const now = clock();
      for (const [name, state] of kinds) summarize(name, state, now);
    },
  };
}
