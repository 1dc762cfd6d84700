/**
 * Deno Deploy's conditions, emulated: the service started the way Deploy starts an app — `deno
 * serve` on the entry's default export (`src/serve.ts`), the port given by the runner,
 * `DENO_DEPLOYMENT_ID` set, no `LOGO_KV` — so the store is `Deno.openKv()` with no path (here
 * the per-`--location` default store; on Deploy the deployment's KV). It is never seeded with a
 * demo key; a key and a logo added with the admin CLI against the same store are served, resized
 * by render workers; SIGTERM ends it with status 0; a local store file given beside
 * `DENO_DEPLOYMENT_ID` is a start-up error.
 */
import assert from "node:assert/strict";
import { ADMIN_MAIN, REPO_ROOT } from "../support/admin_cli.ts";
import { flatImage } from "../support/images.ts";
import { lines } from "../support/lines.ts";

const SERVE = new URL("../../src/serve.ts", import.meta.url).pathname;

/** A fresh `--location`: its own default KV store under DENO_DIR. */
function freshLocation(): string {
  return `http://deploy-emulation-${crypto.randomUUID()}.test/`;
}

/** `deno serve` of src/serve.ts as Deploy runs it; resolves with its port once it listens. */
async function startDeployed(location: string, env: Record<string, string> = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["serve", "-A", "--location", location, "--port", "0", SERVE],
    cwd: REPO_ROOT,
    env: { DENO_DEPLOYMENT_ID: "emulated-1", LOGO_DISCOVERY: "off", NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const printed: string[] = [];
  const { promise: listening, resolve } = Promise.withResolvers<number>();
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const line of lines(stream)) {
      printed.push(line);
      const match = /listening on http:\/\/[^\s]+:(\d+)/.exec(line);
      if (match) resolve(Number(match[1]));
    }
  };
  const collected = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const exited = child.status.then(async (status) => {
    await collected;
    return status.code;
  });
  const port = await Promise.race([listening, exited.then(() => undefined)]);
  return {
    port,
    printed,
    exited,
    /** SIGTERM, as a platform stops an instance; resolves with the exit code. */
    stop(): Promise<number> {
      child.kill("SIGTERM");
      return exited;
    },
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGKILL");
      } catch {
        // already exited
      }
      await exited;
    },
  };
}

/** The admin CLI on the same default store (same `--location`, `LOGO_KV=platform`). */
async function admin(location: string, args: string[]): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--location", location, ADMIN_MAIN, ...args],
    cwd: REPO_ROOT,
    env: { LOGO_KV: "platform", NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return stdout;
}

Deno.test("Deploy emulated: deno serve's default export on the platform KV, never seeded", async () => {
  const location = freshLocation();
  await using server = await startDeployed(location);
  assert.ok(server.port, `deno serve did not listen:\n${server.printed.join("\n")}`);
  const base = `http://127.0.0.1:${server.port}`;
  assert.ok(
    server.printed.some((line) => line.includes("(KV: platform)")),
    server.printed.join("\n"),
  );
  assert.ok(!server.printed.some((line) => /demo|pk_/i.test(line)), "no demo key printed");
  const health = await fetch(`${base}/healthz`);
  await health.body?.cancel();
  assert.equal(health.status, 200);

  const created = JSON.parse(await admin(location, ["key", "create"]));
  const token = created.publishableKey as string;
  assert.match(token, /^pk_/);
  const keys = JSON.parse(await admin(location, ["key", "list"]));
  assert.equal(keys.length, 1, "the store holds only the key made here: no demo key");

  const file = await Deno.makeTempFile({ suffix: ".png" });
  try {
    await Deno.writeFile(file, flatImage(300, 300, [200, 40, 40, 255]));
    await admin(location, ["logo", "add", "acme.example", file]);
  } finally {
    await Deno.remove(file);
  }
  const logo = await fetch(`${base}/acme.example?token=${token}&size=64&greyscale=true`);
  const bytes = new Uint8Array(await logo.arrayBuffer());
  assert.equal(logo.status, 200, new TextDecoder().decode(bytes));
  assert.equal(logo.headers.get("content-type"), "image/png");
  assert.equal(logo.headers.get("x-logo-width"), "64");
  const unknown = await fetch(`${base}/acme.example?token=pk_000000000000000000000000`);
  await unknown.body?.cancel();
  assert.equal(unknown.status, 401);
  // SIGTERM: deno serve stops taking requests, the service closes its timers, workers and KV,
  // and the process exits by itself.
  assert.equal(await server.stop(), 0, server.printed.join("\n"));
});

Deno.test("Deploy emulated: a local store file beside DENO_DEPLOYMENT_ID is a start-up error", async () => {
  for (const kv of ["./data/deploy.kv", ":memory:"]) {
    await using server = await startDeployed(freshLocation(), { LOGO_KV: kv });
    assert.equal(server.port, undefined, "it must not listen");
    assert.notEqual(await server.exited, 0);
    const said = server.printed.join("\n");
    assert.match(said, new RegExp(`Cannot use LOGO_KV=${kv.replace(".", "\\.")} on Deno Deploy`));
  }
});
