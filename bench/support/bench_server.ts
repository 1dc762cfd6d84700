/**
 * The load benchmark's server: Logo Lookup's real app (`createApp`) over a temporary KV file,
 * seeded with a key that has a huge limit, a key with a limit of 1, and 512-px logos.
 *
 * Only for the benchmark: it counts KV commits (a wrapper on this process's Kv, outside the app)
 * and responses by status, and answers `stats` lines on stdin with a JSON line on stdout (and
 * `gc` lines with a full garbage collection when run with `--v8-flags=--expose-gc`).
 *
 * Usage: deno run -A bench/support/bench_server.ts KV_PATH LOGO_COUNT
 * Served as `deno task start` serves: `serveHttp` (`Deno.serve`).
 * Prints `{"port", "pid", "hotToken", "limitedToken", "domains"}` once listening; exits when
 * stdin closes, after `app.close()`.
 *
 * @module
 */
import { encodeRgba } from "../../imagecore/mod.ts";
import { createApp } from "../../src/http/app.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { countCommits } from "../../test/support/counting_kv.ts";
import { serveHttp } from "../../src/server/serve_http.ts";

/** A 512×512 logo-like RGBA image: a ring, a disc and a gradient band on transparency. */
export function benchLogo(seed: number, side = 512): Uint8Array {
  const pixels = new Uint8Array(side * side * 4);
  const c = side / 2;
  const hue = (seed * 47) % 360;
  const rgb = (h: number): [number, number, number] => {
    const f = (n: number) => {
      const k = (n + h / 30) % 12;
      return Math.round(255 * (0.5 - 0.45 * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
    };
    return [f(0), f(8), f(4)];
  };
  const [r1, g1, b1] = rgb(hue);
  const [r2, g2, b2] = rgb(hue + 150);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const d = Math.hypot(x + 0.5 - c, y + 0.5 - c);
      const i = (y * side + x) * 4;
      const disc = Math.max(0, Math.min(1, side * 0.3 - d));
      const ring = Math.max(0, Math.min(1, 1 - Math.abs(d - side * 0.42) / (side * 0.04)));
      const band = Math.abs(x - y) < side * 0.08 && d < side * 0.46 ? 1 : 0;
      const t = x / side;
      if (band) {
        pixels.set([255 - r1, 255 - g1, 255 - b1, 255], i);
      } else if (disc > 0) {
        pixels.set([
          r1 * (1 - t) + r2 * t,
          g1 * (1 - t) + g2 * t,
          b1 * (1 - t) + b2 * t,
          255 * disc,
        ], i);
      } else if (ring > 0) {
        pixels.set([r2, g2, b2, Math.round(255 * ring)], i);
      }
    }
  }
  return encodeRgba(pixels, side, side, "png");
}

if (import.meta.main) {
  const [path, logoCount = "20"] = Deno.args;
  const kv = await Deno.openKv(path);
  const keys = new KeyStore(kv);
  const logos = new LogoStore(kv);
  const hot = await keys.create({ limit: 1_000_000_000, window: 3600 });
  const limited = await keys.create({ limit: 1, window: 3600 });
  const domains: string[] = [];
  for (let i = 0; i < Number(logoCount); i++) {
    const domain = `bench${i}.example.com`;
    await logos.put(domain, benchLogo(i), { source: "bench" });
    domains.push(domain);
  }

  const counter = countCommits(kv);
  const statuses: Record<number, number> = {};
  const app = createApp({ kv });
  const handler = async (request: Request) => {
    const response = await app.handler(request);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    return response;
  };
  const listening = (port: number) =>
    console.log(JSON.stringify({
      port,
      pid: Deno.pid,
      hotToken: hot.key.publishableKey,
      limitedToken: limited.key.publishableKey,
      domains,
    }));
  const server = await serveHttp({ hostname: "127.0.0.1", port: 0 }, handler);
  listening(server.addr.port);

  const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
  for await (const chunk of lines) {
    for (const command of chunk.split("\n").map((line) => line.trim())) {
      if (command === "gc") {
        // Only with --v8-flags=--expose-gc: a full collection, to tell garbage from live data.
        (globalThis as { gc?: () => void }).gc?.();
      } else if (command === "stats") {
        const { rss, heapUsed, external } = Deno.memoryUsage();
        const variantBytes = app.stats().variants.bytes;
        const stats = {
          commits: counter.commits,
          statuses: { ...statuses },
          rss,
          heapUsed,
          external,
          variantBytes,
        };
        console.log(JSON.stringify(stats));
      }
    }
  }
  await server.shutdown();
  await app.close();
  kv.close();
}
