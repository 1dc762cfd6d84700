/**
 * Benchmark inputs: logo-like images made with sharp (librsvg renders an SVG logo with smooth,
 * anti-aliased edges on transparency), so every pipeline decodes the same realistic bytes.
 *
 * Two sets. The **original** inputs (one logo: a ring, a gradient box and a stroke, at 64² to
 * 2048×512, as JPEG at 512² and 1024², and an ICO), unchanged so that figures stay comparable
 * with earlier runs. The **broad** inputs (issue 34), each kind at two or three sizes from 256² to
 * 2048² or wide (4:1): flat marks, gradients, soft shadows, thin strokes, anti-aliased text, a
 * photo-like PNG, and a JPEG logo on a photographic background. `<text>` is drawn by librsvg with
 * the machine's `sans-serif` font (fontconfig), the one input that depends on the machine.
 * @module
 */
import sharp from "sharp";
import { Buffer } from "node:buffer";
import { icoOf } from "../test/support/images.ts";
import { photoLikeRgb } from "./support/photo_like.ts";

/** One benchmark input. */
export interface BenchInput {
  /** Label for the table. */
  name: string;
  /** Encoded bytes. */
  bytes: Uint8Array;
  /** Whether sharp (libvips) can decode it. */
  sharpDecodes: boolean;
  /** Which set it belongs to: the original inputs, or issue 34's broad ones. */
  set: "original" | "broad";
}

/** An SVG document `width`×`height` px over a viewBox 400 units wide, `body` given its height. */
function svgOf(width: number, height: number, body: (h: number) => string): string {
  const h = 400 * height / width;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 400 ${h}">${body(h)}</svg>`;
}

/** The original logo: a ring, a bar and a gradient-filled shape on a transparent background. */
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

/** Flat marks: three solid colours, no gradient, sharp anti-aliased edges. */
function flat(h: number) {
  const side = Math.min(0.8 * h, 170);
  return `<rect x="20" y="${(h - side) / 2}" width="${side}" height="${side}" rx="${0.18 * side}"
    fill="#ff5a1f"/><circle cx="${20 + side / 2}" cy="${h / 2}" r="${0.28 * side}" fill="#fff"/>
  <path d="M210 ${(h + side) / 2} L295 ${(h - side) / 2} L380 ${
    (h + side) / 2
  } Z" fill="#1d2b53"/>`;
}

/** Gradients: a multi-stop linear fill, a radial glow fading to transparency. */
const gradient = (h: number) =>
  `<defs><linearGradient id="l" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#ff0080"/><stop offset="0.5" stop-color="#7928ca"/>
    <stop offset="1" stop-color="#0070f3"/></linearGradient>
  <radialGradient id="r"><stop offset="0" stop-color="#ffd000" stop-opacity="1"/>
    <stop offset="1" stop-color="#ff6a00" stop-opacity="0"/></radialGradient></defs>
  <rect x="10" y="${0.05 * h}" width="380" height="${0.9 * h}" rx="${0.2 * h}" fill="url(#l)"/>
  <ellipse cx="200" cy="${0.5 * h}" rx="190" ry="${0.45 * h}" fill="url(#r)"/>`;

/** Soft shadows: shapes over a blurred, offset, translucent copy of themselves. */
const shadow = (h: number) =>
  `<defs><filter id="s" x="-20%" y="-20%" width="140%" height="140%">
    <feGaussianBlur in="SourceAlpha" stdDeviation="${0.03 * h}"/>
    <feOffset dx="${0.02 * h}" dy="${0.03 * h}" result="b"/>
    <feComponentTransfer><feFuncA type="linear" slope="0.45"/></feComponentTransfer>
    <feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter></defs>
  <g filter="url(#s)"><circle cx="110" cy="${0.5 * h}" r="${Math.min(0.32 * h, 80)}"
    fill="#00a86b"/>
  <rect x="220" y="${0.2 * h}" width="150" height="${0.6 * h}" rx="20" fill="#f4b400"/></g>`;

/** Thin strokes: line art about 1.5 source px wide, a grid, circles and a diagonal hatch. */
function strokes(width: number) {
  const sw = 1.5 * 400 / width;
  return (h: number) => {
    const lines: string[] = [];
    for (let x = 20; x <= 380; x += 20) lines.push(`M${x} ${0.1 * h} V${0.9 * h}`);
    for (let y = 0.1 * h; y <= 0.9 * h; y += 0.08 * h) lines.push(`M20 ${y} H380`);
    const hatch = Array.from(
      { length: 24 },
      (_, i) => `M${60 + 12 * i} ${0.85 * h} l40 ${-0.3 * h}`,
    );
    return `<path d="${lines.join(" ")}" stroke="#444" stroke-width="${sw}" fill="none"/>
    <path d="${hatch.join(" ")}" stroke="#d00" stroke-width="${sw}"/>
    <circle cx="200" cy="${0.5 * h}" r="${0.3 * h}" stroke="#06c" stroke-width="${2 * sw}"
      fill="none"/><circle cx="200" cy="${0.5 * h}" r="${0.2 * h}" stroke="#06c"
      stroke-width="${sw}" fill="none"/>`;
  };
}

