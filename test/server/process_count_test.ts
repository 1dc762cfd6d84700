import assert from "node:assert/strict";
import {
  MAX_PROCESSES,
  parseProcessCount,
  PROCESS_INDEX_VARIABLE,
  supervisedIndex,
} from "../../src/server/process_count.ts";
import { MAX_RESTART_DELAY_MS, restartDelayMs } from "../../src/server/processes.ts";

Deno.test("LOGO_PROCESSES: unset or blank is one process; auto is the core count, bounded", () => {
  assert.equal(parseProcessCount(undefined, 8), 1);
  assert.equal(parseProcessCount("  ", 8), 1);
  assert.equal(parseProcessCount("auto", 8), 8);
  assert.equal(parseProcessCount("auto", 1), 1);
  assert.equal(parseProcessCount("auto", 0), 1);
  assert.equal(parseProcessCount("auto", 500), MAX_PROCESSES);
  assert.equal(parseProcessCount(" 3 ", 8), 3);
  assert.equal(parseProcessCount(String(MAX_PROCESSES), 2), MAX_PROCESSES);
});

for (const value of ["0", "-1", "1.5", "03", "x", "AUTO", "1e1", String(MAX_PROCESSES + 1)]) {
  Deno.test(`LOGO_PROCESSES="${value}" is refused with a message naming the setting`, () => {
    assert.throws(
      () => parseProcessCount(value, 2),
      (error) =>
        error instanceof RangeError &&
        error.message.startsWith(`Invalid LOGO_PROCESSES "${value}": expected auto`),
    );
  });
}

Deno.test("a process knows its index only when the supervisor set it", () => {
  const env = (values: Record<string, string>) => (name: string) => values[name];
  assert.equal(supervisedIndex(env({})), undefined);
  assert.equal(supervisedIndex(env({ [PROCESS_INDEX_VARIABLE]: "2" })), 2);
  assert.equal(supervisedIndex(env({ [PROCESS_INDEX_VARIABLE]: "0" })), undefined);
  assert.equal(supervisedIndex(env({ [PROCESS_INDEX_VARIABLE]: "x" })), undefined);
});

Deno.test("restart delay: 0.25 s doubling per death in a row, at most 30 s", () => {
  assert.deepEqual([0, 1, 2, 3].map(restartDelayMs), [250, 500, 1000, 2000]);
  assert.equal(restartDelayMs(7), 30_000);
  assert.equal(restartDelayMs(1000), MAX_RESTART_DELAY_MS);
});
