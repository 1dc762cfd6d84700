/**
 * The hostile-SVG corpus (test/support/hostile_svg.ts) through imagecore's WASM at 1200 px: each
 * input is refused with a clear `too_large` (a budget inside the renderer) or `corrupt`, or
 * rendered — never a trap (`internal`) — and the module keeps working afterwards.
 */
import { ok, strictEqual, throws } from "node:assert";
import { ImageCoreError, type ImageCoreErrorCode, probe, transform } from "../../imagecore/mod.ts";
import { hostileSvgs, svgDoc } from "../support/hostile_svg.ts";

const encoder = new TextEncoder();
/**
 * Inputs that render at 1200 px: within every budget there, or over only the pixel-work budget
 * and drawn narrower (down to a quarter), then scaled up.
 */
const RENDERS = new Set([
  "blur stdDeviation 1e6",
  "width 1e30",
  "nested patterns",
  "1000 stroked circles",
  "30 full-canvas gradients",
  "textPath of 4900 glyphs on 20 000 segments",
  "blur stdDeviation 1e5 alone",
]);
/** Inputs the XML parser refuses before any budget. */
const CORRUPT = new Set(["entity bomb"]);

const logo = encoder.encode(svgDoc(
  `<linearGradient id="g"><stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#08f"/>` +
    `</linearGradient><rect width="100" height="100" rx="8" fill="url(#g)"/>` +
    `<circle cx="50" cy="50" r="20" fill="#fff" stroke="#222" stroke-width="3"/>`,
));

function refusedWith(svg: string, code: ImageCoreErrorCode) {
  throws(() => transform(encoder.encode(svg), { width: 1200 }), (e: unknown) => {
    ok(e instanceof ImageCoreError, `threw ${e}`);
    strictEqual(e.code, code, e.message);
    if (code === "too_large") {
      ok(e.message.startsWith("Cannot render SVG: too complex ("), e.message);
    }
    return true;
  });
}

for (const { name, svg } of hostileSvgs()) {
  Deno.test(`hostile SVG "${name}" is handled without a trap`, () => {
    if (RENDERS.has(name)) {
      strictEqual(transform(encoder.encode(svg), { width: 1200 }).width, 1200);
    } else {
      refusedWith(svg, CORRUPT.has(name) ? "corrupt" : "too_large");
    }
    // The SVG module is still healthy.
    strictEqual(transform(logo, { width: 64 }).width, 64);
  });
}

Deno.test("probe refuses the fuzzed CSS blur and stroke-width 1e9 before building the tree", () => {
  const hang = hostileSvgs().find(({ name }) => name.startsWith("5000 circles, CSS blur"));
  throws(() => probe(encoder.encode(hang!.svg)), (e: unknown) => {
    ok(e instanceof ImageCoreError, `threw ${e}`);
    strictEqual(e.code, "too_large", e.message);
    ok(e.message.includes("stroke width"), e.message);
    return true;
  });
});

Deno.test("a normal logo SVG renders at 1200 and 4096 px", () => {
  for (const width of [1200, 4096]) {
    const out = transform(logo, { width });
    strictEqual(out.width, width);
    strictEqual(out.height, width);
    ok(out.bytes.length > 0);
  }
});
