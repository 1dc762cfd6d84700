/**
 * The watchdog's thread (`watchdog.ts`): reads the serving thread's heartbeat counter and ends
 * the process with SIGKILL once it has not moved for the timeout. It writes its one line straight
 * to stderr: a worker's `console` goes through the (stuck) serving thread.
 *
 * @module
 */
import { HEARTBEAT_MS, StallDetector } from "./watchdog.ts";

interface Start {
  beat: Int32Array;
  timeoutMs: number;
}

/** The worker's global scope, as much of it as is used here. */
const scope = globalThis as unknown as { onmessage: (event: MessageEvent<Start>) => void };

scope.onmessage = (event) => {
  const { beat, timeoutMs } = event.data;
  const detector = new StallDetector(timeoutMs);
  setInterval(() => {
    if (!detector.stalled(Atomics.load(beat, 0), performance.now())) return;
    const line = `The serving thread has not run for ${timeoutMs} ms (LOGO_WATCHDOG_MS): ` +
      "ending the process so that it is replaced.\n";
    Deno.stderr.writeSync(new TextEncoder().encode(line));
    Deno.kill(Deno.pid, "SIGKILL");
  }, Math.min(HEARTBEAT_MS, timeoutMs / 4));
};
