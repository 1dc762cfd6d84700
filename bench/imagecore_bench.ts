/**
 * `deno task bench`: the same inputs through imagecore (WASM), sharp (libvips, native) and the
 * napi-rs WASM peer (`@napi-rs/image-wasm32-wasi`: the `image` crate with fast_image_resize, run
 * through its WASI runtime), resized to 128 px wide with Lanczos3 to PNG, with and without
 * greyscale. The three libraries run interleaved, one call of each per round, in this process.
 * Prints per input: median ms of each, the ratios imagecore/sharp and imagecore/peer, output bytes
 * of each, and imagecore's stages (decode / resize / colour / encode, timed inside one WASM call).
 * Then a summary against issue 34's targets: the median and the worst of imagecore/peer in
 * greyscale over the inputs of 256² to 2048² (all but the 64² upscale), the inputs above 0.6×,
 * imagecore/sharp in colour on the 512² JPEGs, and every row where imagecore's output is larger
 * than the peer's. Then, for the encoder's effort: ms per render and bytes at each zlib level and
 * each setting. The load average is printed before and after.
 *
 * Environment: `BENCH_INPUTS` (a regular expression: only the inputs whose name matches),
 * `BENCH_BUDGET_MS` (ms per library per row, default 1500; at least 15 rounds), `BENCH_EFFORT=0`
 * (skip the effort table).
 * @module
 */
import sharp from "sharp";
import { FastResizeFilter, Transformer } from "@napi-rs/image-wasm32-wasi";
import { transform, transformStages } from "../imagecore/mod.ts";
import { renderDemoLogos } from "../src/store/demo_logos.ts";
import { benchInputs } from "./bench_inputs.ts";

const WIDTH = 128;
const MIN_ROUNDS = 15;
const BUDGET_MS = Number(Deno.env.get("BENCH_BUDGET_MS") ?? 1500);
const ONLY = new RegExp(Deno.env.get("BENCH_INPUTS") ?? "");
const loadAverage = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

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

const inputs = (await benchInputs()).filter((input) => ONLY.test(input.name));
console.log(`load average before: ${loadAverage()}`);
const rows: string[][] = [];
/** One row's figures, for the summary. */
interface Figures {
  input: string;
  set: string;
  greyscale: boolean;
  coreSharp: number;
  corePeer: number;
  coreBytes: number;
  peerBytes: number;
}
const figures: Figures[] = [];
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
    figures.push({
      input: input.name,
      set: input.set,
      greyscale,
      coreSharp: core.ms / viaSharp.ms,
      corePeer: core.ms / peer.ms,
      coreBytes: core.bytes,
      peerBytes: peerRuns ? peer.bytes : NaN,
    });
    rows.push([
      input.name,
      input.set,
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
  "set",
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

// Against issue 34's targets (bench/README.md).
const grey = figures.filter((f) =>
  f.greyscale && !Number.isNaN(f.corePeer) && f.input !== "png 64×64 rgba"
);
const summary = (label: string, of: Figures[], ratio: (f: Figures) => number, bar: number) => {
  if (!of.length) return;
  const values = of.map(ratio);
  const worst = of[values.indexOf(Math.max(...values))];
  const over = of.filter((f) => ratio(f) > bar).map((f) => `${f.input} ${fixed(ratio(f))}`);
  console.log(
    `${label}: median ${fixed(median(values))}, worst ${fixed(ratio(worst))} (${worst.input}) ` +
      `over ${of.length} inputs; above ${bar}: ${over.length ? over.join(", ") : "none"}`,
  );
};
console.log("");
summary("grey core/peer, sources 256²–2048²", grey, (f) => f.corePeer, 0.6);
summary(
  "grey core/peer, broad inputs",
  grey.filter((f) => f.set === "broad"),
  (f) => f.corePeer,
  0.6,
);
summary(
  "grey core/peer, original inputs",
  grey.filter((f) => f.set === "original"),
  (f) => f.corePeer,
  0.6,
);
const jpeg512 = figures.filter((f) => !f.greyscale && /jpeg 512×512/.test(f.input));
summary("colour core/sharp, JPEG 512²", jpeg512, (f) => f.coreSharp, 0.8);
const larger = figures.filter((f) => f.coreBytes > f.peerBytes)
  .map((f) => `${f.input} ${f.greyscale ? "grey" : "colour"} ${f.coreBytes} > ${f.peerBytes}`);
console.log(`imagecore bytes above the peer's: ${larger.length ? larger.join("; ") : "none"}`);
console.log(`load average after: ${loadAverage()}`);

// The encoder's effort: every zlib level, and the two settings, on greyscale renders.
const demo = renderDemoLogos().map((logo) => ({ name: `demo ${logo.domain}`, bytes: logo.bytes }));
const levelInputs = [
  ...inputs.filter((i) => /^png (512|1024)/.test(i.name)),
  ...demo,
];
const levelRows: string[][] = [];
for (const input of Deno.env.get("BENCH_EFFORT") === "0" ? [] : levelInputs) {
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
