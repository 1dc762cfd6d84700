/**
 * The serving thread's watchdog: a worker thread that ends the process when the serving isolate
 * has not run its event loop for `timeoutMs`, so a hung instance is replaced by whatever runs it
 * (systemd's `Restart=always`, a container's restart policy) instead of holding its share of
 * connections unanswered. A hang here is JavaScript that never yields (a runaway loop, a
 * pathological regular expression, a debugger pause): the serving thread bumps a counter in
 * shared memory four times a second, and the worker, which keeps running while that thread is
 * stuck, checks that it moved. It ends the process with SIGKILL (a stuck thread cannot run a
 * signal handler), which needs `--allow-run` (the start task has it); without it the watchdog
 * stays off and says so. A stopped process (SIGSTOP) stops its watchdog too: the reverse proxy
 * takes such an instance out of rotation (docs/operate/deploy/nginx.conf).
 *
 * @example
 * ```ts
 * import { startWatchdog } from "./watchdog.ts";
 * const watchdog = startWatchdog(10_000);
 * // … serve; at shutdown:
 * watchdog?.stop();
 * ```
 * @module
 */
import { hasDescriptorHeadroom } from "../../imagecore/descriptor_headroom.ts";

/** Default `LOGO_WATCHDOG_MS`: how long the serving thread may not run before the process ends. */
export const DEFAULT_WATCHDOG_MS = 10_000;
/** Shortest watchdog timeout accepted: GC pauses and a busy machine must never trip it. */
export const MIN_WATCHDOG_MS = 1_000;
/** How often the serving thread shows it runs. */
export const HEARTBEAT_MS = 250;

/**
 * Reads `LOGO_WATCHDOG_MS`: unset gives {@link DEFAULT_WATCHDOG_MS}, `0` turns the watchdog off.
 *
 * @throws {RangeError} "Invalid LOGO_WATCHDOG_MS …" unless 0 or a whole number of ms from
 * {@link MIN_WATCHDOG_MS}.
 */
export function parseWatchdogMs(value: string | undefined): number {
  const text = value?.trim();
  if (!text) return DEFAULT_WATCHDOG_MS;
  const ms = Number(text);
  if (!Number.isInteger(ms) || (ms !== 0 && ms < MIN_WATCHDOG_MS) || String(ms) !== text) {
    throw new RangeError(
      `Invalid LOGO_WATCHDOG_MS "${value}": expected 0 (off) or a whole number of ms from ` +
        `${MIN_WATCHDOG_MS}`,
    );
  }
  return ms;
}

/**
 * Tells a stall from progress: fed the heartbeat counter and the watcher's own monotonic clock,
 * it answers true once the counter has not moved for `timeoutMs`. Wall-clock steps cannot trip
 * it: it compares a counter, not timestamps written by another thread.
 */
export class StallDetector {
  #beat = -1;
  #since = 0;
  constructor(readonly timeoutMs: number) {}

  /** Whether `beat`, read at `nowMs`, has stayed the same for at least `timeoutMs`. */
  stalled(beat: number, nowMs: number): boolean {
    if (beat !== this.#beat) {
      this.#beat = beat;
      this.#since = nowMs;
      return false;
    }
    return nowMs - this.#since >= this.timeoutMs;
  }
}

/** A running watchdog. */
export interface Watchdog {
  /** Stops the heartbeat and the worker. */
  stop(): void;
  /** Settles once the watching thread has been created. */
  readonly started: Promise<void>;
}

/**
 * Starts the watchdog with `timeoutMs` (0: none), or returns undefined when it is off or cannot
 * end the process (no `--allow-run`, no workers), after saying why on `log`. While the process
 * has no file descriptors to spare (`canStartWorker`), its thread is created later: the heartbeat
 * runs from now, and the thread is tried again every {@link HEARTBEAT_MS}.
 */
export function startWatchdog(
  timeoutMs: number,
  log: (line: string) => void = console.log,
  canStartWorker: () => boolean = hasDescriptorHeadroom,
): Watchdog | undefined {
  if (timeoutMs === 0) return undefined;
  if (
    typeof Worker !== "function" || Deno.permissions.querySync({ name: "run" }).state !== "granted"
  ) {
    log("Watchdog off: it needs worker threads and --allow-run to end a hung process.");
    return undefined;
  }
  const beat = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker | undefined;
  let stopped = false;
  const started = Promise.withResolvers<void>();
  const timer = setInterval(() => {
    Atomics.add(beat, 0, 1);
    if (worker === undefined) tryStart();
  }, HEARTBEAT_MS);
  Deno.unrefTimer(timer);
  function tryStart(): void {
    if (stopped || !canStartWorker()) return;
    worker = new Worker(new URL("./watchdog_worker.ts", import.meta.url), { type: "module" });
    worker.postMessage({ beat, timeoutMs });
    started.resolve();
  }
  tryStart();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      worker?.terminate();
    },
    started: started.promise,
  };
}
