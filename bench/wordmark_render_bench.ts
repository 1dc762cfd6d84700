/**
 * Issue 33's target "rendering a stored wordmark at 400 px costs no more than an icon of the same
 * pixel count": a 4:1 wordmark rendered 400 px wide (400×100) against a square icon rendered 200
 * px wide (200×200, the same 40,000 output pixels), both stored by `LogoStore.put` (the wordmark
 * with `type: "logo"`) and rendered by the request path's render step (`createRenderer` of
 * `src/http/render_variant.ts`: `planRender` picks the stored rendition, imagecore's `transform`
 * makes the PNG), in this isolate, with a variant cache that keeps nothing so every call renders.
 *
 * Cases, one render of each per round, interleaved:
 * - `wordmark 1200×300 → 400`: a raster wordmark stored at the widest source (1200 px);
 * - `wordmark SVG 200×50 → 400`: an SVG wordmark, whose source is rasterised 1200 px wide at
 *   ingestion (`src/store/wordmark_ingest.ts`);
 * - `icon 600×600 → 200`: a square icon whose source has the wordmark's source pixel count;
 * - `icon 1200×1200 → 200`: a square icon at the widest source (what a large favicon gives).
 *
 * Each with the source rendition in the source cache (the server's usual case: the render only),
 * and without it (`sources` budget 0: each render also reads the source from KV). Prints medians
 * of `BENCH_ROUNDS` rounds (default 200), CPU time per render (`process.cpuUsage`, all threads),
 * and the wordmark-to-icon ratios. Usage: `deno run -A bench/wordmark_render_bench.ts`.
 *
 * @module
 */
import process from "node:process";
import { encodeRgba } from "../imagecore/mod.ts";
import { answerLength, createRenderer } from "../src/http/render_variant.ts";
import type { TaggedVariant } from "../src/http/variant_cache.ts";
import { DEFAULT_OPTIONS, type LogoOptions } from "../src/http/request_options.ts";
import { VariantCache } from "../src/http/variant_cache.ts";
import { type LogoRecord, LogoStore } from "../src/store/logo_store.ts";
import { benchLogo } from "./support/bench_server.ts";

const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "200");

/**
 * A `width`×`height` wordmark-like RGBA image: a disc mark on the left and a row of letter-like
 * strokes in a gradient, on transparency (the density of a real lock-up).
 */
function benchWordmark(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  const r = height * 0.4;
  const [cx, cy] = [height / 2, height / 2];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      const disc = Math.max(0, Math.min(1, r - d));
      const t = x / width;
      // Letters: strokes 6% of the height wide every 14%, between 25% and 75% of the height.
      const inRow = x > height * 1.1 && y > height * 0.25 && y < height * 0.75;
      const stroke = inRow && (x / height) % 0.14 < 0.06;
      const bar = inRow && Math.abs(y - height / 2) < height * 0.03;
      if (disc > 0) pixels.set([20, 110, 220, 255 * disc], i);
      else if (stroke || bar) pixels.set([30 + 150 * t, 30, 90 - 60 * t, 255], i);
    }
  }
  return encodeRgba(pixels, width, height, "png");
}

const svgWordmark = new TextEncoder().encode(
  `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50" viewBox="0 0 200 50">` +
    `<circle cx="25" cy="25" r="20" fill="#146edc"/>` +
    Array.from({ length: 10 }, (_, i) => `<rect x="${55 + i * 14}" y="12" width="6" height="26"/>`)
      .join("") +
    `<rect x="55" y="24" width="140" height="3" fill="#a01e3c"/></svg>`,
);

interface Case {
  name: string;
  record: LogoRecord;
  options: LogoOptions;
}

const kv = await Deno.openKv(":memory:");
const logos = new LogoStore(kv);
const put = async (domain: string, bytes: Uint8Array, type: "icon" | "logo") =>
  (await logos.put(domain, bytes, { source: "bench", type })).record;
const wide = { ...DEFAULT_OPTIONS, size: 400, type: "logo" } as const;
const square = { ...DEFAULT_OPTIONS, size: 200 } as const;
const cases: Case[] = [
  {
    name: "wordmark 1200×300 → 400",
    record: await put("a.bench", benchWordmark(1200, 300), "logo"),
    options: wide,
  },
  {
    name: "wordmark SVG 200×50 → 400",
    record: await put("b.bench", svgWordmark, "logo"),
    options: wide,
  },
  {
    name: "icon 600×600 → 200",
    record: await put("c.bench", benchLogo(3, 600), "icon"),
    options: square,
  },
  {
    name: "icon 1200×1200 → 200",
    record: await put("d.bench", benchLogo(3, 1200), "icon"),
    options: square,
  },
];

/** Median ms and mean CPU ms of a render of each case, `sourceBytes` the source cache's budget. */
async function measure(
  sourceBytes: number,
): Promise<{ wall: number[]; cpu: number[]; out: string[] }> {
  const renderer = createRenderer({
    logos,
    variants: new VariantCache<TaggedVariant>({ maxBytes: 0 }),
    sources: new VariantCache({ maxBytes: sourceBytes }),
  });
  const times = cases.map(() => [] as number[]);
  const cpu = cases.map(() => 0);
  const out = cases.map(() => "");
  for (let round = -10; round < ROUNDS; round++) {
    for (const [i, { record, options }] of cases.entries()) {
      const before = process.cpuUsage();
      const start = performance.now();
      const variant = await renderer.render(renderer.plan(record, options));
      const ms = performance.now() - start;
      const used = process.cpuUsage(before);
      if (round < 0) continue; // warm-up
      times[i].push(ms);
      cpu[i] += (used.user + used.system) / 1000;
      out[i] = `${variant.width}×${variant.height}, ${answerLength(variant)} B`;
    }
  }
  const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return { wall: times.map(median), cpu: cpu.map((total) => total / ROUNDS), out };
}

const ms = (n: number) => `${n.toFixed(2)} ms`;
console.log(
  `${ROUNDS} rounds; Deno ${Deno.version.deno}; load average ${
    Deno.loadavg().map((n) => n.toFixed(2)).join(" ")
  }`,
);
for (
  const [label, budget] of [["source cached", 32 * 2 ** 20], ["source read from KV", 0]] as const
) {
  const { wall, cpu, out } = await measure(budget);
  console.log(`\n${label}`);
  console.log("| case | stored source | output | median | CPU |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [i, c] of cases.entries()) {
    const source = c.record.renditions.source;
    console.log(
      `| ${c.name} | ${source.width}×${source.height} | ${out[i]} | ${ms(wall[i])} | ${
        ms(cpu[i])
      } |`,
    );
  }
  const ratio = (a: number, b: number) =>
    `${(wall[a] / wall[b]).toFixed(2)}× wall, ${(cpu[a] / cpu[b]).toFixed(2)}× CPU`;
  console.log(`wordmark 1200×300 / icon 600×600 (same source pixels): ${ratio(0, 2)}`);
  console.log(`wordmark SVG / icon 600×600: ${ratio(1, 2)}`);
  console.log(`wordmark 1200×300 / icon 1200×1200 (widest sources): ${ratio(0, 3)}`);
}
kv.close();
