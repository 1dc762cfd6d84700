/**
 * Textual SVG mutations: numbers made huge, tiny, negative or NaN; elements duplicated; content
 * nested deep; snippets that cost a renderer dearly (wide blurs, self-referencing `<use>` and
 * patterns, dense dash arrays, raster images inlined as data: URIs); attributes injected; the
 * text truncated. Byte mutations of the UTF-8 are left to `mutate_bytes.ts`.
 * @module
 */
import { Buffer } from "node:buffer";
import type { Mutated } from "./mutate_bytes.ts";
import type { Rng } from "./rng.ts";

const NUMBERS = [
  "1e38",
  "3.5e38",
  "1e308",
  "-1e9",
  "-1",
  "0",
  "-0",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e-45",
  "99999999",
  "4097",
  "0.000001",
  "1e",
  "--1",
  ".",
  "1e999",
];

const ATTRIBUTES = [
  `transform="scale(1e-30)"`,
  `transform="scale(1e30)"`,
  `transform="matrix(0 0 0 0 0 0)"`,
  `transform="rotate(NaN)"`,
  `stroke-width="1e30"`,
  `stroke-dasharray="0.001 0.001"`,
  `stroke-dasharray="0 0"`,
  `filter="url(#huge)"`,
  `mask="url(#m0)"`,
  `clip-path="url(#c0)"`,
  `width="0"`,
  `height="-5"`,
  `viewBox="0 0 0 0"`,
  `viewBox="0 0 1e-30 1e-30"`,
  `viewBox="0 0 1e30 1"`,
  `opacity="NaN"`,
  `fill="url(#p0)"`,
  `x="1e38"`,
  `r="1e38"`,
  `style="fill:url(#p0);stroke-width:1e9"`,
  `preserveAspectRatio="xMidYMid slice"`,
  `href="#self"`,
  `id="self"`,
];

/** Snippets inserted before `</svg>`; `{png}` becomes a data: URI of a raster seed. */
const SNIPPETS = [
  `<defs><filter id="huge" x="-1e6" y="-1e6" width="2e6" height="2e6"><feGaussianBlur stdDeviation="1e5"/></filter></defs><rect width="10" height="10" filter="url(#huge)"/>`,
  // Regions in objectBoundingBox units over a box near f32's range (issue #30: a trap in usvg).
  `<defs><filter id="hb" x="-1e6" width="2e6" primitiveUnits="objectBoundingBox"><feFlood x="-1e6" width="2e6"/><feOffset dx="1"/></filter><mask id="mb"><rect width="9" height="9" fill="white"/></mask><pattern id="pb" width="1e6" height="1"><rect width="1" height="1"/></pattern></defs><rect width="3e38" height="10" filter="url(#hb)"/><rect width="3e38" height="10" mask="url(#mb)" fill="url(#pb)"/><g transform="scale(1e-6)"><rect width="3e38" height="1e30" style="filter:blur(2px)"/></g>`,
  `<defs><filter id="f1"><feMorphology radius="1e4"/><feConvolveMatrix order="3" kernelMatrix="1 1 1 1 1 1 1 1 1"/><feTurbulence baseFrequency="1e3" numOctaves="1000"/></filter></defs><rect width="1e4" height="1e4" filter="url(#f1)"/>`,
  `<g id="loop"><use href="#loop"/></g>`,
  `<defs><g id="a0"><use href="#a1"/><use href="#a1"/></g><g id="a1"><use href="#a2"/><use href="#a2"/></g><g id="a2"><use href="#a3"/><use href="#a3"/></g><g id="a3"><rect width="1" height="1"/></g></defs><use href="#a0"/>`,
  `<defs><pattern id="p0" width="1e-5" height="1e-5" patternUnits="userSpaceOnUse"><rect width="1" height="1" fill="url(#p0)"/></pattern></defs><rect width="100" height="100" fill="url(#p0)"/>`,
  `<defs><mask id="m0"><rect width="1e9" height="1e9" fill="white" mask="url(#m0)"/></mask><clipPath id="c0" clip-path="url(#c0)"><circle r="5"/></clipPath></defs>`,
  `<path d="M0 0 ${"L1e9 1e9 L-1e9 1e9 ".repeat(50)}Z" stroke="black" stroke-dasharray="0.0001"/>`,
  `<path d="M0,0 A1e-9 1e-9 0 1 1 1e38 1e38 Q NaN,1 2,2 C 1 2 3" />`,
  `<image width="40" height="40" href="{png}"/>`,
  `<image width="1e6" height="1e6" preserveAspectRatio="none" xlink:href="{png}"/>`,
  `<text x="0" y="10" font-size="1e9" textLength="1e9">x<tspan rotate="1 2 3">yz</tspan></text>`,
  `<style>*{filter:blur(1e5px);stroke-width:1e9}rect{mask:url(#m0)}</style>`,
  `<switch><foreignObject width="10" height="10"><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject><rect width="5" height="5"/></switch>`,
  `<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><text>&b;</text>`,
  `<linearGradient id="lg">${
    `<stop offset="0.5" stop-color="red"/>`.repeat(500)
  }</linearGradient><rect width="9" height="9" fill="url(#lg)"/>`,
];

