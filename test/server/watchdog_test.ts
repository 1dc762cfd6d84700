/**
 * The serving thread's watchdog (`src/server/watchdog.ts`): its stall detector on an injected
 * clock, its setting, and the real thing — `src/main.ts` whose serving isolate is paused through
 * the V8 inspector (JavaScript that stops yielding, while the watchdog's worker thread runs on)
 * ends with SIGKILL and says why, so that its supervisor replaces it.
 */
import assert from "node:assert/strict";
import {
  DEFAULT_WATCHDOG_MS,
  MIN_WATCHDOG_MS,
  parseWatchdogMs,
  StallDetector,
} from "../../src/server/watchdog.ts";
import { lines } from "../support/lines.ts";

const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

Deno.test("watchdog: a heartbeat that moves never stalls; one that stops stalls after the timeout", () => {
  const detector = new StallDetector(1_000);
  let beat = 0;
  for (let now = 0; now <= 10_000; now += 250) assert.equal(detector.stalled(beat++, now), false);
  // the counter stops at 10,000 ms
  assert.equal(detector.stalled(beat, 10_250), false, "a new value is progress");
  assert.equal(detector.stalled(beat, 11_249), false, "999 ms without a beat is not a stall");
  assert.equal(detector.stalled(beat, 11_250), true, "1,000 ms is");
  assert.equal(detector.stalled(beat + 1, 11_500), false, "a late beat clears it");
});

Deno.test("watchdog: LOGO_WATCHDOG_MS is 0 (off) or a whole number of ms from the minimum", () => {
  assert.equal(parseWatchdogMs(undefined), DEFAULT_WATCHDOG_MS);
  assert.equal(parseWatchdogMs(" "), DEFAULT_WATCHDOG_MS);
  assert.equal(parseWatchdogMs("0"), 0);
  assert.equal(parseWatchdogMs(String(MIN_WATCHDOG_MS)), MIN_WATCHDOG_MS);
  for (const bad of ["999", "-1", "1.5", "10s", "1e4"]) {
    assert.throws(() => parseWatchdogMs(bad), /^RangeError: Invalid LOGO_WATCHDOG_MS/);
  }
});

/** Sends `method` to the inspector at `url` and resolves once it answered. */
async function inspect(url: string, methods: string[]): Promise<WebSocket> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let id = 0;
  for (const method of methods) {
    const answered = new Promise<void>((resolve) => {
      const mine = ++id;
      socket.addEventListener("message", (event) => {
        if (JSON.parse(String(event.data)).id === mine) resolve();
      });
    });
    socket.send(JSON.stringify({ id, method }));
    await answered;
  }
  return socket;
}

Deno.test("watchdog: a serving isolate that stops running is ended with SIGKILL", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--inspect=127.0.0.1:0", "--config", CONFIG, MAIN],
    env: {
      PORT: "0",
      LOGO_KV: ":memory:",
      LOGO_DISCOVERY: "off",
      LOGO_WATCHDOG_MS: "2000",
      NO_COLOR: "1",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const printed: string[] = [];
  const { promise: listening, resolve: listened } = Promise.withResolvers<string>();
  const { promise: inspector, resolve: found } = Promise.withResolvers<string>();
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const line of lines(stream)) {
      printed.push(line);
      const ws = /(ws:\/\/127\.0\.0\.1:\d+\/[\w/-]+)/.exec(line);
      if (ws) found(ws[1]);
      const port = /listening on http:\/\/[^\s]+:(\d+)/.exec(line);
      if (port) listened(port[1]);
    }
  };
  const collected = Promise.all([collect(child.stdout), collect(child.stderr)]);
  let socket: WebSocket | undefined;
  try {
    const port = await Promise.race([listening, child.status.then(() => "")]);
    assert.ok(port, printed.join("\n"));
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    socket = await inspect(await inspector, ["Debugger.enable", "Debugger.pause"]);
    // The watchdog ends it after 2 s; if it does not, the test does after 60 s, and fails.
    let gaveUp = false;
    const limit = setTimeout(() => {
      gaveUp = true;
      child.kill("SIGKILL");
    }, 60_000);
    const status = await child.status;
    clearTimeout(limit);
    await collected;
    assert.equal(gaveUp, false, `the watchdog did not end it:\n${printed.join("\n")}`);
    assert.equal(status.signal, "SIGKILL", printed.join("\n"));
    assert.ok(
      printed.some((line) => /has not run for 2000 ms \(LOGO_WATCHDOG_MS\)/.test(line)),
      printed.join("\n"),
    );
  } finally {
    socket?.close();
    try {
      child.kill("SIGKILL");
    } catch {
      // ended
    }
    await child.status;
    await collected;
  }
});
