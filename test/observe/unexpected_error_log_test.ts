/** The request path's 500s are logged with their reason at a bounded rate. */
import assert from "node:assert/strict";
import { DEFAULT_LINES_PER_MINUTE, suppressedLine } from "../../src/observe/bounded_log.ts";
import { failingLimiter } from "../support/failing_limiter.ts";
import { startTestApp } from "../support/server.ts";

Deno.test("app: a storm of unexpected errors logs a few lines with their reason, then a summary on close", async () => {
  const lines: string[] = [];
  const server = await startTestApp({
    app: {
      limiter: failingLimiter(new TypeError("limiter broke")),
      log: (message, error) => lines.push(error === undefined ? message : `${message}: ${error}`),
    },
  });
  const requests = DEFAULT_LINES_PER_MINUTE * 3;
  try {
    for (let i = 0; i < requests; i++) {
      const response = await server.fetch(server.logoUrl("example.com"));
      assert.equal(response.status, 500);
      await response.body?.cancel();
    }
    assert.equal(lines.length, DEFAULT_LINES_PER_MINUTE);
    for (const line of lines) {
      assert.equal(line, "Internal error on the request path: TypeError: limiter broke");
    }
  } finally {
    await server.close();
  }
  assert.deepEqual(lines.slice(DEFAULT_LINES_PER_MINUTE), [
    suppressedLine("unexpected error", requests - DEFAULT_LINES_PER_MINUTE),
  ]);
});
