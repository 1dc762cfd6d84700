/**
 * Demo logos drawn in code — no image files shipped — so a fresh install has something to show.
 * Shapes are anti-aliased by 4×4 supersampling and encoded with imagecore.
 *
 * @example
 * ```ts
 * import { renderDemoLogos } from "./demo_logos.ts";
 * for (const { domain, bytes } of renderDemoLogos()) console.log(domain, bytes.length);
 * ```
 * @module
 */
import { encodeRgba } from "../../imagecore/mod.ts";

/** A generated logo: the domain it is for and its PNG bytes. */
export interface DemoLogo {
  /** Normalised domain. */
  domain: string;
  /** PNG bytes. */
  bytes: Uint8Array;
}

type Rgba = readonly [number, number, number, number];
type Inside = (x: number, y: number) => boolean;

/** A 5×7 pixel font with the letters the demo logos use. */
const GLYPHS: Record<string, readonly string[]> = {
  L: ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
  E: ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
  X: ["10001", "10001", "01010", "00100", "01010", "10001", "10001"],
  O: ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
  R: ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
  G: ["01110", "10001", "10000", "10111", "10001", "10001", "01111"],
};

const SAMPLES = 4;

class Canvas {
  readonly pixels: Uint8Array;
  constructor(readonly width: number, readonly height: number) {
    this.pixels = new Uint8Array(width * height * 4);
  }

  /** Composites `color` over the pixels covered by `inside`, within the box [x0,x1)×[y0,y1). */
  fill(inside: Inside, color: Rgba | ((x: number, y: number) => Rgba), box?: number[]) {
    const [x0, y0, x1, y1] = box ?? [0, 0, this.width, this.height];
    for (let y = Math.max(0, Math.floor(y0)); y < Math.min(this.height, Math.ceil(y1)); y++) {
      for (let x = Math.max(0, Math.floor(x0)); x < Math.min(this.width, Math.ceil(x1)); x++) {
        let hits = 0;
        for (let sy = 0; sy < SAMPLES; sy++) {
          for (let sx = 0; sx < SAMPLES; sx++) {
            if (inside(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES)) hits++;
          }
        }
        if (hits === 0) continue;
        const [r, g, b, a] = typeof color === "function" ? color(x + 0.5, y + 0.5) : color;
        const alpha = (a / 255) * (hits / (SAMPLES * SAMPLES));
        const i = (y * this.width + x) * 4;
        const below = this.pixels[i + 3] / 255;
        const out = alpha + below * (1 - alpha);
        const mix = (top: number, bottom: number) =>
          out === 0 ? 0 : Math.round((top * alpha + bottom * below * (1 - alpha)) / out);
        this.pixels[i] = mix(r, this.pixels[i]);
        this.pixels[i + 1] = mix(g, this.pixels[i + 1]);
        this.pixels[i + 2] = mix(b, this.pixels[i + 2]);
        this.pixels[i + 3] = Math.round(out * 255);
      }
    }
  }

  /** Draws `text` in the 5×7 font, cells of `cell` px, top-left at (x, y). */
  text(text: string, x: number, y: number, cell: number, color: Rgba) {
    for (const [n, char] of [...text].entries()) {
      const glyph = GLYPHS[char];
      const left = x + n * 6 * cell;
      const inside: Inside = (px, py) => {
        const col = Math.floor((px - left) / cell);
        const row = Math.floor((py - y) / cell);
        return row >= 0 && row < 7 && col >= 0 && col < 5 && glyph[row][col] === "1";
      };
      this.fill(inside, color, [left, y, left + 5 * cell, y + 7 * cell]);
    }
  }

  encode(): Uint8Array {
    return encodeRgba(this.pixels, this.width, this.height, "png");
  }
}

function roundedRect(x0: number, y0: number, x1: number, y1: number, radius: number): Inside {
  return (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const cx = Math.min(Math.max(x, x0 + radius), x1 - radius);
    const cy = Math.min(Math.max(y, y0 + radius), y1 - radius);
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
  };
}

function ring(cx: number, cy: number, outer: number, inner: number): Inside {
  return (x, y) => {
    const d = (x - cx) ** 2 + (y - cy) ** 2;
    return d <= outer ** 2 && d >= inner ** 2;
  };
}

/** A violet rounded square with a white "L": an opaque, colourful mark (512×512). */
function logoLookupMark(): Uint8Array {
  const size = 512;
  const canvas = new Canvas(size, size);
  const gradient = (x: number, y: number): Rgba => {
    const t = (x + y) / (2 * size);
    return [Math.round(79 + 90 * t), Math.round(70 - 30 * t), Math.round(229 - 20 * t), 255];
  };
  canvas.fill(roundedRect(16, 16, 496, 496, 96), gradient);
  canvas.text("L", 181, 116, 40, [255, 255, 255, 255]);
  return canvas.encode();
}

/** A dark ring with "EX" on a transparent background: what `theme=dark` lightens (400×400). */
function exampleComMark(): Uint8Array {
  const size = 400;
  const canvas = new Canvas(size, size);
  canvas.fill(ring(200, 200, 190, 160), [24, 24, 27, 255], [0, 0, size, size]);
  canvas.text("EX", 97, 130, 20, [24, 24, 27, 255]);
  return canvas.encode();
}

/** An orange wordmark "ORG", three times wider than tall (600×200). */
function exampleOrgMark(): Uint8Array {
  const canvas = new Canvas(600, 200);
  canvas.fill(roundedRect(4, 4, 596, 196, 40), [249, 115, 22, 255]);
  canvas.text("ORG", 143, 44, 16, [255, 255, 255, 255]);
  return canvas.encode();
}

/** Renders the demo logos: `logo-lookup.test`, `example.com` and `example.org`. */
export function renderDemoLogos(): DemoLogo[] {
  return [
    { domain: "logo-lookup.test", bytes: logoLookupMark() },
    { domain: "example.com", bytes: exampleComMark() },
    { domain: "example.org", bytes: exampleOrgMark() },
  ];
}
