/**
 * The store-growth benchmark's logos: N distinct logo-like PNGs, generated deterministically from
 * a seed and kept in a cache directory, named `DOMAIN.png` as `deno task admin logo import`
 * expects.
 *
 * Each logo is an SVG drawn from its own seeded random stream (2–6 shapes: discs, rings, rounded
 * boxes, polygons, wordmark bars, some with gradients or partial opacity, on transparency), 256 to
 * 1024 px wide at one of five aspect ratios, rasterised by sharp (librsvg, anti-aliased edges).
 * Logo `i` depends only on the seed and `i`, so the first 1,000 of a 10,000 set are the 1,000 set.
 * Generation runs once per (seed, N, {@link GENERATOR_VERSION}); a `.complete` marker (hidden, so
 * the import skips it) says the directory is whole.
 *
 * @example
 * ```ts
 * import { growthLogoSet } from "./growth_logos.ts";
 * const set = await growthLogoSet({ seed: 1, count: 1000 });
 * console.log(set.dir, set.bytes, set.generatedMs); // generatedMs 0 when it came from the cache
 * ```
 * @module
 */
import sharp from "sharp";
import { join } from "node:path";

/** Bumped whenever the drawing changes, so a cached set of the old drawing is not reused. */
export const GENERATOR_VERSION = 1;

/** The domain of logo `index` in the set of `seed`: `growth-SEED-INDEX.com`. */
export function growthDomain(seed: number, index: number): string {
  return `growth-${seed}-${index}.com`;
}

/** A seeded 32-bit random stream (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Width over height of the generated logos: square marks, wordmarks, a tall badge. */
const ASPECTS = [1, 1, 1.5, 2, 3, 4, 0.75];

