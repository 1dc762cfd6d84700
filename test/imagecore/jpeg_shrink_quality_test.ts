/**
 * JPEG shrink-on-load keeps sharp's quality (issue 34 §1, and §0 for greyscale): on every case of
 * `test/support/jpeg_quality_inputs.ts`, colour and greyscale, imagecore's PSNR against the full
 * decode (made grey) + Lanczos3 is no more than 0.5 dB below sharp's (`.greyscale()` for a
 * greyscale case), and at least 30 dB. sharp is not run here: its figures were
 * recorded by `bench/jpeg_quality_bench.ts --record` into `jpeg_shrink_sharp_psnr.json` (the
 * tables: bench/results/2026-12-01-jpeg-shrink-quality.md, 2026-12-02-jpeg-grey-shrink.md). The inputs are remade here from their
 * seeds and encoded by imagecore, so they are the bytes sharp was measured on.
 */
import { ok, strictEqual } from "node:assert";
import { transform } from "../../imagecore/mod.ts";
import { imagecorePsnr, JPEG_QUALITY_CASES, sourceJpeg } from "../support/jpeg_quality_inputs.ts";
import sharpPsnr from "./jpeg_shrink_sharp_psnr.json" with { type: "json" };

const MARGIN_DB = 0.5;
const FLOOR_DB = 30;

Deno.test("sharp's figures are recorded for every quality case", () => {
  const recorded: Record<string, number> = sharpPsnr;
  strictEqual(Object.keys(recorded).length, JPEG_QUALITY_CASES.length);
  for (const c of JPEG_QUALITY_CASES) ok(c.name in recorded, c.name);
});

Deno.test("a shrunk JPEG stays within 0.5 dB of sharp and above 30 dB on every case", () => {
  const recorded: Record<string, number> = sharpPsnr;
  const below: string[] = [];
  for (const c of JPEG_QUALITY_CASES) {
    const ours = imagecorePsnr(c);
    const theirs = recorded[c.name];
    if (ours < theirs - MARGIN_DB || ours < FLOOR_DB) {
      below.push(`${c.name}: ${ours.toFixed(2)} dB, sharp ${theirs} dB`);
    }
  }
  strictEqual(below.join("\n"), "");
});

Deno.test("the cases exercise shrink-on-load: a 1024² JPEG at 128 px is not the full decode resized", () => {
  for (const name of ["photo 1024→128", "photo 1024→128 grey"]) {
    const c = JPEG_QUALITY_CASES.find((c) => c.name === name)!;
    const options = { width: 128, greyscale: c.greyscale };
    strictEqual(transform(sourceJpeg(c), options).width, 128);
    ok(Number.isFinite(imagecorePsnr(c)), `${name}: identical to the reference, not shrunk`);
  }
});
