/**
 * `deno run --config deno.dev.json -A bench/jpeg_quality_bench.ts [--record]`: the quality of
 * JPEG shrink-on-load against sharp's (issue 34 §1, §0 for greyscale). For every case of
 * `test/support/jpeg_quality_inputs.ts` (logo, 1-px line grid, text rows, photo; 512², 1024²,
 * 2048²; 32–512 px wide; colour, then greyscale), prints imagecore's PSNR and sharp's
 * (`resize(width)`, Lanczos3, its default shrink-on-load) against the same reference, imagecore's
 * full decode (made grey) + one Lanczos3, and checks the bar: imagecore ≥ sharp − 0.5 dB and
 * ≥ 30 dB on every case; sharp's figure of a greyscale case is its `.greyscale()` output's. For
 * those cases it also prints, as information, sharp's colour output made grey by imagecore's
 * Rec. 709 luma (libvips' own grey is luminance in linear light, ~30 dB from the reference on
 * coloured sources whatever the scale) and the cases more than 0.5 dB below it.
 * `--record` writes sharp's figures to `test/imagecore/jpeg_shrink_sharp_psnr.json`, which the
 * pinning test (`test/imagecore/jpeg_shrink_quality_test.ts`) compares imagecore against.
 * @module
 */
import sharp from "sharp";
import {
  imagecorePsnr,
  JPEG_QUALITY_CASES,
  type JpegQualityCase,
  referencePixels,
  rgbPsnr,
  sourceJpeg,
} from "../test/support/jpeg_quality_inputs.ts";
import { rec709Luma } from "../test/support/rec709_luma.ts";

/** How far below sharp imagecore may be, and the floor, in dB. */
const MARGIN_DB = 0.5;
const FLOOR_DB = 30;
const RECORD = new URL("../test/imagecore/jpeg_shrink_sharp_psnr.json", import.meta.url);

sharp.cache(false);
console.log(`load average: ${Deno.readTextFileSync("/proc/loadavg").trim()}`);
const recorded: Record<string, number> = {};
const rows: string[] = [];
let worst = Infinity, lowest = Infinity, failures = 0;
/** sharp's output of `c` as raw pixels, with `.greyscale()` when `greyscale`. */
async function sharpPixels(c: JpegQualityCase, greyscale: boolean) {
  const resized = sharp(sourceJpeg(c)).resize(c.width);
  const { data, info } = await (greyscale ? resized.greyscale() : resized).raw().toBuffer({
    resolveWithObject: true,
  });
  return { data: new Uint8Array(data), channels: info.channels };
}

/** `pixels` (`channels` samples a pixel) made grey by imagecore's Rec. 709 luma: one a pixel. */
function lumaOf(pixels: Uint8Array, channels: number): Uint8Array {
  const out = new Uint8Array(pixels.length / channels);
  for (let p = 0; p < out.length; p++) {
    const i = p * channels;
    out[p] = rec709Luma(pixels[i], pixels[i + 1], pixels[i + 2]);
  }
  return out;
}

const db = (n: number) => Number.isFinite(n) ? n.toFixed(1) : "∞";
const signed = (n: number) => `${n >= 0 ? "+" : ""}${db(n)}`;
/** Greyscale cases more than the margin below sharp's colour output made grey (information). */
const belowLuma: string[] = [];
for (const c of JPEG_QUALITY_CASES) {
  const reference = referencePixels(c);
  const ours = imagecorePsnr(c);
  const colour = await sharpPixels(c, false);
  let theirs = rgbPsnr(colour.data, colour.channels, reference, 4);
  let luma = "–", lumaMargin = "–";
  if (c.greyscale) {
    const grey = await sharpPixels(c, true);
    theirs = rgbPsnr(grey.data, grey.channels, reference, 4, 1);
    // sharp's grey is luminance in linear light (libvips' b-w), not Rec. 709 luma of the sRGB
    // values: ~30 dB from the reference on coloured sources at every scale. Its colour output
    // made grey by the reference's luma shows its shrink-on-load alone.
    const lumaDb = rgbPsnr(lumaOf(colour.data, colour.channels), 1, reference, 4, 1);
    [luma, lumaMargin] = [db(lumaDb), signed(ours - lumaDb)];
    if (ours - lumaDb < -MARGIN_DB) belowLuma.push(`${c.name} ${lumaMargin} dB`);
  }
  recorded[c.name] = Math.round(theirs * 100) / 100;
  const margin = ours - theirs;
  const pass = margin >= -MARGIN_DB && ours >= FLOOR_DB;
  if (!pass) failures++;
  worst = Math.min(worst, margin);
  lowest = Math.min(lowest, ours);
  rows.push(
    `| ${c.name} | ${db(ours)} | ${db(theirs)} | ${signed(margin)} | ${
      pass ? "yes" : "**no**"
    } | ${luma} | ${lumaMargin} |`,
  );
}
console.log(
  "| case | imagecore dB | sharp dB | imagecore − sharp | bar | sharp colour → luma dB | " +
    "imagecore − that |",
);
console.log("| --- | ---: | ---: | ---: | --- | ---: | ---: |");
console.log(rows.join("\n"));
console.log(
  `\n${JPEG_QUALITY_CASES.length} cases; worst imagecore − sharp ${worst.toFixed(2)} dB; ` +
    `lowest imagecore ${lowest.toFixed(1)} dB; ${failures} below the bar`,
);
console.log(
  `greyscale cases more than ${MARGIN_DB} dB below sharp's colour output made grey: ` +
    (belowLuma.join(", ") || "none"),
);
if (Deno.args.includes("--record")) {
  Deno.writeTextFileSync(RECORD, JSON.stringify(recorded, null, 2) + "\n");
  console.log(`sharp's figures written to ${RECORD.pathname}`);
}
