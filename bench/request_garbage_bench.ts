/**
 * What one request allocates in the serving isolate, by kind: `ArrayBuffer` bytes (`external`) and
 * V8 heap bytes, for the 1st, 2nd, 3rd and 4th ask of a domain at 128 px (the stored default), 64
 * px (a render from it) and 300 px (a render from the source rendition). What is kept and what is
 * garbage together: a kept copy shows as the difference between asks, garbage as what every ask
 * of a kind costs.
 *
 * The real `src/main.ts` on the memory benchmark's store of 10,000 logos
 * (bench/support/memory_store.ts), `MALLOC_ARENA_MAX=2`, with a young generation of 256 MiB
 * (`--max-semi-space-size=256`, not the start task's 8) so that no collection runs inside a
 * window: a window is `--requests` requests (default 300, a few tens of MiB at most, below both
 * the young generation and V8's external-memory trigger). Per window: a full GC through the
 * inspector, `Deno.memoryUsage()`, the requests over 4 keep-alive connections, `Deno.memoryUsage()`
 * again. The domains of each size are fresh: the 1st ask is a record read and, but for 128 px, a
 * render.
 *
 * `deno run --config deno.dev.json -A bench/request_garbage_bench.ts [--requests N] [--root DIR]`
 * (`--root`: serve DIR/src/main.ts, an export of another commit, for a "before"). Figures:
 * bench/results/2026-12-02-lookup-garbage.md.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { memoryStore } from "./support/memory_store.ts";
import { KeepAliveLoad } from "./support/keepalive_load.ts";
import { Inspector } from "./support/inspector.ts";
import { printTable, wholeNumber } from "./support/bench_cli.ts";
import { lines } from "../test/support/lines.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { requests: { type: "string", default: "300" }, root: { type: "string" } },
  strict: true,
});
const requests = wholeNumber("requests", values.requests, 1);
const root = values.root ?? new URL("..", import.meta.url).pathname;
const SIZES = [128, 64, 300];
const ASKS = 4;

const store = await memoryStore({ seed: 1, count: 10_000 });
if (requests * SIZES.length + 2 > store.domains.length) throw new Error("--requests too large");
const dir = await Deno.makeTempDir({ prefix: "logo-lookup-garbage-" });
const kvPath = join(dir, "store.kv");
await Deno.copyFile(store.path, kvPath);
const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
const inspectPort = (probe.addr as Deno.NetAddr).port;
probe.close();
const child = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    "--config",
    `${root}/deno.json`,
    "--v8-flags=--max-semi-space-size=256,--min-semi-space-size=256",
    `--inspect=127.0.0.1:${inspectPort}`,
    `${root}/src/main.ts`,
  ],
  env: { PORT: "0", LOGO_DISCOVERY: "off", NO_COLOR: "1", LOGO_KV: kvPath, MALLOC_ARENA_MAX: "2" },
  stdout: "piped",
  stderr: "piped",
}).spawn();
const port = Promise.withResolvers<number>();
const ws = Promise.withResolvers<string>();
const collect = async (stream: ReadableStream<Uint8Array>) => {
  for await (const line of lines(stream)) {
    const listening = /listening on http:\/\/[^\s]+:(\d+)/.exec(line);
    if (listening) port.resolve(Number(listening[1]));
    const debuggerUrl = /Debugger listening on (ws:\/\/\S+)/.exec(line);
    if (debuggerUrl) ws.resolve(debuggerUrl[1]);
  }
};
const ended = Promise.all([collect(child.stdout), collect(child.stderr)]);
const inspector = await Inspector.connect(await ws.promise);
const load = await KeepAliveLoad.open(await port.promise, 4);
try {
  const path = (domain: string, size: number) =>
    `/${domain}?token=${store.token}${size === 128 ? "" : `&size=${size}`}`;
  // Every size once on two domains not measured: the render workers have started and rendered.
  const warm = store.domains.slice(-2).flatMap((domain) => SIZES.map((size) => path(domain, size)));
  const warmed = await load.run(warm);
  if (Object.keys(warmed.statuses).some((status) => status !== "200")) {
    throw new Error(`warm-up answered ${JSON.stringify(warmed.statuses)}`);
  }
  type Usage = { heapUsed: number; external: number };
  const usage = () => inspector.evaluate<Usage>("Deno.memoryUsage()");
  const kib = (bytes: number) => (bytes / requests / 1024).toFixed(1);
  const rows: string[][] = [];
  for (const [i, size] of SIZES.entries()) {
    const domains = store.domains.slice(i * requests, (i + 1) * requests);
    for (let ask = 1; ask <= ASKS; ask++) {
      await inspector.call("HeapProfiler.collectGarbage");
      const before = await usage();
      const run = await load.run(domains.map((domain) => path(domain, size)));
      const after = await usage();
      if (Object.keys(run.statuses).some((status) => status !== "200")) {
        throw new Error(`${size} px, ask ${ask}: ${JSON.stringify(run.statuses)}`);
      }
      rows.push([
        `${size} px`,
        String(ask),
        kib(after.external - before.external),
        kib(after.heapUsed - before.heapUsed),
      ]);
    }
  }
  console.log(
    `\nAllocated per request, KiB (${requests} domains per size; load average ${
      Deno.loadavg().map((n) => n.toFixed(2)).join(" ")
    })\n`,
  );
  printTable(["size", "ask", "external KiB", "heap KiB"], rows);
} finally {
  load.close();
  inspector.close();
  child.kill("SIGTERM");
  await child.status;
  await ended.catch(() => {});
  await Deno.remove(dir, { recursive: true });
}
