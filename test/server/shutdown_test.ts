/**
 * SIGTERM stops the server within 5 s whatever KV does: here the remote KV (a real `denokv`
 * server) is killed while the rate limiter holds unspent quota, so giving it back can never
 * succeed. Deno's KV Connect client logs each failed retry (about 4 a second, its own logging);
 * the number of those lines after SIGTERM is bounded because the process leaves.
 */
import assert from "node:assert/strict";
import { denokv, startDenoKv } from "../support/denokv.ts";
import { exchange } from "../support/http.ts";
import { lines, readUntil } from "../support/lines.ts";

const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

Deno.test({
  name: "shutdown: SIGTERM exits within 5 s after the remote KV died, KV error lines bounded",
  ignore: denokv.ignore,
  async fn() {
    await using kvServer = await startDenoKv();
    let server: Deno.ChildProcess | undefined;
    try {
      server = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--config", CONFIG, MAIN],
        env: { PORT: "0", ...kvServer.env, LOGO_DISCOVERY: "off", NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const stderr: { at: number; line: string }[] = [];
      const stderrDone = (async () => {
        for await (const line of lines(server.stderr)) {
          stderr.push({ at: performance.now(), line });
        }
      })();
      const output = lines(server.stdout);
      const printed = await readUntil(output, (line) => line.includes("token=pk_"));
      const url = printed.map((line) => line.trim()).find((line) => line.includes("token=pk_"));
      assert.ok(url, `no URL printed:\n${printed.join("\n")}`);
      // A request makes the limiter lease a block of quota it will try to give back on SIGTERM.
      assert.equal((await exchange(url)).status, 200);

      await kvServer.kill();

      const sigterm = performance.now();
      server.kill("SIGTERM");
      // The deadline under test: an exit, or 5 s after SIGTERM (then the child is killed).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<"late">((resolve) => timer = setTimeout(resolve, 5_000, "late"));
      const first = await Promise.race([server.status, deadline]);
      const elapsed = performance.now() - sigterm;
      clearTimeout(timer);
      if (first === "late") server.kill("SIGKILL");
      const rest = await readUntil(output, () => false);
      const status = await server.status;
      await stderrDone;

      const log = [...rest, ...stderr.slice(-5).map((e) => e.line)].join("\n");
      assert.notEqual(first, "late", `still running 5 s after SIGTERM:\n${log}`);
      assert.ok(elapsed < 5_000, `took ${Math.round(elapsed)} ms to exit after SIGTERM`);
      assert.equal(status.code, 0, log);
      assert.ok(rest.includes("Stopping…"), rest.join("\n"));
      const kvErrors = stderr.filter((e) => e.at >= sigterm && /KV/.test(e.line));
      assert.ok(
        kvErrors.length <= 30,
        `${kvErrors.length} KV error lines after SIGTERM:\n${
          kvErrors.map((e) => e.line).join("\n")
        }`,
      );
      console.log(`exited ${Math.round(elapsed)} ms after SIGTERM; ${kvErrors.length} KV lines`);
    } finally {
      if (server !== undefined) {
        try {
          server.kill("SIGKILL");
        } catch { /* already gone */ }
        await server.status;
      }
    }
  },
});
