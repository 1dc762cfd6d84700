/**
 * Inputs the fuzzer (`deno task fuzz`, test/fuzz/) found, rebuilt here as tiny constructed
 * inputs: each must give a result or a typed refusal (an ImageCoreError with an input's code and
 * a "Cannot …" message) — the fuzzer's own judgement, `checkCall`. Not timed: the fuzzer measures
 * speed.
 */
import { ok } from "node:assert";
import * as imagecore from "../../imagecore/mod.ts";
import { checkCall } from "../fuzz/check_call.ts";
import type { Call } from "../fuzz/generate.ts";

const CALLS: Call[] = [
  { fn: "probe" },
  { fn: "transform", options: {} },
  { fn: "transform", options: { width: 64, format: "webp", theme: "dark" } },
];

function typedOrValid(bytes: Uint8Array, calls: Call[] = CALLS): void {
  const problems: string[] = [];
  let probed: imagecore.ProbeResult | undefined;
  for (const call of calls) {
    const { result, ...verdict } = checkCall(imagecore, call, bytes, Infinity, probed);
    if (call.fn === "probe" && verdict.outcome === "ok") probed = result as imagecore.ProbeResult;
    if (verdict.finding) {
      problems.push(`${call.fn}: ${verdict.finding.kind}: ${verdict.finding.detail}`);
    }
  }
  ok(problems.length === 0, problems.join("\n"));
}

const svg = (body: string, attributes = "") =>
  new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg" ${attributes}>${body}</svg>`);

// Seed 1, iteration 98 (mutation "nest in <g> ×1000"): usvg converts nested groups recursively;
// from a depth of 353 `<g>` (366 `<svg>`) the WASM stack overflowed, a trap ("memory access out of
// bounds") reported as `internal`. 5000 deep was already refused (`corrupt`) by the XML parser.
const NESTINGS: [string, string, number][] = [
  ["<g>", "</g>", 353],
  ["<g>", "</g>", 1000],
  ["<svg>", "</svg>", 366],
  ["<g>", "</g>", 5000],
];
for (const [open, close, depth] of NESTINGS) {
  Deno.test(`SVG: ${depth} nested ${open} give a result or a typed refusal, not a trap`, () => {
    typedOrValid(
      svg(
        `${open.repeat(depth)}<rect width="1" height="1"/>${close.repeat(depth)}`,
        `width="8" height="8"`,
      ),
    );
  });
}

// Seed 777, iteration 824 (mutations "number 1 → 3.5e38; duplicate <feOffset> ×2"): an feOffset or
// feDropShadow shift of 3e9 px or more (after scaling to the output) panicked in the filter code,
// a trap ("unreachable") reported as `internal`; 1e9 at 64 px was fine.
for (
  const primitive of [
    `<feOffset dy="3e9"/>`,
    `<feOffset dx="3.5e38"/>`,
    `<feDropShadow dy="3.5e38"/>`,
  ]
) {
  Deno.test(`SVG: filter ${primitive} gives a result or a typed refusal, not a trap`, () => {
    typedOrValid(
      svg(
        `<filter id="f">${primitive}</filter><rect width="24" height="24" filter="url(#f)"/>`,
        `width="32" height="32"`,
      ),
    );
  });
}

Deno.test("SVG: one over the work budget, transformed with no width, comes out at its own size", () => {
  // Seed 31337 iteration 6635: drawn narrower to stay in the budget, then scaled back to the
  // intrinsic width, not left at the width it was drawn at.
  const rects = '<rect width="100" height="50" fill="url(#g)"/>'.repeat(3000);
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><defs>' +
    '<linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/>' +
    `</linearGradient></defs>${rects}</svg>`;
  const bytes = new TextEncoder().encode(svg);
  typedOrValid(bytes, [{ fn: "probe" }, { fn: "transform", options: {} }]);
  const out = imagecore.transform(bytes, {});
  ok(out.width === 100, `width ${out.width}`);
});
