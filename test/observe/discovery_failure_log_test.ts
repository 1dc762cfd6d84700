/**
 * Failed discoveries are logged with their reason at a bounded rate, and every discovery's
 * outcome and duration reach `onDiscovery` (the discovery latency histogram).
 */
import assert from "node:assert/strict";
import { DEFAULT_LINES_PER_MINUTE, suppressedLine } from "../../src/observe/bounded_log.ts";
import { startDiscoveryService } from "../../src/discovery/service.ts";
import { readSettings } from "../../src/settings/read_settings.ts";
import { closedPort } from "../support/discovery_sites.ts";

const noDns = (name: string): Promise<string[]> => Promise.reject(new Error(`no DNS for ${name}`));

Deno.test("discovery service: a storm of failed discoveries logs a few lines with their reason, then a summary", async () => {
  const domains = Array.from({ length: DEFAULT_LINES_PER_MINUTE + 5 }, (_, i) => `site${i}.test`);
  const port = closedPort(); // nothing listens: every discovery fails as unreachable
  const env = {
    LOGO_CONNECT_TO: domains.map((d) => `${d}:80:127.0.0.1:${port},${d}:443:127.0.0.1:${port}`)
      .join(","),
  };
  const kv = await Deno.openKv(":memory:");
  const lines: string[] = [];
  const outcomes: [string, number][] = [];
  const discovery = startDiscoveryService(kv, readSettings(env, "serve"), {
    resolve: noDns,
    sweepMs: 0,
    log: (message) => lines.push(message),
    onDiscovery: (outcome, seconds) => outcomes.push([outcome, seconds]),
  })!;
  try {
    await discovery.ready();
    for (const domain of domains) await discovery.discover(domain);
    assert.equal(outcomes.length, domains.length);
    for (const [outcome, seconds] of outcomes) {
      assert.equal(outcome, "not-found");
      assert.ok(seconds >= 0 && seconds < 60, String(seconds));
    }
    assert.equal(lines.length, DEFAULT_LINES_PER_MINUTE, lines.join("\n"));
    for (const [i, line] of lines.entries()) {
      assert.match(
        line,
        new RegExp(`^Discovery could not reach site${i}\\.test \\(.+\\); retrying`),
      );
    }
  } finally {
    await discovery.close(); // prints the pending summary
    kv.close();
  }
  assert.equal(lines.at(-1), suppressedLine("discovery failure", 5));
  assert.equal(lines.length, DEFAULT_LINES_PER_MINUTE + 1);
});
