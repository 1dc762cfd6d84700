/**
 * Photo-like pixels for the benchmark inputs: a seeded, deterministic picture with the statistics
 * of a photograph rather than of a drawing — a smooth colour gradient (sky to ground) modulated by
 * value noise at three scales (shapes, texture, fine detail) and per-pixel grain, so nearly every
 * pixel differs from its neighbours and a PNG of it deflates poorly, as a photo does.
 *
 * @example
 * ```ts
 * import { photoLikeRgb } from "./photo_like.ts";
 * const rgb = photoLikeRgb(64, 32, 7);
 * console.log(rgb.length); // 64 × 32 × 3
 * ```
 * @module
 */
import { seededRandom } from "./growth_logos.ts";

/** Smooth value noise on a lattice of `cell`-px squares, values in [0, 1). */
function valueNoise(width: number, height: number, cell: number, random: () => number) {
  const across = Math.ceil(width / cell) + 2;
  const down = Math.ceil(height / cell) + 2;
  const lattice = Float32Array.from({ length: across * down }, random);
  const smooth = (t: number) => t * t * (3 - 2 * t);
  return (x: number, y: number): number => {
    const gx = x / cell, gy = y / cell;
    const ix = Math.floor(gx), iy = Math.floor(gy);
    const fx = smooth(gx - ix), fy = smooth(gy - iy);
    const at = (i: number, j: number) => lattice[j * across + i];
    const top = at(ix, iy) + (at(ix + 1, iy) - at(ix, iy)) * fx;
    const bottom = at(ix, iy + 1) + (at(ix + 1, iy + 1) - at(ix, iy + 1)) * fx;
    return top + (bottom - top) * fy;
  };
}

/** `width`×`height` opaque RGB8 pixels of a photo-like picture drawn from `seed`. */
export function photoLikeRgb(width: number, height: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  const side = Math.max(width, height);
  const shapes = valueNoise(width, height, Math.max(4, side / 6), random);
  const texture = valueNoise(width, height, Math.max(2, side / 24), random);
  const detail = valueNoise(width, height, Math.max(1, side / 96), random);
  const tint = valueNoise(width, height, Math.max(4, side / 4), random);
  const sky = [70, 130, 200], ground = [120, 96, 60];
  const out = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const v = y / height;
    for (let x = 0; x < width; x++) {
      const light = 0.5 * shapes(x, y) + 0.3 * texture(x, y) + 0.2 * detail(x, y);
      const shade = 0.55 + 0.9 * light;
      const warm = (tint(x, y) - 0.5) * 60;
      for (let c = 0; c < 3; c++) {
        const base = sky[c] + (ground[c] - sky[c]) * v + (c === 0 ? warm : c === 2 ? -warm : 0);
        const grain = (random() - 0.5) * 14;
        out[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(base * shade + grain)));
      }
    }
  }
  return out;
}