/** Anti-aliased text: a wordmark and a smaller tagline, the wordmark's baseline at `y`. */
function textAt(h: number, y: number) {
  const size = Math.min(0.42 * h, 48);
  return `<text x="200" y="${y}" font-family="sans-serif" font-weight="bold" text-anchor="middle"
    font-size="${size}" fill="#222">Acme Analytics</text>
  <text x="200" y="${y + 0.6 * size}" font-family="sans-serif" text-anchor="middle"
    font-size="${size / 3}" fill="#0a66c2">measure what matters, every day</text>`;
}

const text = (h: number) => textAt(h, 0.6 * h);

async function pngOfSvg(svg: string): Promise<Uint8Array> {
  return new Uint8Array(await sharp(new TextEncoder().encode(svg)).png().toBuffer());
}

const logoPng = (w: number, h: number) => pngOfSvg(logoSvg(w, h));

/** A multi-entry ICO of PNG entries (16, 32, 48, 256 px), the way favicons ship. */
async function logoIco(): Promise<Uint8Array> {
  const sides = [16, 32, 48, 256];
  return icoOf(
    await Promise.all(sides.map(async (side) => ({ png: await logoPng(side, side), side }))),
  );
}

/** A photo-like picture, `width`×`height`, as sharp input. */
const photo = (width: number, height: number, seed: number) =>
  sharp(photoLikeRgb(width, height, seed), { raw: { width, height, channels: 3 } });

/** The original inputs of `deno task bench`, unchanged since issue 15. */
async function originalInputs(): Promise<BenchInput[]> {
  const inputs: BenchInput[] = [];
  const add = (name: string, bytes: Uint8Array, sharpDecodes = true) =>
    inputs.push({ name, bytes, sharpDecodes, set: "original" });
  for (const [w, h] of [[64, 64], [256, 256], [512, 512], [1024, 1024], [2048, 512]]) {
    add(`png ${w}×${h} rgba`, await logoPng(w, h));
  }
  for (const side of [512, 1024]) {
    const jpeg = await sharp(await logoPng(side, side)).flatten({ background: "#ffffff" })
      .jpeg({ quality: 90 }).toBuffer();
    add(`jpeg ${side}×${side}`, new Uint8Array(jpeg));
  }
  add("ico 16…256", await logoIco(), false);
  return inputs;
}

/** Issue 34's inputs: each kind of logo content at two or three sizes, 256² to 2048² and 4:1. */
async function broadInputs(): Promise<BenchInput[]> {
  const inputs: BenchInput[] = [];
  const add = (name: string, bytes: Uint8Array) =>
    inputs.push({ name, bytes, sharpDecodes: true, set: "broad" });
  const drawn: [string, (w: number) => (h: number) => string, [number, number][]][] = [
    ["flat", () => flat, [[256, 256], [2048, 2048]]],
    ["gradient", () => gradient, [[512, 512], [2048, 512]]],
    ["shadow", () => shadow, [[256, 256], [1024, 1024]]],
    ["strokes", strokes, [[512, 512], [2048, 2048]]],
    ["text", () => text, [[1024, 256], [2048, 512]]],
  ];
  for (const [kind, body, sizes] of drawn) {
    for (const [w, h] of sizes) add(`${kind} png ${w}×${h}`, await pngOfSvg(svgOf(w, h, body(w))));
  }
  for (const [w, h] of [[512, 512], [1024, 1024]]) {
    add(`photo png ${w}×${h}`, new Uint8Array(await photo(w, h, w).png().toBuffer()));
  }
  // A JPEG logo on a photographic background: the flat mark and the wordmark over a photo.
  for (const side of [512, 1024, 2048]) {
    const marks = await pngOfSvg(svgOf(side, side, (h) => flat(0.7 * h) + textAt(h, 0.88 * h)));
    const jpeg = await photo(side, side, side + 1).composite([{ input: Buffer.from(marks) }])
      .jpeg({ quality: 90 }).toBuffer();
    add(`photo jpeg ${side}×${side}`, new Uint8Array(jpeg));
  }
  return inputs;
}

/** The inputs of `deno task bench`: the original ones, then the broad ones. */
export async function benchInputs(): Promise<BenchInput[]> {
  return [...await originalInputs(), ...await broadInputs()];
}
