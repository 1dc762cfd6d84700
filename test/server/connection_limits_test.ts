/**
 * Connection exhaustion and slow clients against the real server (`src/main.ts` in a subprocess,
 * real sockets): with a 256-descriptor limit and 300 connections held open the server keeps
 * answering others and never exits; a half-sent request and an idle keep-alive connection are
 * closed by the server once their (shortened) timeout has passed.
 */
import assert from "node:assert/strict";
import { lines, readUntil } from "../support/lines.ts";

const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const encoder = new TextEncoder();

interface Main {
  readonly port: number;
  /** The demo logo's URL printed at start-up. */
  readonly url: string;
  /** The lines printed on stdout up to the demo URL. */
  readonly printed: string[];
  /** Whether the process has exited. */
  exited(): boolean;
  /** What it has printed on stderr so far. */
  stderr(): string[];
  stop(): Promise<void>;
}

/**
 * Starts `src/main.ts` with `env` under `ulimit -n descriptors` and waits for its demo URL; with
 * `permissions` (default `-A`) as its permission flags.
 */
async function startMain(
  env: Record<string, string>,
  descriptors: number,
  permissions: string[] = ["-A"],
): Promise<Main> {
  const child = new Deno.Command("sh", {
    args: [
      "-c",
      `ulimit -n ${descriptors} && exec "$0" "$@"`,
      Deno.execPath(),
      "run",
      ...permissions,
      "--config",
      CONFIG,
      MAIN,
    ],
    env: { PORT: "0", LOGO_KV: ":memory:", LOGO_DISCOVERY: "off", NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let exited = false;
  const status = child.status.then((status) => {
    exited = true;
    return status;
  });
  const errorLines: string[] = [];
  const stderr = (async () => {
    for await (const line of lines(child.stderr)) errorLines.push(line);
    return errorLines;
  })();
  const output = lines(child.stdout);
  const printed = await readUntil(output, (line) => line.includes("token=pk_"));
  const url = printed.map((line) => line.trim()).find((line) => line.includes("token=pk_"));
  if (url === undefined) {
    child.kill("SIGKILL");
    throw new Error(`no URL printed:\n${printed.join("\n")}\n${(await stderr).join("\n")}`);
  }
  const rest = readUntil(output, () => false);
  return {
    port: Number(new URL(url).port),
    url,
    printed,
    exited: () => exited,
    stderr: () => [...errorLines],
    async stop() {
      if (!exited) child.kill("SIGTERM");
      await status;
      await rest;
      await stderr;
    },
  };
}

/** Resolves once the server closes `conn` (end of stream or reset); returns what it sent. */
async function closedByServer(conn: Deno.Conn): Promise<string> {
  const buffer = new Uint8Array(16 * 1024);
  let received = "";
  try {
    for (;;) {
      const n = await conn.read(buffer);
      if (n === null) break;
      received += new TextDecoder().decode(buffer.subarray(0, n));
    }
  } catch {
    // reset by the server: closed too
  }
  return received;
}

/** `promise`, or a failure naming `what` when it has not settled within `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One GET with `Connection: close` on a fresh connection; the status line's code. The connection
 * is closed after `ms` whatever happens, and a missing answer fails naming `what`.
 */
async function statusOf(port: number, path: string, ms: number, what: string): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    conn.close();
  }, ms);
  try {
    await conn.write(
      encoder.encode(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    );
    const answer = await closedByServer(conn);
    if (late) throw new Error(`${what}: not answered within ${ms} ms`);
    const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
    assert.ok(match, `${what}: no status line in ${JSON.stringify(answer.slice(0, 200))}`);
    return Number(match[1]);
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // already closed
    }
  }
}

/**
 * The status of a GET on a fresh connection, asked again on another fresh connection (at most
 * `attempts` in all, each given `ms`) while none is answered; fails with the server's stderr when
 * none is. A retry is printed: under the whole suite's load, one CI run in many saw a new client
 * go unanswered for 20 s after the exhaustion, which no run alone or under CPU load reproduced.
 */
async function answered(main: Main, path: string, what: string): Promise<number> {
  const attempts = 3;
  const errors: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const status = await statusOf(main.port, path, 15_000, what);
      if (attempt > 1) {
        console.log(`${what}: answered at attempt ${attempt} (${errors.join("; ")})`);
      }
      return status;
    } catch (error) {
      errors.push(String(error));
    }
  }
  throw new Error(
    `${what}: no answer in ${attempts} attempts (${errors.join("; ")}); server stderr:\n` +
      main.stderr().join("\n"),
  );
}

Deno.test("connections: 300 held open under ulimit -n 256, the server answers others and lives", async () => {
  // A long header timeout: what frees room here is the connection cap, not the timeout.
  const main = await startMain({ LOGO_HEADERS_TIMEOUT_MS: "120000" }, 256);
  const held: Deno.Conn[] = [];
  try {
    const path = new URL(main.url).pathname + new URL(main.url).search;
    for (let i = 0; i < 300; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: main.port });
      held.push(conn);
      await conn.write(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n")).catch(() => {});
    }
    // More connections than descriptors: the server closed some of them (the oldest first)…
    await within(closedByServer(held[0]), 20_000, "the oldest held connection closed");
    // …and answers a new client while the rest are still held.
    assert.equal(await answered(main, path, "a new request"), 200);
    assert.equal(main.exited(), false, "the server exited");
    for (const conn of held) conn.close();
    held.length = 0;
    assert.equal(await answered(main, path, "a request after release"), 200);
    assert.equal(main.exited(), false, "the server exited");
  } finally {
    for (const conn of held) conn.close();
    await main.stop();
  }
});

Deno.test("connections: a half-sent request and an idle keep-alive connection are closed", async (t) => {
  const main = await startMain(
    { LOGO_HEADERS_TIMEOUT_MS: "1000", LOGO_IDLE_TIMEOUT_MS: "1000" },
    1024,
  );
  try {
    await t.step("a request line without the end of its headers", async () => {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: main.port });
      try {
        await conn.write(encoder.encode("GET /example.com HTTP/1.1\r\nHost: x\r\n"));
        const sent = await within(closedByServer(conn), 20_000, "half-sent request closed");
        assert.ok(sent === "" || sent.startsWith("HTTP/1.1 408"), sent);
      } finally {
        conn.close();
      }
    });
    await t.step("a keep-alive connection after its answer", async () => {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: main.port });
      try {
        const path = new URL(main.url).pathname + new URL(main.url).search;
        await conn.write(encoder.encode(`HEAD ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
        const sent = await within(closedByServer(conn), 20_000, "idle connection closed");
        assert.match(sent, /^HTTP\/1\.1 200 /, "answered, then closed");
      } finally {
        conn.close();
      }
    });
  } finally {
    await main.stop();
  }
});

Deno.test("connections: under deno task start's own permissions the open-file limit is read", async () => {
  // Deno lets only --allow-all read /proc/self/limits; the start task has less.
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  const start: string = config.tasks.start;
  const permissions = start.split(/\s+/).filter((word) => word.startsWith("--allow-"));
  assert.ok(!permissions.includes("--allow-all") && permissions.length > 0, start);
  const main = await startMain({}, 300, permissions);
  try {
    const line = main.printed.find((text) => text.startsWith("Connections:"));
    assert.match(line ?? "", /open-file limit 300\b/, main.printed.join("\n"));
  } finally {
    await main.stop();
  }
});
