/**
 * `deno task bench`: the same inputs through imagecore (WASM), sharp (libvips, native) and the
 * napi-rs WASM peer (`@napi-rs/image-wasm32-wasi`: the `image` crate with fast_image_resize, run
 * through its WASI runtime), resized to 128 px wide with Lanczos3 to PNG, with and without
 * greyscale. The three libraries run interleaved, one call of each per round, in this process.
 * Prints per input: median ms of each, the ratios imagecore/sharp and imagecore/peer, output bytes
 * of each, and imagecore's stages (decode / resize / colour / encode, timed inside one WASM call).
 * Then, for the encoder's effort: ms per render and bytes at each zlib level and each setting.
 * @module
 */
import sharp from "sharp";
import { FastResizeFilter, Transformer } from "@napi-rs/image-wasm32-wasi";
import { transform, transformStages } from "../imagecore/mod.ts";
import { renderDemoLogos } from "../src/store/demo_logos.ts";
import { benchInputs } from "./bench_inputs.ts";

const WIDTH = 128;
const MIN_ROUNDS = 15;
const BUDGET_MS = 1500;

sharp.cache(false); // no libvips operation cache: every run does the work

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One library's run: the output's byte length. */
type Run = () => Promise<number> | number;

/** Runs every `runs` entry once per round, interleaved; median ms and bytes of each. */
async function interleaved(runs: (Run | undefined)[]): Promise<({ ms: number; bytes: number })[]> {
  const times = runs.map((): number[] => []);
  const bytes = runs.map(() => 0);
  for (let i = 0; i < 3; i++) for (const run of runs) await run?.(); // warm-up: JIT, caches
  const start = performance.now();
  for (let round = 0; round < 500; round++) {
    if (round >= MIN_ROUNDS && performance.now() - start > BUDGET_MS * runs.length) break;
    for (const [i, run] of runs.entries()) {
      if (run === undefined) continue;
      const t0 = performance.now();
      bytes[i] = await run();
      times[i].push(performance.now() - t0);
    }
  }
  return times.map((t, i) => ({ ms: t.length ? median(t) : NaN, bytes: bytes[i] }));
}

const fixed = (n: number) => Number.isNaN(n) ? "n/a" : n.toFixed(2);
const table = (head: string[], rows: string[][]) => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log([line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n"));
};

/** Medians of imagecore's stages over `runs` calls; `level` replaces the effort's zlib level. */
function stages(bytes: Uint8Array, greyscale: boolean, effort: "fast" | "small", level?: number) {
  const all = Array.from(
    { length: 40 },
    () => transformStages(bytes, { width: WIDTH, greyscale, effort }, level),
  );
  const of = (key: "decodeMs" | "resizeMs" | "colourMs" | "encodeMs") =>
    median(all.map((s) => s[key]));
  return {
    decode: of("decodeMs"),
    resize: of("resizeMs"),
    colour: of("colourMs"),
    encode: of("encodeMs"),
    total: median(all.map((s) => s.decodeMs + s.resizeMs + s.colourMs + s.encodeMs)),
    bytes: all[0].bytes,
  };
}

const inputs = await benchInputs();
const rows: string[][] = [];
for (const input of inputs) {
  for (const greyscale of [false, true]) {
    const viaPeer = () => {
      let t = new Transformer(input.bytes).fastResize({
        width: WIDTH,
        filter: FastResizeFilter.Lanczos3,
      });
      if (greyscale) t = t.grayscale();
      return t.pngSync().length;
    };
    let peerRuns = true;
    try {
      viaPeer();
    } catch {
      peerRuns = false; // a format the peer does not decode
    }
    const [core, viaSharp, peer] = await interleaved([
      () => transform(input.bytes, { width: WIDTH, greyscale }).bytes.length,
      input.sharpDecodes
        ? async () => {
          let pipeline = sharp(input.bytes).resize({ width: WIDTH, kernel: "lanczos3" });
          if (greyscale) pipeline = pipeline.greyscale();
          return (await pipeline.png().toBuffer()).length;
        }
        : undefined,
      peerRuns ? viaPeer : undefined,
    ]);
    const split = stages(input.bytes, greyscale, "fast");
    rows.push([
      input.name,
      greyscale ? "grey" : "colour",
      fixed(core.ms),
      fixed(viaSharp.ms),
      fixed(peer.ms),
      fixed(core.ms / viaSharp.ms),
      fixed(core.ms / peer.ms),
      String(core.bytes),
      input.sharpDecodes ? String(viaSharp.bytes) : "n/a",
      peerRuns ? String(peer.bytes) : "n/a",
      [split.decode, split.resize, split.colour, split.encode].map(fixed).join(" / "),
    ]);
  }
}

console.log(
  `resize to ${WIDTH} px wide, Lanczos3, PNG; medians, interleaved; sharp ${sharp.versions.sharp}, ` +
    `libvips ${sharp.versions.vips}; peer @napi-rs/image-wasm32-wasi (fastResize Lanczos3, pngSync)`,
);
table([
  "input",
  "op",
  "imagecore ms",
  "sharp ms",
  "peer ms",
  "core/sharp",
  "core/peer",
  "imagecore B",
  "sharp B",
  "peer B",
  "stages ms: decode / resize / colour / encode",
], rows);

// The encoder's effort: every zlib level, and the two settings, on greyscale renders.
const demo = renderDemoLogos().map((logo) => ({ name: `demo ${logo.domain}`, bytes: logo.bytes }));
const levelInputs = [
  ...inputs.filter((i) => /^png (512|1024)/.test(i.name)),
  ...demo,
];
const levelRows: string[][] = [];
for (const input of levelInputs) {
  const settings: [string, "fast" | "small", number | undefined][] = [
    ["fast", "fast", undefined],
    ["small", "small", undefined],
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((l): [string, "fast", number] => [`level ${l}`, "fast", l]),
  ];
  for (const [label, effort, level] of settings) {
    const s = stages(input.bytes, true, effort, level);
    levelRows.push([input.name, label, fixed(s.total), fixed(s.encode), String(s.bytes)]);
  }
}
console.log(`\nPNG effort, ${WIDTH} px greyscale: medians of 40 renders (stages timed in WASM)`);
table(["input", "setting", "render ms", "encode ms", "bytes"], levelRows);
const wasm = Deno.statSync(new URL("../imagecore/pkg/imagecore_bg.wasm", import.meta.url)).size;
console.log(`imagecore_bg.wasm: ${(wasm / 1024 / 1024).toFixed(2)} MiB`);
