/**
 * What each stored-rendition choice costs, in bytes at ingestion and in time on the request path:
 * `deno run --config deno.dev.json -A bench/rendition_cost_bench.ts [N] [SEED]`.
 *
 * On the first N logos (default 200) of the store-growth set (bench/support/growth_logos.ts), in
 * this isolate, one call at a time:
 * - bytes: the `source` rendition (at most 1200 px) as PNG and as lossless WebP, `mid` (256 px)
 *   and `default` (128 px) as PNG;
 * - ingest time: encoding the source as PNG or WebP (each a full `transform` of the file);
 * - request-path time: a 64-px and a 200-px PNG rendered from `mid`, from the PNG source and from
 *   the WebP source (what a non-default request costs on a cache miss), and a 1200-px request.
 *
 * Prints medians and totals; also checks that the WebP source decodes to the same pixels as the
 * PNG source (both lossless), so a render from either gives the same bytes.
 *
 * @module
 */
import { growthLogoSet } from "./support/growth_logos.ts";
import { probe, transform, type TransformOptions } from "../imagecore/mod.ts";
import { SOURCE_MAX_WIDTH } from "../src/store/logo_ingest.ts";

/** Width of the `mid` rendition recipe 1 stored (256 px), measured here against the source. */
const MID_WIDTH = 256;

const count = Number(Deno.args[0] ?? 200);
const seed = Number(Deno.args[1] ?? 1);
const set = await growthLogoSet({ seed, count });
const files = [...Deno.readDirSync(set.dir)].filter((e) => e.name.endsWith(".png"))
  .map((e) => e.name).sort().slice(0, count);

const times: Record<string, number[]> = {};
const bytes: Record<string, number> = {};
function timed<T>(name: string, run: () => T): T {
  const start = performance.now();
  const out = run();
  (times[name] ??= []).push(performance.now() - start);
  return out;
}
const add = (name: string, n: number) => bytes[name] = (bytes[name] ?? 0) + n;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let identical = 0;

// Warm up both code paths once.
const warm = await Deno.readFile(`${set.dir}/${files[0]}`);
transform(warm, { width: 64 });
transform(warm, { width: 64, format: "webp" });

for (const file of files) {
  const input = await Deno.readFile(`${set.dir}/${file}`);
  const width = Math.min(probe(input).width, SOURCE_MAX_WIDTH);
  const png = timed("ingest: source as PNG", () => transform(input, { width }));
  const webp = timed("ingest: source as WebP", () => transform(input, { width, format: "webp" }));
  const mid = transform(png.bytes, { width: MID_WIDTH });
  const def = transform(png.bytes, { width: 128 });
  add("source PNG", png.bytes.length);
  add("source WebP (lossless)", webp.bytes.length);
  add("mid PNG (256 px)", mid.bytes.length);
  add("default PNG (128 px)", def.bytes.length);
  const fromWebp = transform(webp.bytes, {});
  if (
    fromWebp.bytes.length === png.bytes.length && fromWebp.bytes.every((b, i) => b === png.bytes[i])
  ) {
    identical++;
  }
  for (const size of [64, 200]) {
    const options: TransformOptions = { width: size };
    timed(`render ${size} px from mid PNG`, () => transform(mid.bytes, options));
    timed(`render ${size} px from source PNG`, () => transform(png.bytes, options));
    timed(`render ${size} px from source WebP`, () => transform(webp.bytes, options));
  }
  timed("render 1200 px from source PNG", () => transform(png.bytes, { width: 1200 }));
  timed("render 1200 px from source WebP", () => transform(webp.bytes, { width: 1200 }));
}

console.log(
  `${files.length} logos of ${set.dir}; load average ${
    Deno.loadavg().map((n) => n.toFixed(2)).join(" ")
  }\n`,
);
console.log("| stored rendition | KB per logo |\n|---|---:|");
for (const [name, n] of Object.entries(bytes)) {
  console.log(`| ${name} | ${(n / files.length / 1000).toFixed(1)} |`);
}
console.log("\n| operation | median ms | mean ms |\n|---|---:|---:|");
for (const [name, xs] of Object.entries(times)) {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`| ${name} | ${median(xs).toFixed(2)} | ${mean.toFixed(2)} |`);
}
console.log(
  `\nWebP source decoded and re-encoded as PNG = the PNG source, byte for byte: ` +
    `${identical}/${files.length}`,
);
