/**
 * `deno run --config deno.dev.json --allow-all bench/svg_budget_bench.ts [width]`: how well the
 * SVG work budget (imagecore/src/svg/budget.rs) predicts the WASM module's time. For each costly
 * shape of SVG — full-canvas fills in each paint, strokes, thousands of small paths, clip paths,
 * masks, layers, blurs — it prints the width the budget lets it be drawn at, the units of work
 * it predicts there (from the native `svg_budget_work` example, built with cargo), the WASM
 * `transform` time (best of two, in this process) and nanoseconds per unit. A unit is meant to be
 * about a nanosecond, so that the 5 × 10^8-unit budget is about half a second. Default width 1200.
 * @module
 */
import { ImageCoreError, transform } from "../imagecore/mod.ts";

const width = Number(Deno.args[0] ?? 1200);
const NS = `xmlns="http://www.w3.org/2000/svg"`;
const doc = (body: string) => `<svg ${NS} width="100" height="100">${body}</svg>`;
const times = (n: number, make: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => make(i)).join("");
const paints = `<defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#f80"/>` +
  `<stop offset="1" stop-color="#08f"/></linearGradient><radialGradient id="r">` +
  `<stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#08f"/></radialGradient>` +
  `<pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse">` +
  `<rect width="4" height="4" fill="navy"/></pattern></defs>`;
const full = (fill: string) => `<rect width="100" height="100" fill="${fill}"/>`;
const circle = (attributes: string) => `<circle cx="50" cy="50" r="40" ${attributes}/>`;
const blur = (std: string, n: number) =>
  doc(
    `<filter id="f"><feGaussianBlur stdDeviation="${std}"/></filter>` +
      times(n, () => `<rect width="100" height="100" fill="#123" filter="url(#f)"/>`),
  );

const cases: Record<string, string> = {
  "one tiny rect (baseline)": doc(`<rect width="1" height="1"/>`),
  "100 opaque full-canvas rects": doc(times(100, () => full("#123"))),
  "100 translucent full-canvas rects": doc(
    times(100, () => `<rect width="100" height="100" fill="#123" fill-opacity="0.5"/>`),
  ),
  "30 linear-gradient rects": doc(paints + times(30, () => full("url(#g)"))),
  "30 radial-gradient rects": doc(paints + times(30, () => full("url(#r)"))),
  "30 pattern rects": doc(paints + times(30, () => full("url(#p)"))),
  "200 filled circles": doc(times(200, () => circle(`fill="#e84"`))),
  "200 stroked circles": doc(
    times(200, () => circle(`fill="none" stroke="#e84" stroke-width="6"`)),
  ),
  "5000 tiny circles": doc(
    times(5000, (i) => `<circle cx="${i % 100}" cy="${(i * 7) % 100}" r="0.5" fill="#e84"/>`),
  ),
  "clip path of 200 circles": doc(
    `<clipPath id="c">${times(200, () => circle(""))}</clipPath>` +
      `<rect width="100" height="100" fill="#123" clip-path="url(#c)"/>`,
  ),
  "mask of 200 circles": doc(
    `<mask id="m">${times(200, () => circle(`fill="white"`))}</mask>` +
      `<rect width="100" height="100" fill="#123" mask="url(#m)"/>`,
  ),
  "50 translucent groups": doc(times(50, () => `<g opacity="0.5">${full("#123")}</g>`)),
  "blur stdDeviation 1e6": blur("1e6", 1),
  "4 blurs stdDeviation 2": blur("2", 4),
};

const dir = await Deno.makeTempDir({ prefix: "svg-budget-bench-" });
const files = Object.entries(cases).map(([name, svg], i) => {
  const path = `${dir}/${i}.svg`;
  Deno.writeTextFileSync(path, svg);
  return { name, path, svg };
});

/** Predicted work and drawn width per file, from the native example (empty without cargo). */
async function predictions(): Promise<Map<string, string[]>> {
  const command = new Deno.Command("cargo", {
    args: [
      "run",
      "-q",
      "--release",
      "--manifest-path",
      new URL("../imagecore/Cargo.toml", import.meta.url).pathname,
      "--example",
      "svg_budget_work",
      "--features",
      "svg",
      "--",
      String(width),
      ...files.map((f) => f.path),
    ],
    stderr: "inherit",
  });
  try {
    const { stdout } = await command.output();
    const lines = new TextDecoder().decode(stdout).trim().split("\n");
    return new Map(lines.map((line) => line.split("\t")).map(([path, ...rest]) => [path, rest]));
  } catch {
    console.log("(cargo not found: no predictions)");
    return new Map();
  }
}

const predicted = await predictions();
console.log(`SVG work budget against WASM time at ${width} px`);
console.log(
  `${"input".padEnd(36)} ${"drawn".padStart(6)} ${"units".padStart(8)} ${
    "ms".padStart(7)
  }  ns/unit`,
);
for (const { name, path, svg } of files) {
  const bytes = new TextEncoder().encode(svg);
  let best = Infinity;
  let outcome = "ok";
  for (let run = 0; run < 2; run++) {
    const start = performance.now();
    try {
      transform(bytes, { width });
    } catch (error) {
      outcome = error instanceof ImageCoreError ? error.code : String(error);
    }
    best = Math.min(best, performance.now() - start);
  }
  const [work, drawn] = predicted.get(path) ?? [];
  const units = Number(work);
  const perUnit = Number.isFinite(units) && units > 0 ? (best * 1e6 / units).toFixed(2) : "-";
  console.log(
    `${name.padEnd(36)} ${(drawn ?? "-").padStart(6)} ${
      (Number.isFinite(units) ? `${(units / 1e6).toFixed(0)}M` : "over").padStart(8)
    } ${best.toFixed(0).padStart(7)}  ${perUnit} ${outcome === "ok" ? "" : outcome}`,
  );
}
await Deno.remove(dir, { recursive: true });