/** A raster seed's bytes, for `<image href="data:…">`. */
export interface SvgContext {
  /** Raster images (possibly mutated) that a snippet may inline. */
  rasters: { mime: string; bytes: Uint8Array }[];
}

function elementAt(text: string, rng: Rng): [number, number] | null {
  const starts = [...text.matchAll(/<(?!\/|\?|!)[a-zA-Z]/g)].map((m) => m.index ?? 0).slice(1);
  if (starts.length === 0) return null;
  const start = rng.pick(starts);
  const tag = /^<([a-zA-Z:]+)/.exec(text.slice(start))?.[1] ?? "";
  const open = text.indexOf(">", start);
  if (open < 0) return null;
  if (text[open - 1] === "/") return [start, open + 1];
  const close = text.indexOf(`</${tag}>`, open);
  return close < 0 ? null : [start, close + tag.length + 3];
}

function insertBeforeEnd(text: string, snippet: string): string {
  const at = text.lastIndexOf("</svg>");
  return at < 0 ? text + snippet : text.slice(0, at) + snippet + text.slice(at);
}

/**
 * Largest growth of one mutation, in characters: past imagecore's 1-MiB SVG limit every input is
 * refused by its length, so growing further only costs the fuzzer time (nesting a 300-KB
 * document 5000 times once took 35 s to generate, reported as a hang).
 */
const MAX_GROWTH = 2 * 1024 * 1024;

/** `times` copies of `length` characters, fewer when that would grow past {@link MAX_GROWTH}. */
function grown(times: number, length: number): number {
  return Math.max(1, Math.min(times, Math.floor(MAX_GROWTH / Math.max(1, length))));
}

/** One textual mutation of an SVG document. */
export function mutateSvg(input: Uint8Array, context: SvgContext, rng: Rng): Mutated {
  let text = new TextDecoder().decode(input);
  let note: string;
  switch (rng.below(7)) {
    case 0: {
      const numbers = [...text.matchAll(/-?\d+(\.\d+)?(e-?\d+)?/g)];
      if (numbers.length === 0) return { bytes: input, note: "no numbers" };
      const n = rng.pick(numbers);
      const value = rng.pick(NUMBERS);
      text = text.slice(0, n.index) + value + text.slice((n.index ?? 0) + n[0].length);
      note = `number ${n[0]} @${n.index} → ${value}`;
      break;
    }
    case 1: {
      const range = elementAt(text, rng);
      if (!range) return { bytes: input, note: "no element" };
      const element = text.slice(range[0], range[1]);
      const times = grown(rng.pick([2, 10, 100, 1000, 5000]), element.length);
      text = text.slice(0, range[1]) + element.repeat(times) + text.slice(range[1]);
      note = `duplicate <${element.slice(1, 12)}… ×${times}`;
      break;
    }
    case 2: {
      let depth = rng.pick([10, 100, 256, 1000, 5000]);
      const tag = rng.pick([
        "g",
        `g transform="scale(1.01)"`,
        `svg width="1" height="1"`,
        `g opacity="0.5"`,
      ]);
      const name = tag.split(" ")[0];
      const open = text.indexOf(">", text.search(/<svg[\s>]/)) + 1;
      const end = text.lastIndexOf("</svg>");
      if (open <= 0 || end < open) return { bytes: input, note: "no root" };
      depth = grown(depth, 2 * tag.length + 5);
      text = text.slice(0, open) + `<${tag}>`.repeat(depth) + text.slice(open, end) +
        `</${name}>`.repeat(depth) + text.slice(end);
      note = `nest in <${tag}> ×${depth}`;
      break;
    }
    case 3: {
      const index = rng.below(SNIPPETS.length);
      let snippet = SNIPPETS[index];
      if (snippet.includes("{png}") && context.rasters.length) {
        const { mime, bytes } = rng.pick(context.rasters);
        snippet = snippet.replace(
          "{png}",
          `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`,
        );
      }
      text = insertBeforeEnd(text, snippet);
      note = `snippet ${index}`;
      break;
    }
    case 4: {
      const tags = [...text.matchAll(/<[a-zA-Z]+/g)];
      if (tags.length === 0) return { bytes: input, note: "no tags" };
      const tag = rng.pick(tags);
      const attribute = rng.pick(ATTRIBUTES);
      const at = (tag.index ?? 0) + tag[0].length;
      text = `${text.slice(0, at)} ${attribute}${text.slice(at)}`;
      note = `attribute ${tag[0]} ${attribute}`;
      break;
    }
    case 5: {
      const keep = rng.below(text.length);
      text = text.slice(0, keep);
      note = `truncate to ${keep} chars`;
      break;
    }
    default: {
      const words = [
        "<",
        ">",
        "&",
        "&amp;",
        "&#0;",
        "\u0000",
        "\uffff",
        '"',
        "<!--",
        "]]>",
        "<![CDATA[",
        "\u00e9",
        "\ud800",
      ];
      const at = rng.below(text.length + 1);
      const word = rng.pick(words);
      text = text.slice(0, at) + word + text.slice(at);
      note = `insert ${JSON.stringify(word)} @${at}`;
    }
  }
  return { bytes: new TextEncoder().encode(text), note };
}
