/**
 * `LOGO_PROCESSES=N`: the real supervisor (`src/main.ts` → `src/server/processes.ts`) runs N server
 * processes on one port over one KV file. Which process accepted a connection is read from the
 * kernel (`test/support/socket_owners.ts`), not from anything the server says.
 */
import assert from "node:assert/strict";
import { KeyStore } from "../../src/store/key_store.ts";
import { type MainProcess, startMainProcess } from "../support/main_process.ts";
import { connectionOwners, processRuns } from "../support/socket_owners.ts";

/** The pids the supervisor printed ("Processes: N serving port P (pids a, b, c); …"). */
function pidsOf(server: MainProcess): number[] {
  const line = server.printed.find((text) => text.startsWith("Processes: "));
  assert.ok(line, `no Processes line:\n${server.printed.join("\n")}`);
  return /\(pids ([\d, ]+)\)/.exec(line)![1].split(", ").map(Number);
}

/** The demo domain from the printed demo URL, once printed. */
async function demoDomain(server: MainProcess): Promise<string> {
  const url = (await server.line(/token=pk_/)).trim();
  return new URL(url).pathname.slice(1);
}

/** Sends one keep-alive GET on `conn` and reads its answer; returns the status. */
async function get(conn: Deno.TcpConn, path: string): Promise<number> {
  await conn.write(new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
  let text = "";
  const buffer = new Uint8Array(64 * 1024);
  const decoder = new TextDecoder("latin1");
  for (;;) {
    const head = text.indexOf("\r\n\r\n");
    if (head >= 0) {
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, head))?.[1] ?? 0);
      if (text.length >= head + 4 + length) return Number(text.slice(9, 12));
    }
    const read = await conn.read(buffer);
    if (read === null) throw new Error(`connection closed after:\n${text}`);
    text += decoder.decode(buffer.subarray(0, read));
  }
}

/** Opens `count` connections to `port` and answers one GET of `path` on each, all at once. */
async function concurrentGets(port: number, count: number, path: string) {
  const conns = await Promise.all(
    Array.from({ length: count }, () => Deno.connect({ hostname: "127.0.0.1", port })),
  );
  const statuses = await Promise.all(conns.map((conn) => get(conn, path)));
  return { conns, statuses };
}

/** How many connections each pid holds, as text for messages. */
function spread(conns: Deno.TcpConn[], owners: Map<number, number>): Map<number, number> {
  const counts = new Map<number, number>();
  for (const conn of conns) {
    const pid = owners.get(conn.localAddr.port);
    assert.ok(pid !== undefined, `connection from port ${conn.localAddr.port} has no owner`);
    counts.set(pid, (counts.get(pid) ?? 0) + 1);
  }
  return counts;
}

Deno.test({
  name: "LOGO_PROCESSES=3: one port, connections over several processes, a limit exact " +
    "across them, SIGTERM stops all within 5 s",
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const kvPath = `${dir}/store.kv`;
      const server = await startMainProcess({ LOGO_PROCESSES: "3", LOGO_KV: kvPath });
      try {
        const pids = pidsOf(server);
        assert.equal(pids.length, 3);
        const domain = await demoDomain(server);
        assert.equal(server.printed.filter((line) => /listening on/.test(line)).length, 1);
        assert.equal(server.printed.filter((line) => /Created a demo key/.test(line)).length, 1);

        // The longest window a key may have (31 days): the burst cannot straddle two windows.
        const limit = 250;
        const kv = await Deno.openKv(kvPath);
        const { key } = await new KeyStore(kv).create({ limit, window: 31 * 86_400 });
        kv.close();

        const path = `/${domain}?token=${key.publishableKey}`;
        const { conns, statuses } = await concurrentGets(server.port, 600, path);
        const owners = connectionOwners(server.port, pids);
        const counts = spread(conns, owners);
        for (const conn of conns) conn.close();
        console.log(`connections per pid: ${JSON.stringify([...counts])}`);
        assert.equal(statuses.filter((status) => status === 200).length, limit);
        assert.equal(statuses.filter((status) => status === 429).length, 600 - limit);
        assert.ok(counts.size >= 2, `every connection went to one process: ${[...counts]}`);
        for (const pid of counts.keys()) assert.ok(pids.includes(pid));

        const sigterm = performance.now();
        const code = await server.stop();
        const elapsed = performance.now() - sigterm;
        assert.equal(code, 0, server.printed.join("\n"));
        assert.ok(elapsed < 5_000, `took ${Math.round(elapsed)} ms to stop`);
        for (const pid of pids) assert.equal(processRuns(pid), false, `pid ${pid} still runs`);
        assert.equal(server.printed.filter((line) => line === "Stopping…").length, 3);
      } finally {
        await server[Symbol.asyncDispose]();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "LOGO_PROCESSES=2: a killed process is replaced and takes connections; when the " +
    "supervisor is killed its processes stop",
  async fn() {
    const dir = await Deno.makeTempDir();
    let pids: number[] = [];
    try {
      const server = await startMainProcess({ LOGO_PROCESSES: "2", LOGO_KV: `${dir}/store.kv` });
      try {
        pids = pidsOf(server);
        const from = server.printed.length;
        Deno.kill(pids[1], "SIGKILL");
        const replaced = await server.line(/^Process 2 replaced: pid \d+/, from);
        const pid = Number(/pid (\d+)/.exec(replaced)![1]);
        assert.notEqual(pid, pids[1]);
        assert.match(server.printed.slice(from).join("\n"), /exited with signal SIGKILL/);
        pids = [pids[0], pid];

        const { conns, statuses } = await concurrentGets(server.port, 60, "/healthz");
        const counts = spread(conns, connectionOwners(server.port, pids));
        for (const conn of conns) conn.close();
        assert.deepEqual(new Set(statuses), new Set([200]));
        assert.ok((counts.get(pid) ?? 0) > 0, `the new process took no connection: ${[...counts]}`);

        // SIGKILL: the supervisor cannot stop its processes; they see their stdin pipe end. Its
        // output ends when the last process holding its stderr has exited.
        const killed = performance.now();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<"late">((resolve) => timer = setTimeout(resolve, 10_000, "late"));
        const ended = await Promise.race([server[Symbol.asyncDispose](), late]);
        clearTimeout(timer);
        const elapsed = performance.now() - killed;
        assert.notEqual(ended, "late", "processes still running 10 s after the supervisor died");
        for (const pid of pids) assert.equal(processRuns(pid), false, `pid ${pid} still runs`);
        console.log(`processes gone ${Math.round(elapsed)} ms after the supervisor was killed`);
      } finally {
        // Orphans would hold the supervisor's stderr open: kill them before waiting on it.
        for (const pid of pids.filter(processRuns)) Deno.kill(pid, "SIGKILL");
        await server[Symbol.asyncDispose]();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
