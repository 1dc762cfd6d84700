/**
 * The store-growth benchmark's logo generator: deterministic, distinct, in the promised size range,
 * with transparency, and cached by seed and count in files `logo import` accepts.
 */
import { deepStrictEqual, notDeepStrictEqual, ok, strictEqual } from "node:assert";
import { join } from "node:path";
import sharp from "sharp";
import {
  growthDomain,
  growthLogoPng,
  growthLogoSet,
  growthLogoSvg,
} from "../../bench/support/growth_logos.ts";
import { normalizeDomain } from "../../src/domain_name.ts";
import { sha256Hex } from "../../src/store/sha256.ts";

Deno.test("growth logos: the same seed and index give the same drawing; others differ", () => {
  deepStrictEqual(growthLogoSvg(7, 3), growthLogoSvg(7, 3));
  notDeepStrictEqual(growthLogoSvg(7, 3).svg, growthLogoSvg(7, 4).svg);
  notDeepStrictEqual(growthLogoSvg(7, 3).svg, growthLogoSvg(8, 3).svg);
});

Deno.test("growth logos: 256–1024 px wide PNGs with transparent pixels, all distinct", async () => {
  const hashes = new Set<string>();
  const widths = new Set<number>();
  for (let i = 0; i < 12; i++) {
    const png = await growthLogoPng(1, i);
    hashes.add(await sha256Hex(png));
    const image = sharp(png);
    const meta = await image.metadata();
    strictEqual(meta.format, "png");
    strictEqual(meta.width, growthLogoSvg(1, i).width);
    ok(meta.width! >= 256 && meta.width! <= 1024, `width ${meta.width}`);
    ok(meta.hasAlpha, `logo ${i} has no alpha channel`);
    const alpha = (await image.stats()).channels[3];
    ok(alpha.min === 0 && alpha.max > 0, `logo ${i}: alpha ${alpha.min}…${alpha.max}`);
    widths.add(meta.width!);
  }
  strictEqual(hashes.size, 12);
  ok(widths.size > 6, `only ${widths.size} distinct widths`);
});

Deno.test("growth logo set: files named DOMAIN.png, generated once, then reused", async () => {
  const cacheRoot = await Deno.makeTempDir();
  try {
    const first = await growthLogoSet({ seed: 5, count: 3, cacheRoot });
    ok(first.generatedMs > 0);
    const names = [...Deno.readDirSync(first.dir)].map((e) => e.name)
      .filter((name) => !name.startsWith(".")).sort();
    deepStrictEqual(names, [0, 1, 2].map((i) => `${growthDomain(5, i)}.png`).sort());
    for (const name of names) strictEqual(normalizeDomain(name.slice(0, -4)), name.slice(0, -4));
    const sizes = names.map((name) => Deno.statSync(join(first.dir, name)).size);
    strictEqual(first.bytes, sizes.reduce((a, b) => a + b, 0));
    const again = await growthLogoSet({ seed: 5, count: 3, cacheRoot });
    deepStrictEqual(again, { ...first, generatedMs: 0 });
  } finally {
    await Deno.remove(cacheRoot, { recursive: true });
  }
});
