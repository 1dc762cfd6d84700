/**
 * The hostile-SVG corpus, built by code from the descriptions in issue #9: each entry is an SVG
 * that once panicked, hung or blew memory in the SVG module. Shared by
 * `test/imagecore/imagecore_svg_hostile_test.ts` (each is refused or rendered, never a trap) and
 * `bench/svg_hostile_bench.ts` (time and memory of each).
 *
 * @example
 * ```ts
 * import { hostileSvgs } from "./hostile_svg.ts";
 * for (const { name, svg } of hostileSvgs()) console.log(name, svg.length);
 * ```
 * @module
 */

/** One hostile input. */
export interface HostileSvg {
  /** Short name, used in test and bench output. */
  name: string;
  /** The document. */
  svg: string;
}

const NS = `xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"`;

/** Wraps `body` in an `<svg>` root of `size`×`size` user units. */
export function svgDoc(body: string, size = 100, extra = ""): string {
  return `<svg ${NS} width="${size}" height="${size}" ${extra}>${body}</svg>`;
}

/** `levels` levels of `<use>`, each referencing the previous one `fanOut` times. */
export function useBomb(levels: number, fanOut: number): string {
  let defs = `<rect id="l0" width="10" height="10"/>`;
  for (let i = 1; i <= levels; i++) {
    defs += `<g id="l${i}">${`<use href="#l${i - 1}"/>`.repeat(fanOut)}</g>`;
  }
  return svgDoc(`<defs>${defs}</defs><use href="#l${levels}"/>`);
}

/** The classic billion laughs, with internal entities inside the doctype. */
export function entityBomb(): string {
  let entities = `<!ENTITY e0 "<rect width='1' height='1'/>">`;
  for (let i = 1; i <= 9; i++) entities += `<!ENTITY e${i} "${`&e${i - 1};`.repeat(10)}">`;
  return `<?xml version="1.0"?><!DOCTYPE svg [${entities}]>${svgDoc("&e9;")}`;
}

/** A path of `segments` line segments zig-zagging across a 100-unit box. */
export function longPath(segments: number, attributes = `fill="#123"`): string {
  const parts = ["M0 0"];
  for (let i = 0; i < segments; i++) parts.push(`L${i % 100} ${(i * 7) % 100}`);
  return `<path d="${parts.join("")}" ${attributes}/>`;
}

/** `depth` nested groups around one rect; `attributes` on every group. */
export function nestedGroups(depth: number, attributes = ""): string {
  return svgDoc(
    `<g ${attributes}>`.repeat(depth) + `<rect width="100" height="100"/>` + "</g>".repeat(depth),
  );
}

