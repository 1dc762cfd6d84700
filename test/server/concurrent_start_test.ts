/**
 * Instances started at the same moment on one new store file (`systemctl start logo-lookup@1
 * logo-lookup@2` on a fresh box) all come up: the one creating the file holds it for a moment
 * ("database is locked" for the others), and the others wait for it instead of exiting. Without
 * the wait, about one round in six lost an instance on this machine; five rounds of three.
 */
import assert from "node:assert/strict";
import { startMainProcess } from "../support/main_process.ts";

Deno.test("three instances started at once on one new store file all serve, with one demo key", async () => {
  for (let round = 1; round <= 5; round++) {
    const dir = await Deno.makeTempDir();
    const env = { LOGO_KV: `${dir}/data/logo.kv`, LOGO_RENDER_WORKERS: "0" };
    const started = await Promise.allSettled([1, 2, 3].map(() => startMainProcess(env)));
    const running = started.flatMap((s) => s.status === "fulfilled" ? [s.value] : []);
    try {
      const failed = started.flatMap((s) => s.status === "rejected" ? [String(s.reason)] : []);
      assert.deepEqual(failed, [], `round ${round}`);
      for (const server of running) {
        const health = await fetch(`http://127.0.0.1:${server.port}/readyz`);
        assert.equal(health.status, 200, `round ${round}: ${await health.text()}`);
      }
      const codes = await Promise.all(running.map((server) => server.stop()));
      assert.deepEqual(codes, [0, 0, 0], `round ${round}: exit codes`);
      // Each prints the demo URL once the demo is complete; one that looked while another was
      // seeding prints none. Every URL printed names the one demo key.
      const urls = new Set(
        running.flatMap((server) =>
          server.printed.filter((line) => line.includes("?token=")).map((line) =>
            line.trim().replace(/:\d+\//, "/")
          )
        ),
      );
      assert.equal(urls.size, 1, `round ${round}: one demo key for all: ${[...urls]}`);
    } finally {
      await Promise.all(running.map((server) => server[Symbol.asyncDispose]()));
      await Deno.remove(dir, { recursive: true });
    }
  }
});
