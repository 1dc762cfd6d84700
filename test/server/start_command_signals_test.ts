/**
 * The README's start command exactly as written, `npx -y deno@2.9.6 task start` (cwd: the repo
 * root), stops on the signals the usual launchers send: SIGTERM or SIGINT to the npx process
 * alone (Docker with npx as PID 1, supervisord, `kill $!`) and SIGINT to its whole process group
 * (Ctrl-C in a terminal). Within 5 s of the signal every process it started is gone (npm, any
 * shell, `deno task`, the server), the port refuses connections, a request the server had already
 * read gets its complete 200, and npx exits 0.
 *
 * npm runs the command through its `script-shell` (`sh -c` by default) and forwards SIGINT and
 * SIGTERM to that shell only. dash does not pass them on: on SIGTERM it dies and npm with it,
 * leaving `deno task` and the server serving; on SIGINT it waits for its child, so nothing stops.
 * The repo's `.npmrc` names a shell that replaces itself with the command (bash), so the signal
 * reaches `deno task`, which forwards it to the server.
 *
 * Processes are found through `/proc` (Linux) and told apart by their start time, so a reused pid
 * is not mistaken for a survivor; a zombie (exited, not yet reaped) counts as gone.
 */
import assert from "node:assert/strict";
import { REPO_ROOT } from "../support/admin_cli.ts";
import { pollUntil } from "../support/denokv_cluster.ts";
import { lines } from "../support/lines.ts";

/** The requirement: signal to everything gone and the port closed. Start-up is not in it. */
const STOP_DEADLINE_MS = 5_000;
/** Start-up (npm, `deno task`, the server's first start) on a loaded machine. */
const START_TIMEOUT_MS = 180_000;

/** A process seen under npx: its pid, and its start time to tell a reused pid apart. */
interface Seen {
  readonly pid: number;
  readonly start: string;
  readonly command: string;
}

/** Fields of `/proc/PID/stat` after the command name: [0] state, [1] ppid, [19] start time. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined; // gone
  }
}

function commandOf(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").join(" ").trim();
  } catch {
    return "?";
  }
}

/** `root` and every process below it, now. */
function processTree(root: number): Seen[] {
  const children = new Map<number, number[]>();
  const starts = new Map<number, string>();
  for (const entry of Deno.readDirSync("/proc")) {
    const pid = Number(entry.name);
    if (!Number.isInteger(pid)) continue;
    const fields = statFields(pid);
    if (fields === undefined) continue;
    starts.set(pid, fields[19]);
    const ppid = Number(fields[1]);
    children.set(ppid, [...children.get(ppid) ?? [], pid]);
  }
  const tree: Seen[] = [];
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    const start = starts.get(pid);
    if (start !== undefined) tree.push({ pid, start, command: commandOf(pid) });
    queue.push(...children.get(pid) ?? []);
  }
  return tree;
}

/** Whether `seen` still runs: same pid and start time, and not a zombie. */
function runs(seen: Seen): boolean {
  const fields = statFields(seen.pid);
  return fields !== undefined && fields[19] === seen.start && !"ZX".includes(fields[0]);
}

async function portRefuses(port: number): Promise<boolean> {
  try {
    (await Deno.connect({ hostname: "127.0.0.1", port })).close();
    return false;
  } catch (error) {
    // Reset or aborted: the listener was closing with this connection queued; ask again.
    return error instanceof Deno.errors.ConnectionRefused;
  }
}

/**
 * Where the request sent from `clientPort` to `port` stands, from the kernel's connection table
 * (`/proc/net/tcp`): "unread" until the server has accepted it and read every byte (its socket
 * has an inode, rx_queue 0), then "read", or "answered" once response bytes wait on the client's
 * side or the server has closed its end.
 */
function requestState(port: number, clientPort: number): "unread" | "read" | "answered" {
  const rows: string[][] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const row of Deno.readTextFileSync(table).split("\n").slice(1)) {
      const fields = row.trim().split(/\s+/);
      if (fields.length >= 10) rows.push(fields);
    }
  }
  const find = (local: number, remote: number) =>
    rows.find((fields) =>
      parseInt(fields[1].split(":")[1], 16) === local &&
      parseInt(fields[2].split(":")[1], 16) === remote
    );
  const unread = (fields: string[]) => parseInt(fields[4].split(":")[1], 16);
  const server = find(port, clientPort);
  if (server === undefined || server[3] !== "01") return "answered"; // 01: ESTABLISHED
  if (server[9] === "0" || unread(server) > 0) return "unread";
  const client = find(clientPort, port);
  return client !== undefined && unread(client) > 0 ? "answered" : "read";
}

/** Everything the server sends on `conn` until it closes: status, declared and actual length. */
async function readResponse(conn: Deno.TcpConn) {
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of conn.readable) chunks.push(chunk);
  } catch {
    // reset: what arrived is judged below
  }
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  chunks.reduce((offset, chunk) => (bytes.set(chunk, offset), offset + chunk.length), 0);
  const text = new TextDecoder("latin1").decode(bytes);
  const headEnd = text.indexOf("\r\n\r\n");
  const head = headEnd < 0 ? text : text.slice(0, headEnd);
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
    declared: Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? -1),
    received: headEnd < 0 ? 0 : bytes.length - headEnd - 4,
    head: head.split("\r\n")[0],
  };
}

