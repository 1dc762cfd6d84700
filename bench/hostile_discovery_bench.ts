/**
 * `deno task bench:hostile [REPO] [png,bmp,gif,svg]`: the real server (`REPO/src/main.ts`, default this checkout)
 * discovers a hostile site's icons while it serves normal requests. A loopback site serves one
 * bomb per domain as its icon (PNG with zlib bombs in iCCP and zTXt, RLE BMP and GIF declaring
 * 6000×6000, an SVG `<use>`/blur bomb); the server reaches it through `LOGO_CONNECT_TO`, with a
 * temporary KV. Normal requests (the demo logo: a stored logo, cache hits) go out at a steady
 * 50 per second, open loop, while each bomb is discovered. Per bomb it prints the server's peak
 * RSS (`VmHWM`, reset before each bomb through `/proc/PID/clear_refs`), the normal requests'
 * p50/p99/max latency, and the discovery's time and outcome. Run it on another checkout (a
 * worktree of an older commit) for "before" figures.
 *
 * @module
 */
import { join } from "node:path";
import { closedPort, page } from "../test/support/discovery_sites.ts";
import { lines, readUntil } from "../test/support/lines.ts";
import { encodeRgba } from "../imagecore/mod.ts";
import { startTaskV8Flags } from "./support/start_task.ts";
import {
  hugeGif,
  pngWithZlibBombs,
  rleBmp,
  svgBomb,
  zlibBomb,
} from "../test/support/hostile_images.ts";

/** The normal requests' logo: a 256-px PNG of one colour. */
function flatLogo(): Uint8Array {
  return encodeRgba(new Uint8Array(256 * 256 * 4).fill(180), 256, 256, "png");
}

const repo = Deno.args[0] ?? new URL("..", import.meta.url).pathname;
const NORMAL_EVERY_MS = 20;
const DISCOVERY_CAP_MS = 40_000;
const TAIL_MS = 500;
const ANSWER_CAP_MS = 30_000;

console.log("building bombs (the PNG's zlib streams take a few seconds)…");
const bomb = await zlibBomb(1);
const bombs: { name: string; domain: string; bytes: Uint8Array; type: string }[] = [
  {
    name: "PNG, iCCP+zTXt zlib bombs",
    domain: "png-bomb.test",
    type: "image/png",
    bytes: pngWithZlibBombs(bomb),
  },
  { name: "RLE BMP 6000x6000", domain: "bmp-bomb.test", type: "image/bmp", bytes: rleBmp(6000) },
  { name: "GIF 6000x6000", domain: "gif-bomb.test", type: "image/gif", bytes: hugeGif(6000) },
  { name: "SVG use+blur bomb", domain: "svg-bomb.test", type: "image/svg+xml", bytes: svgBomb() },
];

// One server for every domain: the Host header picks the bomb.
const hostile = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
  const host = new URL(request.url).hostname;
  const found = bombs.find((b) => b.domain === host);
  const path = new URL(request.url).pathname;
  if (found && path === "/") {
    return new Response(page(`<link rel="icon" href="/icon">`), {
      headers: { "content-type": "text/html" },
    });
  }
  if (found && path === "/icon") {
    return new Response(found.bytes as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": found.type },
    });
  }
  return new Response("not found", { status: 404 });
});
// Port 80 of each domain is the hostile site; 443 is refused, so discovery falls back to http.
const refused = closedPort();
const connectTo = bombs
  .map((b) => `${b.domain}:80:127.0.0.1:${hostile.addr.port},${b.domain}:443:127.0.0.1:${refused}`)
  .join(",");

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

async function timed(url: string): Promise<{ ms: number; status: number }> {
  const t = performance.now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(ANSWER_CAP_MS) });
    await response.body?.cancel();
    return { ms: performance.now() - t, status: response.status };
  } catch {
    return { ms: performance.now() - t, status: 0 }; // no answer within the cap
  }
}