/** Every hostile input of the corpus. */
export function hostileSvgs(): HostileSvg[] {
  const blur = (std: string, region = "") =>
    svgDoc(
      `<filter id="f" ${region}><feGaussianBlur stdDeviation="${std}"/></filter>` +
        `<rect width="100" height="100" fill="#08f" filter="url(#f)"/>`,
    );
  const bigRegion = `filterUnits="userSpaceOnUse" x="-1e7" y="-1e7" width="2e7" height="2e7"`;
  return [
    { name: "use bomb 10^8", svg: useBomb(8, 10) },
    { name: "use bomb 2^30", svg: useBomb(30, 2) },
    { name: "entity bomb", svg: entityBomb() },
    {
      name: "35 000 rects",
      svg: svgDoc(`<rect width="1" height="1"/>`.repeat(35_000)),
    },
    {
      name: "20 000 full-canvas rects",
      svg: svgDoc(`<rect width="100" height="100"/>`.repeat(19_000)),
    },
    {
      name: "stroke-width 1e30 path",
      svg: svgDoc(`<path d="M10 10 L90 90" stroke="#000" stroke-width="1e30"/>`),
    },
    {
      name: "stroke-width 1e30 round rect",
      svg: svgDoc(
        `<rect x="10" y="10" width="80" height="80" rx="5" fill="none" stroke="#000" ` +
          `stroke-width="1e30" stroke-linejoin="round" stroke-dasharray="5 5"/>`,
      ),
    },
    {
      name: "stroke-width 1e30 circle",
      svg: svgDoc(`<circle cx="50" cy="50" r="40" stroke="#000" stroke-width="1e30"/>`),
    },
    {
      name: "stroke 1e-30 scaled 1e30",
      svg: svgDoc(
        `<g transform="scale(1e30)"><path d="M0 0 L1e-28 1e-28" stroke="#000" ` +
          `stroke-width="1e-29"/></g>`,
      ),
    },
    { name: "blur stdDeviation 1e6", svg: blur("1e6") },
    { name: "blur stdDeviation 1e6 huge region", svg: blur("1e6", bigRegion) },
    { name: "blur 50 huge region", svg: blur("50", bigRegion) },
    {
      name: "32 chained blurs",
      svg: svgDoc(
        `<filter id="f" ${bigRegion}>` +
          `<feGaussianBlur stdDeviation="300"/>`.repeat(32) +
          `</filter><rect width="100" height="100" filter="url(#f)"/>`,
      ),
    },
    {
      name: "morphology radius 1e4",
      svg: svgDoc(
        `<filter id="f"><feMorphology operator="dilate" radius="10000"/></filter>` +
          `<rect width="100" height="100" filter="url(#f)"/>`,
      ),
    },
    {
      name: "convolve order 300",
      svg: svgDoc(
        `<filter id="f"><feConvolveMatrix order="300" kernelMatrix="${"1 ".repeat(90_000)}"/>` +
          `</filter><rect width="100" height="100" filter="url(#f)"/>`,
      ),
    },
    {
      name: "turbulence 1e6 octaves",
      svg: svgDoc(
        `<filter id="f"><feTurbulence baseFrequency="0.05" numOctaves="1000000"/></filter>` +
          `<rect width="100" height="100" filter="url(#f)"/>`,
      ),
    },
    {
      name: "1000 filtered rects",
      svg: svgDoc(
        `<filter id="f"><feGaussianBlur stdDeviation="5"/></filter>` +
          `<rect width="100" height="100" filter="url(#f)"/>`.repeat(1000),
      ),
    },
    ...[
      `<feOffset dy="3e9"/>`,
      `<feOffset dx="3.5e38"/>`,
      `<feDropShadow dy="3.5e38"/>`,
      `<feDisplacementMap in2="SourceGraphic" scale="3e9"/>`,
      `<feDiffuseLighting><fePointLight x="3e9" y="3e9" z="3e9"/></feDiffuseLighting>`,
      `<feConvolveMatrix order="1e7"/>`,
    ].map((primitive) => ({
      name: `filter ${primitive}`,
      svg: svgDoc(
        `<filter id="f">${primitive}</filter><rect width="24" height="24" filter="url(#f)"/>`,
      ),
    })),
    {
      name: "10 circles stroke-width 1e9",
      svg: svgDoc(`<circle cx="50" cy="50" r="40" stroke="#000" stroke-width="1e9"/>`.repeat(10)),
    },
    {
      // deno task fuzz, seed 2024, iteration 7182: `probe` hung in usvg's tree building.
      name: "5000 circles, CSS blur and stroke-width 1e9 on every element",
      svg: svgDoc(
        `<circle cx="34" cy="16" r="10" fill="none" stroke="#e8453c" stroke-width="3"/>`
          .repeat(5000) +
          `<style>*{filter:blur(1e5px);stroke-width:1e9}rect{mask:url(#m0)}</style>`,
      ),
    },
    {
      // deno task fuzz, seed 2024, iteration 325: 6.1 s at 800 px, each clip child a full pass.
      name: "clip path of 5000 circles",
      svg: svgDoc(
        `<clipPath id="c">${`<circle cx="16" cy="16" r="14"/>`.repeat(5000)}</clipPath>` +
          `<rect width="64" height="32" fill="navy" clip-path="url(#c)"/>`,
      ),
    },
    {
      // deno task fuzz, seed 2024, iteration 7736: over 10 s at 800 px.
      name: "5000 gradient-filled rects",
      svg: svgDoc(
        `<linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#1a73e8"/>` +
          `<stop offset="1" stop-color="#34a853"/></linearGradient>` +
          `<rect width="100" height="25" fill="url(#g)"/>`.repeat(5000),
      ),
    },
    { name: "path of 150 000 segments", svg: svgDoc(longPath(150_000)) },
    {
      name: "stroked path of 100 000 segments",
      svg: svgDoc(longPath(100_000, `fill="none" stroke="#000" stroke-width="3"`)),
    },
    { name: "1000 nested groups", svg: nestedGroups(1000) },
    { name: "1000 nested translucent groups", svg: nestedGroups(1000, `opacity="0.9"`) },
    {
      name: "5000 translucent groups",
      svg: svgDoc(`<g opacity="0.5"><rect width="100" height="100"/></g>`.repeat(5000)),
    },
    {
      name: "viewBox 1e-30 wide",
      svg: `<svg ${NS} viewBox="0 0 1e-30 1"><rect width="1" height="1"/></svg>`,
    },
    {
      name: "width 1e30",
      svg: `<svg ${NS} width="1e30" height="1"><rect width="1" height="1"/></svg>`,
    },
    {
      name: "coordinates 1e30",
      svg: svgDoc(`<path d="M-1e30 -1e30 L1e30 1e30 L1e30 -1e30 Z" stroke="#000"/>`),
    },
    {
      name: "nested patterns",
      svg: svgDoc(
        Array.from(
          { length: 8 },
          (_, i) =>
            `<pattern id="p${i}" patternUnits="userSpaceOnUse" width="${0.5 + i}" ` +
            `height="${0.5 + i}"><rect width="0.4" height="0.4" ` +
            `fill="${i ? `url(#p${i - 1})` : "#000"}"/></pattern>`,
        ).join("") + `<rect width="100" height="100" fill="url(#p7)"/>`,
      ),
    },
    {
      name: "pattern scaled 1e6",
      svg: svgDoc(
        `<pattern id="p" patternUnits="userSpaceOnUse" width="10" height="10" ` +
          `patternTransform="scale(1e6)"><circle cx="5" cy="5" r="4"/></pattern>` +
          `<rect width="100" height="100" fill="url(#p)"/>`,
      ),
    },
    {
      name: "markers on 50 000 vertices",
      svg: svgDoc(
        `<marker id="m" markerWidth="10" markerHeight="10">` +
          `<circle cx="5" cy="5" r="4"/>`.repeat(200) + `</marker>` +
          longPath(50_000, `fill="none" stroke="#000" marker-mid="url(#m)"`),
      ),
    },
    {
      // deno task fuzz, seed 2024, iteration 744: 1.8 s at 1200 px before the work weights were
      // measured in WASM; now drawn narrower within the budget and scaled up.
      name: "1000 stroked circles",
      svg: `<svg ${NS} width="48" height="32" viewBox="0 0 48 32">` +
        `<circle cx="34" cy="16" r="10" fill="none" stroke="#e8453c" stroke-width="3"/>`
          .repeat(1000) +
        `</svg>`,
    },
    {
      name: "30 full-canvas gradients",
      svg: svgDoc(
        `<linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#f80"/>` +
          `<stop offset="1" stop-color="#08f"/></linearGradient>` +
          `<rect width="100" height="100" fill="url(#g)"/>`.repeat(30),
      ),
    },
    {
      // usvg unwrapped the infinite f32 as a positive frequency: a trap.
      name: "turbulence baseFrequency 3.5e38",
      svg: svgDoc(
        `<filter id="f"><feTurbulence baseFrequency="3.5e38" seed="-3.5e38"/></filter>` +
          `<rect width="100" height="100" filter="url(#f)"/>`,
      ),
    },
    {
      // usvg unwrapped the radius times the element's box as finite: a trap.
      name: "morphology radius 1e6 of a 1e36 box",
      svg: svgDoc(
        `<filter id="f" primitiveUnits="objectBoundingBox"><feMorphology radius="1e6"/>` +
          `</filter><rect width="1e36" height="1e36" filter="url(#f)"/>`,
      ),
    },
    {
      // usvg matches every rule against every element: 2.3 s to probe.
      name: "3000 style rules over 15 000 elements",
      svg: svgDoc(
        `<style>${Array.from({ length: 3000 }, (_, i) => `.c${i}{fill:#333}`).join("")}</style>` +
          `<rect class="a" width="1" height="1"/>`.repeat(15_000),
      ),
    },
    {
      name: "nested SVG image used 2000 times",
      svg: svgDoc(
        `<defs><image id="i" width="100" height="100" href="data:image/svg+xml;base64,${
          btoa(svgDoc(`<rect width="1" height="1"/>`.repeat(15_000)))
        }"/></defs>` + `<use href="#i"/>`.repeat(2000),
      ),
    },
    // Issue #30, defect 6: regions in objectBoundingBox units over a huge box overflowed f32 in
    // usvg (tiny-skia-path's bbox_transform unwrapped the product): a trap while parsing.
    {
      name: "issue 30: filter region 2e6 over a 1e38 rect, blur 1e5",
      svg: `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><filter id="h" ` +
        `x="-1e6" y="-1e6" width="2e6" height="2e6"><feGaussianBlur stdDeviation="1e5"/>` +
        `</filter><rect width="1e38" height="10" filter="url(#h)"/></svg>`,
    },
    { name: "blur stdDeviation 1e5 alone", svg: blur("1e5") },
    { name: "blur stdDeviation 1e9 alone", svg: blur("1e9") },
    {
      name: "filter region 2e6 alone",
      svg: blur("1", `x="-1e6" y="-1e6" width="2e6" height="2e6"`),
    },
    ...[
      [`offset, default region`, `<filter id="f"><feOffset dx="1"/></filter>`, `filter="url(#f)"`],
      [
        `flood and arithmetic composite`,
        `<filter id="f" width="10"><feFlood result="a"/>` +
        `<feComposite in="SourceGraphic" in2="a" operator="arithmetic" k1="1" k2="1"/></filter>`,
        `filter="url(#f)"`,
      ],
      [
        `subregion in bbox units`,
        `<filter id="f" primitiveUnits="objectBoundingBox"><feFlood x="-1e6" width="2e6"/>` +
        `</filter>`,
        `filter="url(#f)"`,
      ],
      [`CSS blur`, ``, `style="filter:blur(2px)"`],
      [
        `default mask region`,
        `<mask id="m"><rect width="10" height="10" fill="white"/></mask>`,
        `mask="url(#m)"`,
      ],
      [
        `pattern tile 1e6`,
        `<pattern id="p" width="1e6" height="1"><rect width="1" height="1"/></pattern>`,
        `fill="url(#p)"`,
      ],
    ].map(([what, defs, use]) => ({
      name: `3e38 rect, ${what}`,
      svg: svgDoc(`${defs}<rect width="3e38" height="10" ${use}/>`),
    })),
    {
      name: "1e37 box from a child's transform, filter region 10",
      svg: svgDoc(
        `<filter id="f" width="10"><feOffset dx="1"/></filter><g filter="url(#f)">` +
          `<rect transform="scale(1e37)" width="10" height="10"/></g>`,
      ),
    },
    {
      // Not an overflow: tiny-skia panicked filling a mask region this far out.
      name: "mask region of 1e30 user units",
      svg: svgDoc(
        `<mask id="m" maskUnits="userSpaceOnUse" x="-1e30" y="-1e30" width="2e30" height="2e30">` +
          `<rect width="10" height="10" fill="white"/></mask>` +
          `<rect width="60" height="10" mask="url(#m)"/>`,
      ),
    },
    {
      // The region overflows f32 in user space: refused however small it would be drawn.
      name: "filter region 2e6 over a 6e37 rect scaled 1e-36",
      svg: svgDoc(
        `<filter id="f" x="-1e6" y="-1e6" width="2e6" height="2e6"><feOffset dx="1"/></filter>` +
          `<g transform="scale(1e-6)">`.repeat(6) +
          `<rect width="6e37" height="3e37" filter="url(#f)"/>` + "</g>".repeat(6),
      ),
    },
    // Issue #14: text is drawn with the bundled font, so glyphs are work too.
    { name: "a million glyphs", svg: svgDoc(`<text y="50">${"W".repeat(1_000_000)}</text>`) },
    {
      name: "4900 overlapping 100-unit glyphs",
      svg: svgDoc(
        `<text y="90" font-size="100" letter-spacing="-60">${"W".repeat(4900)}</text>`,
      ),
    },
    {
      name: "textPath of 4900 glyphs on 20 000 segments",
      svg: svgDoc(
        `<defs><path id="p" d="M0 50${
          Array.from({ length: 20_000 }, (_, i) => ` L${i % 100} ${(i * 7) % 100}`).join("")
        }"/></defs><text font-size="3"><textPath href="#p">${"x".repeat(4900)}</textPath></text>`,
      ),
    },
    {
      name: "font-size 1e30 with letter-spacing 1e38",
      svg: svgDoc(`<text y="50" font-size="1e30" letter-spacing="1e38">W W</text>`),
    },
  ];
}
