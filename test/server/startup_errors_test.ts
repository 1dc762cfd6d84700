/**
 * `deno task start` with a setting that cannot work stops with one line naming the setting and
 * what to do (exit status 1, no stack trace); `--help` prints the usage and starts nothing.
 * Each case runs the real task in a child process, with the task's own permissions.
 */
import assert from "node:assert/strict";
import { lines, readUntil } from "../support/lines.ts";
import { storeFileExists } from "../../src/store/open_kv.ts";
import { startMainProcess } from "../support/main_process.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

interface Run {
  code: number;
  stdout: string[];
  stderr: string[];
}

/**
 * Runs `deno task start ARGS` with `env`. A child that starts serving instead of stopping is
 * killed as soon as it says it listens, and the run reports that line.
 */
async function start(env: Record<string, string>, args: string[] = []): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "start", ...args],
    cwd: ROOT,
    env: { LOGO_DISCOVERY: "off", NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = (async () => {
    const read: string[] = [];
    for await (const line of lines(child.stderr)) read.push(line);
    return read;
  })();
  const stdout = await readUntil(lines(child.stdout), (line) => line.includes("listening on"));
  if (stdout.some((line) => line.includes("listening on"))) child.kill("SIGTERM"); // deno task forwards it to the server
  const status = await child.status;
  // Deno's own download progress may precede the program's output.
  return {
    code: status.code,
    stdout,
    stderr: (await stderr).filter((line) => !/^Download /.test(line)),
  };
}

/** The run stopped with exit status 1 and exactly one stderr line matching every pattern. */
function assertOneLineError(run: Run, ...patterns: RegExp[]): void {
  assert.equal(
    run.code,
    1,
    `expected exit status 1:\n${[...run.stdout, ...run.stderr].join("\n")}`,
  );
  assert.equal(run.stderr.length, 1, `expected one line, got:\n${run.stderr.join("\n")}`);
  for (const pattern of patterns) assert.match(run.stderr[0], pattern);
  assert.doesNotMatch(run.stderr[0], /--allow-all|os error|\bat file:/);
}

Deno.test("start-up: LOGO_KV under /proc names the setting and says what to do", async () => {
  const run = await start({ LOGO_KV: "/proc/nope/x.kv", PORT: "0" });
  assertOneLineError(
    run,
    /^Cannot open the store at LOGO_KV=\/proc\/nope\/x\.kv: /,
    /the directory \/proc\/nope does not exist/,
    /Set LOGO_KV to a file path in a writable directory/,
  );
});

Deno.test("start-up: LOGO_KV below a file names the setting and says what to do", async () => {
  const run = await start({ LOGO_KV: "/dev/null/x.kv", PORT: "0" });
  assertOneLineError(
    run,
    /^Cannot open the store at LOGO_KV=\/dev\/null\/x\.kv: \/dev\/null is not a directory\./,
    /Set LOGO_KV/,
  );
});

Deno.test("start-up: a remote LOGO_KV without DENO_KV_ACCESS_TOKEN says so", async () => {
  const run = await start({ LOGO_KV: "http://127.0.0.1:9/", PORT: "0" });
  assertOneLineError(run, /LOGO_KV=http:\/\/127\.0\.0\.1:9\//, /DENO_KV_ACCESS_TOKEN is not set/);
});

Deno.test("start-up: a busy port names PORT and says what to do", async () => {
  const busy = Deno.listen({ port: 0 });
  const dir = await Deno.makeTempDir();
  try {
    const port = busy.addr.port;
    const run = await start({ LOGO_KV: `${dir}/logo.kv`, PORT: String(port) });
    assertOneLineError(
      run,
      new RegExp(`^Cannot listen on PORT=${port}: the port is in use\\.`),
      /Stop the other process or set PORT\./,
    );
  } finally {
    busy.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("start-up: a bad LOGO_DISCOVERY is refused before the store is opened", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = await start({ LOGO_KV: `${dir}/data/logo.kv`, PORT: "0", LOGO_DISCOVERY: "maybe" });
    assertOneLineError(run, /^Invalid LOGO_DISCOVERY "maybe": expected on or off$/);
    assert.equal(await storeFileExists(`${dir}/data`), false, "nothing created");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("start-up: a bad LOGO_DNS_SERVER is refused before the store is opened", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = { LOGO_KV: `${dir}/data/logo.kv`, PORT: "0", LOGO_DNS_SERVER: "dns.test:53" };
    const run = await start(env);
    assertOneLineError(run, /^Invalid LOGO_DNS_SERVER "dns\.test:53": expected address:port/);
    assert.equal(await storeFileExists(`${dir}/data`), false, "nothing created");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

for (const flag of ["--help", "-h"]) {
  Deno.test(`start-up: deno task start ${flag} prints the usage and starts nothing`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      const run = await start({ LOGO_KV: `${dir}/data/logo.kv`, PORT: "0" }, [flag]);
      assert.equal(run.code, 0, [...run.stdout, ...run.stderr].join("\n"));
      const text = run.stdout.join("\n");
      assert.match(text, /^Usage: deno task start/);
      const names = [
        "PORT",
        "LOGO_KV",
        "DENO_KV_ACCESS_TOKEN",
        "LOGO_DISCOVERY",
        "LOGO_CONNECT_TO",
        "LOGO_DNS_SERVER",
      ];
      for (const name of names) assert.match(text, new RegExp(`^ {2}${name} `, "m"));
      assert.equal(await storeFileExists(`${dir}/data`), false, "the store was not opened");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

for (
  const [name, value, instead] of [
    ["LOGO_PROCESSES", "2", /run one instance per core, each on its own PORT/],
    ["LOGO_MAX_CONNECTIONS", "100", /cap connections per client in the reverse proxy/],
    ["LOGO_HEADERS_TIMEOUT_MS", "1000", /client_header_timeout/],
    ["LOGO_IDLE_TIMEOUT_MS", "1000", /keepalive_timeout/],
  ] as const
) {
  Deno.test(`start-up: the retired ${name} is refused before anything starts`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      const run = await start({ LOGO_KV: `${dir}/data/logo.kv`, PORT: "0", [name]: value });
      assertOneLineError(run, new RegExp(`^${name} is no longer read: `), instead);
      assert.equal(await storeFileExists(`${dir}/data`), false, "nothing created");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("start-up: a bad LOGO_REUSE_PORT is refused before anything starts", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = await start({ LOGO_KV: `${dir}/data/logo.kv`, PORT: "0", LOGO_REUSE_PORT: "yes" });
    assertOneLineError(run, /^Invalid LOGO_REUSE_PORT "yes": expected on or off/);
    assert.equal(await storeFileExists(`${dir}/data`), false, "nothing created");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("start-up: with LOGO_REUSE_PORT=on two servers share one port", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = { LOGO_KV: `${dir}/logo.kv`, LOGO_REUSE_PORT: "on", LOGO_DISCOVERY: "off" };
    const first = await startMainProcess({ ...env, PORT: "0" });
    await using _first = first;
    await using second = await startMainProcess({ ...env, PORT: String(first.port) });
    assert.equal(second.port, first.port);
    const health = await fetch(`http://127.0.0.1:${first.port}/healthz`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    assert.equal(await second.stop(), 0);
    assert.equal(await first.stop(), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
