/**
 * The SDK from a Deno script outside this repository, as its README says to use it: a script in a
 * temporary folder with no `deno.json` imports `src/sdk/mod.ts` by absolute path and runs `get`,
 * `getMany`, `getStream`, a `NotFoundError` caught with `instanceof` and a retried 429 against a
 * real server. `--check` type-checks it there too; `--cached-only` with an empty `DENO_DIR` proves
 * the SDK needs nothing downloaded (it imported npm:tldts until issue 32, which failed here).
 */
import assert from "node:assert/strict";
import {
  assertConsumerReport,
  consumerScript,
  startConsumerServer,
} from "../support/sdk_consumer.ts";

const SDK = new URL("../../src/sdk/mod.ts", import.meta.url).pathname;

Deno.test("a Deno script outside the repository imports the SDK by path and uses it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "logo-lookup-deno-consumer-" });
  await using server = await startConsumerServer();
  try {
    await Deno.writeTextFile(`${dir}/consumer.ts`, consumerScript(SDK, server.config));
    await Deno.mkdir(`${dir}/deno-dir`);
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--check", "--cached-only", "--allow-net=127.0.0.1", "consumer.ts"],
      cwd: dir,
      env: { DENO_DIR: `${dir}/deno-dir`, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(120_000),
    }).output();
    const stdout = new TextDecoder().decode(run.stdout);
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, `deno run failed:\n${stderr}\n${stdout}`);
    assertConsumerReport(stdout, server);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