/** The environment of a fresh shell: this one without the npm_* variables an outer npx sets. */
function shellEnv(): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([name]) => !/^npm_/i.test(name)),
  );
  return { ...env, PORT: "0", LOGO_KV: ":memory:", LOGO_DISCOVERY: "off", NO_COLOR: "1" };
}

/**
 * Starts the README command (in a process group of its own when `ownGroup`, like a terminal's
 * job), sends `signal` to npx's pid or group once it serves and a request is in flight, and
 * checks that it all stops within {@link STOP_DEADLINE_MS}.
 */
async function stopsCleanly(signal: "SIGTERM" | "SIGINT", ownGroup: boolean) {
  const npx = ["npx", "-y", "deno@2.9.6", "task", "start"];
  const [program, ...args] = ownGroup ? ["setsid", ...npx] : npx; // setsid execs npx in place
  const child = new Deno.Command(program, {
    args,
    cwd: REPO_ROOT,
    clearEnv: true,
    env: shellEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const printed: string[] = [];
  const started = Promise.withResolvers<{ port: number; path: string }>();
  let port: number | undefined;
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const line of lines(stream)) {
      printed.push(line);
      port ??= Number(/listening on http:\/\/\S+:(\d+)/.exec(line)?.[1] ?? NaN) || undefined;
      const demo = /^\s*http:\/\/\S+?:\d+(\/\S*token=pk_\S+)/.exec(line)?.[1];
      if (port !== undefined && demo !== undefined) started.resolve({ port, path: demo });
    }
  };
  const output = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const ended = () => started.reject(new Error(`output ended:\n${printed.join("\n")}`));
  output.then(ended, ended);
  let tree: Seen[] = [];
  let conn: Deno.TcpConn | undefined;
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`not serving:\n${printed.join("\n")}`)),
        START_TIMEOUT_MS,
      );
    });
    const { port, path } = await Promise.race([started.promise, late]).finally(() =>
      clearTimeout(timer)
    );
    tree = processTree(child.pid);
    assert.ok(tree.some((seen) => seen.command.includes("src/main.ts")), JSON.stringify(tree));

    // A render the server has read but perhaps not answered yet when the signal is sent.
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
    const target = `${path}&size=800&greyscale=true&format=webp`;
    await conn.write(
      new TextEncoder().encode(
        `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      ),
    );
    const clientPort = conn.localAddr.port;
    await pollUntil("the server reading the request", 30_000, () => {
      const state = requestState(port, clientPort);
      return Promise.resolve(state === "unread" ? { state } : { done: state });
    });
    const atSignal = requestState(port, clientPort); // "read": not answered yet
    const response = readResponse(conn);
    const signalledAt = printed.length;

    Deno.kill(ownGroup ? -child.pid : child.pid, signal);
    const { elapsedMs } = await pollUntil(
      `all stopped after ${signal}`,
      STOP_DEADLINE_MS,
      async () => {
        const running = tree.filter(runs).map((seen) => `${seen.pid} ${seen.command}`);
        const refused = await portRefuses(port);
        return running.length === 0 && refused ? { done: true } : { state: { running, refused } };
      },
    );
    const answer = await response;
    const status = await child.status;
    await output;

    const log = printed.join("\n");
    assert.ok(elapsedMs < STOP_DEADLINE_MS, `${Math.round(elapsedMs)} ms`);
    assert.equal(answer.status, 200, `${answer.head}\n${log}`);
    assert.equal(answer.received, answer.declared, `body cut short: ${JSON.stringify(answer)}`);
    assert.deepEqual({ code: status.code, signal: status.signal }, { code: 0, signal: null }, log);
    const errors = printed.slice(signalledAt).filter((line) => /error|panic|uncaught/i.test(line));
    assert.deepEqual(errors, [], log);
    // One graceful stop, even when the server gets the signal twice (from the terminal and
    // from `deno task`): its "Stopping…" line, if it prints one, at most once.
    assert.ok(printed.filter((line) => /^Stopping/.test(line)).length <= 1, log);
    console.log(
      `${signal} to npx's ${ownGroup ? "group" : "pid"}: ${tree.length} processes gone, port ` +
        `closed ${Math.round(elapsedMs)} ms after it; the render (${atSignal} at the signal) got ` +
        `${answer.status}, ${answer.received} bytes`,
    );
  } finally {
    try {
      conn?.close();
    } catch {
      // closed with its readable side
    }
    for (const seen of tree.filter(runs)) {
      try {
        Deno.kill(seen.pid, "SIGKILL");
      } catch {
        // exited meanwhile
      }
    }
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
    await child.status;
    await output.catch(() => undefined);
  }
}

Deno.test("start command: SIGTERM to the npx pid stops everything within 5 s", async () => {
  await stopsCleanly("SIGTERM", false);
});

Deno.test("start command: SIGINT to the npx pid stops everything within 5 s", async () => {
  await stopsCleanly("SIGINT", false);
});

Deno.test("start command: SIGINT to its process group (Ctrl-C) stops it once, cleanly", async () => {
  await stopsCleanly("SIGINT", true);
});
