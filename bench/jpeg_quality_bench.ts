/**
 * `deno run --config deno.dev.json -A bench/jpeg_quality_bench.ts [--record]`: the quality of
 * JPEG shrink-on-load against sharp's (issue 34 §1). For every case of
 * `test/support/jpeg_quality_inputs.ts` (logo, 1-px line grid, text rows, photo; 512², 1024²,
 * 2048²; 32–512 px wide), prints imagecore's PSNR and sharp's (`resize(width)`, Lanczos3, its
 * default shrink-on-load) against the same reference, imagecore's full decode + one Lanczos3, and
 * checks the bar: imagecore ≥ sharp − 0.5 dB and ≥ 30 dB on every case. `--record` writes sharp's
 * figures to `test/imagecore/jpeg_shrink_sharp_psnr.json`, which the pinning test
 * (`test/imagecore/jpeg_shrink_quality_test.ts`) compares imagecore against.
 * @module
 */
import sharp from "sharp";
import {
  imagecorePsnr,
  JPEG_QUALITY_CASES,
  referencePixels,
  rgbPsnr,
  sourceJpeg,
} from "../test/support/jpeg_quality_inputs.ts";

/** How far below sharp imagecore may be, and the floor, in dB. */
const MARGIN_DB = 0.5;
const FLOOR_DB = 30;
const RECORD = new URL("../test/imagecore/jpeg_shrink_sharp_psnr.json", import.meta.url);

sharp.cache(false);
console.log(`load average: ${Deno.readTextFileSync("/proc/loadavg").trim()}`);
const recorded: Record<string, number> = {};
const rows: string[] = [];
let worst = Infinity, lowest = Infinity, failures = 0;
for (const c of JPEG_QUALITY_CASES) {
  const reference = referencePixels(c);
  const ours = imagecorePsnr(c);
  const { data, info } = await sharp(sourceJpeg(c)).resize(c.width).raw().toBuffer({
    resolveWithObject: true,
  });
  const theirs = rgbPsnr(new Uint8Array(data), info.channels, reference, 4);
  recorded[c.name] = Math.round(theirs * 100) / 100;
  const margin = ours - theirs;
  const pass = margin >= -MARGIN_DB && ours >= FLOOR_DB;
  if (!pass) failures++;
  worst = Math.min(worst, margin);
  lowest = Math.min(lowest, ours);
  const db = (n: number) => Number.isFinite(n) ? n.toFixed(1) : "∞";
  rows.push(
    `| ${c.name} | ${db(ours)} | ${db(theirs)} | ${margin >= 0 ? "+" : ""}${db(margin)} | ${
      pass ? "yes" : "**no**"
    } |`,
  );
}
console.log("| case | imagecore dB | sharp dB | imagecore − sharp | bar |");
console.log("| --- | ---: | ---: | ---: | --- |");
console.log(rows.join("\n"));
console.log(
  `\n${JPEG_QUALITY_CASES.length} cases; worst imagecore − sharp ${worst.toFixed(2)} dB; ` +
    `lowest imagecore ${lowest.toFixed(1)} dB; ${failures} below the bar`,
);
if (Deno.args.includes("--record")) {
  Deno.writeTextFileSync(RECORD, JSON.stringify(recorded, null, 2) + "\n");
  console.log(`sharp's figures written to ${RECORD.pathname}`);
}
