/**
 * `deno run --allow-all bench/theme_bench.ts`: what the theme step costs. Each input is
 * transformed to `BENCH_THEME_WIDTH` px wide PNG (default 800) without a theme, with `light` and
 * with `dark`; prints the median ms of each whole call, the median ms of the theme stage alone
 * (timed inside WASM by `transformStages`), and whether the theme changed a colour. The inputs: the
 * demo logos, two of the render benchmark's 512-px logos (a hue gradient inside a translucent
 * ring: thousands of colours on the outline), and a worst case, a translucent image of random
 * colours: every pixel a new palette entry, none of them a part; and the per-part theme's worst,
 * 8 parts that all move among 53,000 colours (imagecore/src/colour/theme.rs).
 * @module
 */
import { encodeRgba, type Theme, transform, transformStages } from "../imagecore/mod.ts";
import { renderDemoLogos } from "../src/store/demo_logos.ts";
import { benchLogo } from "./support/bench_server.ts";

const WIDTH = Number(Deno.env.get("BENCH_THEME_WIDTH") ?? "800");
const RUNS = 9;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** A `size`² image of random colours at alpha 200: no two pixels share a verdict. */
function noise(size: number): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  let seed = 12345;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    pixels[i] = i % 4 === 3 ? 200 : seed >>> 24;
  }
  return encodeRgba(pixels, size, size, "png");
}

/**
 * The per-part theme's worst case: a `size`² image of 8 dark stripes (8 parts, none reading on a
 * dark page, so all move) with every 12th pixel a random colour at alpha 200 (about 53,000 colours
 * at 800², under the palette's cap): every colour is fitted to the parts and pairs of them.
 */
function stripesAndNoise(size: number): Uint8Array {
  const stripes = [
    [0, 0, 0],
    [60, 0, 0],
    [0, 50, 0],
    [0, 0, 90],
    [50, 40, 0],
    [45, 0, 60],
    [0, 45, 55],
    [40, 40, 40],
  ];
  const pixels = new Uint8Array(size * size * 4);
  let seed = 12345;
  for (let p = 0; p < size * size; p++) {
    const [x, y] = [p % size, Math.floor(p / size)];
    if ((x + y * 7) % 12 === 0) {
      for (let c = 0; c < 3; c++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        pixels[p * 4 + c] = seed >>> 24;
      }
      pixels[p * 4 + 3] = 200;
    } else {
      pixels.set([...stripes[Math.floor((x * 8) / size)], 255], p * 4);
    }
  }
  return encodeRgba(pixels, size, size, "png");
}

const inputs: [string, Uint8Array][] = [
  ...renderDemoLogos().map(({ domain, bytes }): [string, Uint8Array] => [domain, bytes]),
  ["render bench logo 0", benchLogo(0)],
  ["render bench logo 7", benchLogo(7)],
  ["random colours 800²", noise(800)],
  ["8 dark parts + 53k colours 800²", stripesAndNoise(800)],
];
console.log(`transform to ${WIDTH} px wide PNG; median of ${RUNS} runs, ms`);
console.log(
  "| input | no theme | light | dark | theme stage, light | theme stage, dark | changed (light/dark) |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const [name, bytes] of inputs) {
  const cells: string[] = [];
  const stages: string[] = [];
  const inverted: boolean[] = [];
  for (const theme of [undefined, "light", "dark"] as (Theme | undefined)[]) {
    const times: number[] = [];
    const stageTimes: number[] = [];
    let out = transform(bytes, { width: WIDTH, theme }); // warm-up
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      out = transform(bytes, { width: WIDTH, theme });
      times.push(performance.now() - t0);
      stageTimes.push(transformStages(bytes, { width: WIDTH, theme }).colourMs);
    }
    cells.push(median(times).toFixed(1));
    if (theme) {
      inverted.push(out.inverted);
      stages.push(median(stageTimes).toFixed(2));
    }
  }
  console.log(`| ${name} | ${cells.join(" | ")} | ${stages.join(" | ")} | ${inverted.join("/")} |`);
}
