/**
 * Benchmark inputs: logo-like images made with sharp (librsvg renders an SVG logo with smooth,
 * anti-aliased edges on transparency), so both pipelines decode the same realistic bytes.
 * @module
 */
import sharp from "sharp";
import { icoOf } from "../test/support/images.ts";

/** One benchmark input. */
export interface BenchInput {
  /** Label for the table. */
  name: string;
  /** Encoded bytes. */
  bytes: Uint8Array;
  /** Whether sharp (libvips) can decode it. */
  sharpDecodes: boolean;
}

/** A logo: a ring, a bar and a gradient-filled shape on a transparent background. */
function logoSvg(width: number, height: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 400 ${
    400 * height / width
  }">
  <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#1a73e8"/><stop offset="1" stop-color="#34a853"/></linearGradient></defs>
  <circle cx="100" cy="${200 * height / width}" r="${
    Math.min(90, 180 * height / width)
  }" fill="none" stroke="#e8453c" stroke-width="${Math.max(4, 28 * height / width)}"/>
  <rect x="210" y="${120 * height / width}" width="170" height="${
    160 * height / width
  }" rx="24" fill="url(#g)"/>
  <path d="M20 ${380 * height / width} L380 ${
    330 * height / width
  }" stroke="#202124" stroke-width="${Math.max(2, 10 * height / width)}" stroke-linecap="round"/>
</svg>`;
}

async function logoPng(width: number, height: number): Promise<Uint8Array> {
  const png = await sharp(new TextEncoder().encode(logoSvg(width, height))).png().toBuffer();
  return new Uint8Array(png);
}

/** A multi-entry ICO of PNG entries (16, 32, 48, 256 px), the way favicons ship. */
async function logoIco(): Promise<Uint8Array> {
  const sides = [16, 32, 48, 256];
  return icoOf(
    await Promise.all(sides.map(async (side) => ({ png: await logoPng(side, side), side }))),
  );
}

/** The inputs of `deno task bench`. */
export async function benchInputs(): Promise<BenchInput[]> {
  const inputs: BenchInput[] = [];
  for (const [w, h] of [[64, 64], [256, 256], [512, 512], [1024, 1024], [2048, 512]]) {
    inputs.push({ name: `png ${w}×${h} rgba`, bytes: await logoPng(w, h), sharpDecodes: true });
  }
  // JPEG at both sizes issue 15 names (512² and 1024²).
  for (const side of [512, 1024]) {
    const jpeg = await sharp(await logoPng(side, side)).flatten({ background: "#ffffff" })
      .jpeg({ quality: 90 }).toBuffer();
    inputs.push({
      name: `jpeg ${side}×${side}`,
      bytes: new Uint8Array(jpeg),
      sharpDecodes: true,
    });
  }
  inputs.push({ name: "ico 16…256", bytes: await logoIco(), sharpDecodes: false });
  return inputs;
}
