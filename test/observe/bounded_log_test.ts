import assert from "node:assert/strict";
import { createBoundedLog, RATE_WINDOW_MS, suppressedLine } from "../../src/observe/bounded_log.ts";

function recorder() {
  const lines: string[] = [];
  return {
    lines,
    log: (message: string, error?: unknown) => lines.push(`${message}|${error ?? ""}`),
  };
}

Deno.test("bounded log: at most perMinute lines of a kind, then one summary in the next minute", () => {
  let now = 1_000_000;
  const { lines, log } = recorder();
  const bounded = createBoundedLog({ log, perMinute: 3, clock: () => now });
  const failures = bounded.kind("discovery failure");
  for (let i = 0; i < 10; i++) failures(`failed ${i}`, "reason");
  assert.deepEqual(lines, ["failed 0|reason", "failed 1|reason", "failed 2|reason"]);
  now += RATE_WINDOW_MS;
  failures("failed 10", "reason");
  assert.deepEqual(lines.slice(3), [
    `${suppressedLine("discovery failure", 7)}|`,
    "failed 10|reason",
  ]);
  assert.match(lines[3], /… 7 more "discovery failure" lines suppressed in the last minute/);
});

Deno.test("bounded log: each kind has its own budget; flush prints pending summaries once", () => {
  const { lines, log } = recorder();
  const bounded = createBoundedLog({ log, perMinute: 1, clock: () => 0 });
  const a = bounded.kind("a");
  const b = bounded.kind("b");
  a("a1");
  a("a2");
  b("b1");
  assert.deepEqual(lines, ["a1|", "b1|"]);
  bounded.flush();
  assert.deepEqual(lines.slice(2), [`${suppressedLine("a", 1)}|`]);
  bounded.flush();
  assert.equal(lines.length, 3, "nothing more to summarise");
  a("a3");
  assert.equal(lines.at(-1), "a3|", "flush started a fresh window");
});

Deno.test("bounded log: a window with nothing suppressed prints no summary", () => {
  let now = 0;
  const { lines, log } = recorder();
  const kind = createBoundedLog({ log, perMinute: 2, clock: () => now }).kind("k");
  kind("one");
  now += RATE_WINDOW_MS * 5;
  kind("two");
  assert.deepEqual(lines, ["one|", "two|"]);
});

Deno.test("bounded log: perMinute must be a whole number above 0", () => {
  for (const perMinute of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => createBoundedLog({ perMinute }), RangeError);
  }
});
