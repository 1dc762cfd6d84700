/**
 * `format=svg` from a stored source, through the application's handler (`createApp`'s
 * `handler`, no socket: the server's own time), for a logo whose sanitised SVG is about 20 KB
 * (issue #33's target: ≤ 1 ms at p50). Three cases, each `BENCH_ROUNDS` (default 2000) requests,
 * body read, p50 and p99 printed:
 *
 * 1. **warm**: the same URL again and again — the variant cache's answer (a browser's `<img>`);
 * 2. **new size**: every request a size not asked before (1 to 800 px, then again with another
 *    theme-free key of the cache: greyscale off, the sizes cycle under a fresh app), so each sets
 *    the root's `width`/`height` on the stored document read from the source cache;
 * 3. **cold**: a fresh app per request (its creation, and a miss on another domain that loads the
 *    key and the rate limiter's lease, not timed): the record and the SVG blob read from KV, then
 *    sized.
 *
 * For scale, the same three for `format=png` (a render in this isolate for the new sizes).
 * Usage: `deno run --config deno.dev.json -A bench/svg_format_bench.ts`
 *
 * @module
 */
import { createApp } from "../src/http/app.ts";
import { KeyStore } from "../src/store/key_store.ts";
import { LogoStore } from "../src/store/logo_store.ts";
import { SVG_RENDITION } from "../src/store/logo_ingest.ts";

const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "2000");
const DOMAIN = "svg-bench.example";

/** A logo-like SVG: a tile, a ring of 48 gradient petals, a wordmark of paths; ~20 KB written. */
function benchSvg(): Uint8Array {
  const petals = Array.from({ length: 48 }, (_, i) => {
    const a = (i * 7.5 * Math.PI) / 180;
    const [x, y] = [100 + 60 * Math.cos(a), 100 + 60 * Math.sin(a)];
    return `<path d="M100 100 Q ${(x + 8).toFixed(2)} ${(y - 8).toFixed(2)} ${x.toFixed(2)} ${
      y.toFixed(2)
    } T 100 100 Z" fill="url(#g${i % 3})" stroke="#1b5e20" stroke-width="0.6"/>`;
  }).join("");
  const letters = Array.from(
    { length: 12 },
    (_, i) =>
      `<path d="M${220 + i * 28} 140 l10 -60 l10 60 m-16 -22 h12 c4 0 8 4 8 8 s-4 8 -8 8" ` +
      `fill="none" stroke="#263238" stroke-width="5" stroke-linecap="round"/>`,
  ).join("");
  const stops = ["#1e88e5", "#43a047", "#fb8c00"].map((c, i) =>
    `<linearGradient id="g${i}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c}"/>` +
    `<stop offset="1" stop-color="#fff" stop-opacity="0.6"/></linearGradient>`
  ).join("");
  return new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200" viewBox="0 0 600 200">` +
      `<defs>${stops}</defs><rect width="200" height="200" rx="32" fill="#e8f5e9"/>` +
      `${petals}<circle cx="100" cy="100" r="18" fill="#fff"/>${letters}</svg>`,
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function report(name: string, times: number[]): void {
  const sorted = [...times].sort((a, b) => a - b);
  const ms = (t: number) => t.toFixed(3).padStart(7);
  console.log(
    `${name.padEnd(40)} p50 ${ms(percentile(sorted, 0.5))} ms   p99 ${
      ms(percentile(sorted, 0.99))
    } ms   (${times.length} requests)`,
  );
}

const kv = await Deno.openKv(":memory:");
const { key } = await new KeyStore(kv).create({ limit: 10_000_000, window: 60 });
const logos = new LogoStore(kv);
const svgSource = benchSvg();
const { record } = await logos.put(DOMAIN, svgSource, { source: "bench" });
const stored = record.renditions[SVG_RENDITION];
if (stored === undefined) throw new Error("the bench logo got no sanitised SVG");
console.log(
  `source ${svgSource.length} bytes → sanitised SVG ${stored.bytes} bytes (${stored.width}×${stored.height}); ` +
    `${ROUNDS} requests a case; ${Deno.build.target}, ${navigator.hardwareConcurrency} CPUs`,
);

const url = (params: string) => `http://localhost/${DOMAIN}?token=${key.publishableKey}&${params}`;
const get = async (app: ReturnType<typeof createApp>, target: string) => {
  const started = performance.now();
  const response = await app.handler(new Request(target, { headers: { host: "localhost" } }));
  await response.arrayBuffer();
  const took = performance.now() - started;
  if (response.status !== 200) throw new Error(`${target}: ${response.status}`);
  return took;
};

for (const [format, extra] of [["svg", ""], ["svg", "&theme=dark"], ["png", ""]]) {
  const app = createApp({ kv });
  const warm: number[] = [];
  for (let i = 0; i < 200; i++) await get(app, url(`format=${format}${extra}&size=256`)); // warm-up
  for (let i = 0; i < ROUNDS; i++) {
    warm.push(await get(app, url(`format=${format}${extra}&size=256`)));
  }
  report(`format=${format}${extra} warm (same URL)`, warm);

  const sized: number[] = [];
  let sizeApp = createApp({ kv });
  for (let i = 0; i < ROUNDS; i++) {
    if (i > 0 && i % 800 === 0) sizeApp = createApp({ kv });
    sized.push(await get(sizeApp, url(`format=${format}${extra}&size=${(i % 800) + 1}`)));
  }
  report(`format=${format}${extra} new size each time`, sized);

  const cold: number[] = [];
  const coldRounds = Math.min(ROUNDS, 300);
  for (let i = 0; i < coldRounds; i++) {
    const fresh = createApp({ kv });
    // Untimed: a miss on another domain loads the key and the rate limiter's lease.
    const miss = `http://localhost/other.example?token=${key.publishableKey}`;
    await (await fresh.handler(new Request(miss, { headers: { host: "localhost" } }))).body
      ?.cancel();
    cold.push(await get(fresh, url(`format=${format}${extra}&size=${(i % 800) + 1}`)));
    await fresh.close();
  }
  report(`format=${format}${extra} cold (record, blob from KV)`, cold);
  await app.close();
}
kv.close();
