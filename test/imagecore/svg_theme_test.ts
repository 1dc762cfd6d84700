/**
 * `themeSvg` through the shipped SVG WASM module: the sanitised SVG text of `format=svg`
 * recoloured for greyscale and theme (imagecore's `src/svg/recolour.rs`; the contrast over many
 * logos is measured in `imagecore/tests/svg_theme.rs`).
 */
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert";
import { ImageCoreError } from "../../imagecore/mod.ts";
import { themeSvg } from "../../imagecore/svg_theme.ts";

/** A black badge with white text, written as usvg's writer writes it. */
const BADGE = '<svg width="192" height="64" viewBox="0 0 192 64" ' +
  'xmlns="http://www.w3.org/2000/svg">\n' +
  '    <path fill="#000000" d="M 16 2 L 176 2 Q 190 2 190 16 L 190 48 Q 190 62 176 62 L 16 62 ' +
  'Q 2 62 2 48 L 2 16 Q 2 2 16 2 Z"/>\n' +
  '    <path fill="#ffffff" d="M 30 14 L 66 14 L 66 50 L 30 50 Z M 75 14 L 111 14 L 111 50 ' +
  'L 75 50 Z"/>\n</svg>\n';

/** The `fill` colours of `svg`, in order. */
function fills(svg: string): string[] {
  return [...svg.matchAll(/fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
}

Deno.test("neither option gives the text back as it came", () => {
  strictEqual(themeSvg(BADGE, { greyscale: false, theme: undefined }), BADGE);
});

Deno.test("on a dark page the black badge lightens and its white text stays white", () => {
  const [badge, text] = fills(themeSvg(BADGE, { greyscale: false, theme: "dark" }));
  ok(badge !== "#000000", badge);
  const grey = parseInt(badge.slice(1, 3), 16);
  ok(grey > 64 && grey < 128, `the least lightening that reads: ${badge}`);
  strictEqual(text, "#ffffff");
});

Deno.test("on a light page the badge reads and nothing changes", () => {
  strictEqual(themeSvg(BADGE, { greyscale: false, theme: "light" }), BADGE);
});

Deno.test("greyscale greys every colour; only colours change", () => {
  const red = BADGE.replace('fill="#000000"', 'fill="#d62828"');
  const grey = themeSvg(red, { greyscale: true, theme: undefined });
  deepStrictEqual(fills(grey), ["#4d4d4d", "#ffffff"]);
  strictEqual(grey.replace("#4d4d4d", "#d62828"), red);
});

Deno.test("a broken document and an unknown theme are refused as ImageCoreErrors", () => {
  throws(() => themeSvg("<svg", { greyscale: true, theme: undefined }), ImageCoreError);
  throws(
    () => themeSvg(BADGE, { greyscale: false, theme: "sepia" as never }),
    (e: unknown) => e instanceof ImageCoreError && e.code === "invalid_argument",
  );
});