/** Runs `REPO/src/admin/main.ts ARGS` on `kv` and returns its JSON output. */
async function admin(kv: string, args: string[]): Promise<Record<string, unknown>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "--config",
      join(repo, "deno.json"),
      join(repo, "src/admin/main.ts"),
      ...args,
    ],
    env: { LOGO_KV: kv },
    stderr: "null",
  }).output();
  if (!out.success) throw new Error(`admin ${args.join(" ")} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** A fresh server on a fresh KV holding one logo and one key whose limit is never reached. */
async function startServer(dir: string) {
  const kv = join(dir, "store.kv");
  const key = await admin(kv, ["--init", "key", "create", "--limit", "10000000", "--window", "60"]);
  const logo = join(dir, "normal.png");
  await Deno.writeFile(logo, flatLogo());
  await admin(kv, ["logo", "add", "normal.example", logo]);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "--config",
      join(repo, "deno.json"),
      `--v8-flags=${(await startTaskV8Flags()).join(",")}`, // as `deno task start` runs it
      join(repo, "src/main.ts"),
    ],
    cwd: repo,
    env: { PORT: "0", LOGO_KV: kv, LOGO_CONNECT_TO: connectTo },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const output = lines(child.stdout);
  const read = await readUntil(output, (line) => line.includes("listening on"));
  const origin = /listening on (http:\/\/\S+)/.exec(read.at(-1) ?? "")?.[1];
  if (origin === undefined) throw new Error(`server did not start:\n${read.join("\n")}`);
  void (async () => {
    for await (const _ of output) { /* drain */ }
  })();
  return { child, origin, token: key.publishableKey as string };
}

console.log(
  "bomb                        | bytes     | RSS idle → peak     | normal p50 / p99 / max (n)          | discovery",
);
const only = Deno.args[1]?.split(","); // e.g. "svg,gif": the bombs whose domain starts so
for (const b of bombs.filter((b) => !only || only.some((o) => b.domain.startsWith(o)))) {
  const dir = await Deno.makeTempDir({ prefix: "hostile-bench-" });
  const { child, origin, token } = await startServer(dir);
  const pid = child.pid;
  const status = (field: string): number => {
    const text = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;
  };
  const normalUrl = `${origin}/normal.example?token=${token}`;
  for (let i = 0; i < 20; i++) await timed(normalUrl); // the logo is now cached
  const idle = status("VmRSS");
  Deno.writeTextFileSync(`/proc/${pid}/clear_refs`, "5"); // resets VmHWM to the current RSS
  const latencies: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const ticker = setInterval(() => {
    const p = timed(normalUrl).then((r) => void latencies.push(r.ms));
    inFlight.add(p);
    p.finally(() => inFlight.delete(p));
  }, NORMAL_EVERY_MS);
  const t0 = performance.now();
  const url = `${origin}/${b.domain}?token=${token}`;
  let last = await timed(url);
  // A request waits for discovery at most 3 s; one that came back sooner saw it finish.
  while (last.ms > 2_900 && performance.now() - t0 < DISCOVERY_CAP_MS) last = await timed(url);
  const discoveryMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, TAIL_MS));
  clearInterval(ticker);
  await Promise.all(inFlight);
  const peak = status("VmHWM");
  child.kill("SIGTERM");
  // A server whose isolate is stuck in a decode cannot run its signal handler: kill it then.
  const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await child.status;
  clearTimeout(killer);
  await Deno.remove(dir, { recursive: true });
  const sorted = latencies.toSorted((x, y) => x - y);
  const outcome = last.status === 200
    ? "stored"
    : last.status === 404
    ? "refused (404)"
    : last.status === 0
    ? `no answer within ${ANSWER_CAP_MS} ms`
    : `HTTP ${last.status}`;
  const normal = `${quantile(sorted, 0.5).toFixed(1)} / ${quantile(sorted, 0.99).toFixed(1)} / ${
    sorted.at(-1)!.toFixed(1)
  } ms (${sorted.length})`;
  console.log(
    `${b.name.padEnd(27)} | ${String(b.bytes.length).padStart(9)} | ${
      `${mib(idle)} → ${mib(peak)}`.padEnd(19)
    } | ${normal.padEnd(35)} | ${discoveryMs.toFixed(0)} ms, ${outcome}`,
  );
}

await hostile.shutdown();
