import assert from "node:assert/strict";
import { markupStart } from "../../imagecore/markup_start.ts";
import { encodeRgba, ImageCoreError, probe } from "../../imagecore/mod.ts";
import { firstElement } from "../../src/discovery/measure_image.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"/>`;

Deno.test("markupStart finds the < after an optional BOM and ASCII white space", () => {
  assert.equal(markupStart(encode(SVG)), 0);
  assert.equal(markupStart(encode(`\uFEFF  ${SVG}`)), 5);
  assert.equal(markupStart(encode(` \t\r\n\f${SVG}`)), 5);
  assert.equal(markupStart(encode("\uFEFF<")), 3);
});

Deno.test("markupStart refuses rasters, text, empty input and a vertical tab", () => {
  assert.equal(markupStart(encodeRgba(new Uint8Array(4), 1, 1)), -1);
  assert.equal(markupStart(new Uint8Array()), -1);
  assert.equal(markupStart(encode("   ")), -1);
  assert.equal(markupStart(encode("\uFEFF")), -1);
  assert.equal(markupStart(encode("hello <svg/>")), -1);
  assert.equal(markupStart(encode(`\v${SVG}`)), -1, "not white space to Rust either");
  assert.equal(markupStart(encode(`\uFEFF\uFEFF${SVG}`)), -1, "one BOM only");
});

/** What imagecore makes of `bytes`: "svg", "SVG refused" or the code of a non-SVG refusal. */
function imagecoreVerdict(bytes: Uint8Array): string {
  try {
    return probe(bytes).format;
  } catch (error) {
    assert.ok(error instanceof ImageCoreError, String(error));
    return error.message.includes("(SVG:") ? "SVG refused" : error.code;
  }
}

Deno.test("imagecore treats input as SVG exactly when markupStart finds markup", () => {
  const cases: [string, string][] = [
    ["", "svg"],
    ["\uFEFF", "svg"],
    [" \t\r\n", "svg"],
    ["\uFEFF\n", "svg"],
    ["\f", "SVG refused"], // sniffed as SVG (Rust's white space), refused by the XML parser
    ["\v", "unsupported_format"],
    ["\uFEFF\uFEFF", "unsupported_format"],
    ["x", "unsupported_format"],
  ];
  for (const [prefix, expected] of cases) {
    const bytes = encode(prefix + SVG);
    const label = JSON.stringify(prefix);
    assert.equal(imagecoreVerdict(bytes), expected, label);
    assert.equal(markupStart(bytes) >= 0, expected !== "unsupported_format", label);
  }
});

Deno.test("discovery's firstElement starts reading where markupStart says", () => {
  assert.equal(firstElement(encode(`\uFEFF\n<?xml version="1.0"?>${SVG}`)), "svg");
  assert.equal(firstElement(encode(" <!DOCTYPE html><html></html>")), "html");
  assert.equal(firstElement(encode(`\v${SVG}`)), undefined);
  assert.equal(firstElement(encodeRgba(new Uint8Array(4), 1, 1)), undefined);
});