/** The SVG of logo `index` of the set of `seed`, and its pixel size. */
export function growthLogoSvg(seed: number, index: number): {
  svg: string;
  width: number;
  height: number;
} {
  const random = seededRandom(Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const between = (low: number, high: number) => low + random() * (high - low);
  const width = 256 + Math.floor(random() * 769); // 256…1024
  const aspect = pick(ASPECTS);
  const height = Math.max(48, Math.round(width / aspect));
  const hue = Math.floor(random() * 360);
  const colour = (shift: number) =>
    `hsl(${(hue + shift) % 360},${Math.round(between(35, 90))}%,${Math.round(between(25, 65))}%)`;
  const colours = [colour(0), colour(pick([30, 120, 180, 210])), colour(pick([0, 60, 240]))];
  const defs = `<linearGradient id="g" x1="0" y1="0" x2="${between(0.3, 1).toFixed(2)}" y2="1">` +
    `<stop offset="0" stop-color="${colours[0]}"/><stop offset="1" stop-color="${colours[1]}"/>` +
    `</linearGradient>`;
  const fill = () => (random() < 0.3 ? "url(#g)" : pick(colours));
  const opacity = () => (random() < 0.2 ? ` fill-opacity="${between(0.4, 0.9).toFixed(2)}"` : "");
  const shapes: string[] = [];
  const count = 2 + Math.floor(random() * 5);
  for (let s = 0; s < count; s++) {
    const cx = between(0.15, 0.85) * width;
    const cy = between(0.2, 0.8) * height;
    const r = between(0.1, 0.4) * Math.min(width, height);
    switch (pick(["disc", "ring", "box", "polygon", "bars"])) {
      case "disc":
        shapes.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill()}"${opacity()}/>`);
        break;
      case "ring":
        shapes.push(
          `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${pick(colours)}" ` +
            `stroke-width="${between(0.08, 0.3) * r}"/>`,
        );
        break;
      case "box":
        shapes.push(
          `<rect x="${cx - r}" y="${cy - r * 0.7}" width="${2 * r}" height="${1.4 * r}" ` +
            `rx="${between(0, 0.5) * r}" fill="${fill()}"${opacity()} ` +
            `transform="rotate(${Math.round(between(-30, 30))} ${cx} ${cy})"/>`,
        );
        break;
      case "polygon": {
        const corners = 3 + Math.floor(random() * 6);
        const star = random() < 0.3;
        const points: string[] = [];
        for (let k = 0; k < corners * (star ? 2 : 1); k++) {
          const angle = (k / (corners * (star ? 2 : 1))) * 2 * Math.PI + between(0, 0.2);
          const radius = star && k % 2 === 1 ? r * 0.45 : r;
          points.push(
            `${(cx + radius * Math.cos(angle)).toFixed(1)},${
              (cy + radius * Math.sin(angle)).toFixed(1)
            }`,
          );
        }
        shapes.push(`<polygon points="${points.join(" ")}" fill="${fill()}"${opacity()}/>`);
        break;
      }
      case "bars": {
        // A wordmark-like row of letter blocks.
        const letters = 3 + Math.floor(random() * 7);
        const letterHeight = between(0.2, 0.45) * height;
        const step = (width * between(0.5, 0.85)) / letters;
        const x0 = width * 0.08;
        const y0 = cy - letterHeight / 2;
        const colourOfBars = pick(colours);
        for (let k = 0; k < letters; k++) {
          const h = letterHeight * (random() < 0.3 ? 0.7 : 1);
          shapes.push(
            `<rect x="${(x0 + k * step).toFixed(1)}" y="${(y0 + letterHeight - h).toFixed(1)}" ` +
              `width="${(step * between(0.45, 0.8)).toFixed(1)}" height="${h.toFixed(1)}" ` +
              `rx="${(step * 0.1).toFixed(1)}" fill="${colourOfBars}"/>`,
          );
        }
        break;
      }
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}"><defs>${defs}</defs>${shapes.join("")}</svg>`;
  return { svg, width, height };
}

/** Rasterises logo `index` of the set of `seed` to PNG. */
export async function growthLogoPng(seed: number, index: number): Promise<Uint8Array> {
  const { svg } = growthLogoSvg(seed, index);
  const png = await sharp(new TextEncoder().encode(svg)).png().toBuffer();
  return new Uint8Array(png);
}

/** Options of {@link growthLogoSet}. */
export interface GrowthLogoSetOptions {
  /** Seed of the set. */
  seed: number;
  /** Number of logos. */
  count: number;
  /** Parent of the cache directories; default `$XDG_CACHE_HOME` or `~/.cache`, `/logo-lookup`. */
  cacheRoot?: string;
  /** Called after each batch with how many logos are written so far. */
  progress?: (done: number) => void;
}

/** A generated set of logos on disk. */
export interface GrowthLogoSet {
  /** The directory of `DOMAIN.png` files. */
  dir: string;
  /** Number of logos. */
  count: number;
  /** Total bytes of the PNG files. */
  bytes: number;
  /** Milliseconds spent generating now (0 when the set was already cached). */
  generatedMs: number;
}

/** The default parent of the benchmark's cache directories. */
export function defaultCacheRoot(): string {
  const base = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache");
  return join(base, "logo-lookup");
}

const MARKER = ".complete";
/** Logos rasterised at once (sharp runs them on libuv's thread pool). */
const CONCURRENCY = 4;

/** Returns the cached set of `seed` and `count`, generating (the missing part of) it first. */
export async function growthLogoSet(options: GrowthLogoSetOptions): Promise<GrowthLogoSet> {
  const { seed, count } = options;
  const dir = join(
    options.cacheRoot ?? defaultCacheRoot(),
    `growth-logos-v${GENERATOR_VERSION}-seed${seed}-n${count}`,
  );
  const marker = join(dir, MARKER);
  let generatedMs = 0;
  let bytes = 0;
  try {
    ({ bytes } = JSON.parse(await Deno.readTextFile(marker)));
  } catch {
    const started = performance.now();
    await Deno.mkdir(dir, { recursive: true });
    for (let next = 0; next < count; next += CONCURRENCY) {
      const indexes = [];
      for (let i = next; i < Math.min(count, next + CONCURRENCY); i++) indexes.push(i);
      const sizes = await Promise.all(indexes.map(async (i) => {
        const file = join(dir, `${growthDomain(seed, i)}.png`);
        const png = await growthLogoPng(seed, i);
        await Deno.writeFile(file, png);
        return png.length;
      }));
      bytes += sizes.reduce((a, b) => a + b, 0);
      if ((next / CONCURRENCY) % 50 === 0) options.progress?.(next + indexes.length);
    }
    generatedMs = performance.now() - started;
    await Deno.writeTextFile(marker, JSON.stringify({ seed, count, bytes }));
  }
  return { dir, count, bytes, generatedMs };
}
