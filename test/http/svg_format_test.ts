/**
 * `format=svg`: a logo stored from an SVG answers its sanitised SVG as stored (sized by `width`
 * and `height`, `viewBox` kept) with `Content-Type: image/svg+xml`, `nosniff`, a script-forbidding
 * `Content-Security-Policy`, a strong ETag (304, HEAD), caching and CORS as every image; a logo
 * with no SVG answers its PNG marked `X-Logo-Fallback: png`, as does a monogram tile (marked
 * `monogram, png`); a bad value is a 400.
 */
import assert from "node:assert/strict";
import { flatImage, pixelsOf } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";
import { SVG_CONTENT_SECURITY_POLICY } from "../../src/http/respond.ts";
import { SVG_RENDITION } from "../../src/store/logo_ingest.ts";
import { createRenderer } from "../../src/http/render_variant.ts";
import { DEFAULT_OPTIONS } from "../../src/http/request_options.ts";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { sanitizeSvg, themeSvg } from "../../imagecore/mod.ts";

const decoder = new TextDecoder();
const LOGO_SVG = new TextEncoder().encode(
  `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 20 10" ` +
    `onload="alert(1)"><script>alert(2)</script><rect width="20" height="10" rx="2" fill="#2e7d32"/>` +
    `<circle cx="5" cy="5" r="3" fill="#fff"/></svg>`,
);

/** The root start tag of an SVG body. */
function root(body: Uint8Array): string {
  const text = decoder.decode(body);
  return text.slice(0, text.indexOf(">") + 1);
}

Deno.test("format=svg answers the stored sanitised SVG with its headers, sized as asked", async () => {
  await using server = await startTestApp();
  const record = await server.addLogo("svg.example", LOGO_SVG);
  const svg = record.renditions[SVG_RENDITION];
  assert.ok(svg !== undefined, "ingest stored a sanitised SVG");
  assert.deepEqual([svg.type, svg.width, svg.height], ["image/svg+xml", 200, 100]);
  const answer = await server.exchange(server.logoUrl("svg.example", { format: "svg" }));
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get("content-type"), "image/svg+xml");
  assert.equal(answer.headers.get("x-content-type-options"), "nosniff");
  assert.equal(answer.headers.get("content-security-policy"), SVG_CONTENT_SECURITY_POLICY);
  assert.match(SVG_CONTENT_SECURITY_POLICY, /default-src 'none'/);
  assert.match(SVG_CONTENT_SECURITY_POLICY, /sandbox/);
  assert.doesNotMatch(SVG_CONTENT_SECURITY_POLICY, /script-src|allow-scripts/);
  assert.equal(answer.headers.get("x-logo-fallback"), null);
  assert.equal(answer.headers.get("cache-control"), "public, max-age=86400, s-maxage=300");
  assert.equal(answer.headers.get("access-control-allow-origin"), "*");
  assert.deepEqual(
    [answer.headers.get("x-logo-width"), answer.headers.get("x-logo-height")],
    ["128", "64"],
  );
  // usvg's tree is in the source's size: its viewBox is written as that size, the 0 0 20 10 of the
  // source being a transform inside.
  assert.ok(root(answer.bytes).startsWith(`<svg viewBox="0 0 200 100" width="128" height="64"`));
  const text = decoder.decode(answer.bytes);
  assert.doesNotMatch(text, /script|onload|alert/);
  // The stored document itself, but for the root's width and height.
  const stored = (await server.logos.readRendition(svg))!;
  assert.equal(
    text.slice(root(answer.bytes).length),
    decoder.decode(stored).slice(root(stored).length),
  );
  const wide = await server.exchange(server.logoUrl("svg.example", { format: "svg", size: "500" }));
  assert.ok(root(wide.bytes).includes(`width="500" height="250"`), root(wide.bytes));
  assert.equal(wide.headers.get("x-logo-width"), "500");
  assert.notEqual(wide.headers.get("etag"), answer.headers.get("etag"));
});

Deno.test("format=svg: ETag, 304 and HEAD as every image; the PNG keeps its own ETag", async () => {
  await using server = await startTestApp();
  await server.addLogo("svg.example", LOGO_SVG);
  const url = server.logoUrl("svg.example", { format: "svg", size: "64" });
  const first = await server.exchange(url);
  const etag = first.headers.get("etag")!;
  assert.match(etag, /^"v\d+-[0-9a-f]{32}-64-svg"$/);
  const again = await server.exchange(url, { headers: { "if-none-match": etag } });
  assert.equal(again.status, 304);
  assert.equal(again.headers.get("etag"), etag);
  assert.equal(again.bytes.length, 0);
  const head = await server.exchange(url, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.bytes.length, 0);
  assert.equal(head.headers.get("content-length"), String(first.bytes.length));
  assert.equal(head.headers.get("content-security-policy"), SVG_CONTENT_SECURITY_POLICY);
  const png = await server.exchange(server.logoUrl("svg.example", { size: "64" }));
  assert.equal(png.headers.get("content-type"), "image/png");
  assert.equal(png.headers.get("content-security-policy"), null);
  assert.notEqual(png.headers.get("etag"), etag);
});

Deno.test("format=svg of a raster logo answers its PNG, marked png, on the 200 and its 304", async () => {
  await using server = await startTestApp();
  const record = await server.addLogo("raster.example", flatImage(120, 60, [200, 0, 0, 255]));
  assert.equal(record.renditions[SVG_RENDITION], undefined, "no SVG is made from a raster");
  const url = server.logoUrl("raster.example", { format: "svg", size: "64" });
  const answer = await server.exchange(url);
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get("content-type"), "image/png");
  assert.equal(answer.headers.get("x-logo-fallback"), "png");
  assert.equal(answer.headers.get("cache-control"), "public, max-age=86400, s-maxage=300");
  const image = await pixelsOf(answer.bytes);
  assert.deepEqual([image.width, image.height], [64, 32]);
  const png = await server.exchange(server.logoUrl("raster.example", { size: "64" }));
  assert.deepEqual(answer.bytes, png.bytes, "the PNG of the same options");
  assert.equal(png.headers.get("x-logo-fallback"), null);
  assert.notEqual(answer.headers.get("etag"), png.headers.get("etag"));
  const revalidated = await server.exchange(url, {
    headers: { "if-none-match": answer.headers.get("etag")! },
  });
  assert.equal(revalidated.status, 304);
  assert.equal(revalidated.headers.get("x-logo-fallback"), "png");
  // The default size too, from the stored default rendition.
  const small = await server.exchange(server.logoUrl("raster.example", { format: "svg" }));
  assert.equal(small.headers.get("x-logo-fallback"), "png");
  assert.deepEqual(small.bytes, (await server.exchange(server.logoUrl("raster.example"))).bytes);
});

Deno.test("format=svg with fallback=monogram and no logo: the PNG tile, marked monogram, png", async () => {
  await using server = await startTestApp();
  const tile = await server.exchange(
    server.logoUrl("nothing.example", { format: "svg", fallback: "monogram" }),
  );
  assert.equal(tile.status, 200, tile.text);
  assert.equal(tile.headers.get("content-type"), "image/png");
  assert.equal(tile.headers.get("x-logo-fallback"), "monogram, png");
  assert.equal(tile.headers.get("cache-control"), "public, max-age=3600, s-maxage=300");
  const missing = await server.exchange(server.logoUrl("nothing.example", { format: "svg" }));
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get("x-logo-fallback"), null);
});

Deno.test("format=svg: spellings, a bad format and a bad size with svg are 400s", async () => {
  await using server = await startTestApp();
  await server.addLogo("svg.example", LOGO_SVG);
  const upper = await server.exchange(server.logoUrl("svg.example", { format: "SVG" }));
  assert.equal(upper.headers.get("content-type"), "image/svg+xml");
  for (
    const [params, message] of [
      [{ format: "svgz" }, "Invalid format: must be png, webp, jpeg or svg"],
      [
        { format: "svg", size: "0" },
        "Invalid size: must be a whole number of pixels from 1 to 800",
      ],
    ] as const
  ) {
    const bad = await server.exchange(server.logoUrl("svg.example", params));
    assert.equal(bad.status, 400);
    assert.equal(bad.text, message);
  }
});

Deno.test("format=svg with greyscale or theme: recoloured by themeSvg, else the PNG marked png", async () => {
  await using server = await startTestApp();
  const record = await server.addLogo("svg.example", LOGO_SVG);
  const options = { ...DEFAULT_OPTIONS, format: "svg", theme: "dark" } as const;
  const seen: unknown[] = [];
  const themed = createRenderer({
    logos: server.logos,
    themeSvg: (svg, asked) => {
      seen.push(asked);
      return svg.replaceAll("#2e7d32", "#81c784");
    },
  });
  assert.equal(themed.plan(record, options).substitution, undefined);
  const variant = await themed.render(themed.plan(record, options));
  assert.ok("bytes" in variant, "a rendered variant, not a default answer");
  assert.equal(variant.contentType, "image/svg+xml");
  assert.deepEqual(seen, [{ greyscale: false, theme: "dark" }]);
  const text = decoder.decode(variant.bytes);
  assert.ok(text.includes("#81c784") && !text.includes("#2e7d32"), "recoloured");
  assert.ok(root(variant.bytes).includes(`width="128" height="64"`), "then sized");
  const plain = await themed.render(themed.plan(record, { ...options, theme: undefined }));
  assert.notEqual(variant.etag, plain.etag);
  assert.equal(seen.length, 1, "no recolouring without greyscale or theme");

  const without = createRenderer({ logos: server.logos });
  assert.equal(without.plan(record, options).substitution, "png");
  const png = await without.render(without.plan(record, options));
  assert.equal(png.contentType, "image/png");
  assert.notEqual(png.etag, variant.etag);
  // Through the app, with imagecore's themeSvg: the SVG recoloured for a dark page, the green
  // tile lighter; with greyscale, no colour left.
  const dark = await server.exchange(
    server.logoUrl("svg.example", { format: "svg", theme: "dark" }),
  );
  assert.equal(dark.headers.get("content-type"), "image/svg+xml");
  assert.equal(dark.headers.get("x-logo-fallback"), null);
  const darkText = decoder.decode(dark.bytes);
  assert.ok(!darkText.includes("#1b5e20"), "the dark green mark was recoloured for a dark page");
  const kept = await server.exchange(
    server.logoUrl("svg.example", { format: "svg", theme: "dark" }),
  );
  assert.ok(decoder.decode(kept.bytes).includes("#2e7d32"), "a tile that reads keeps its colour");
  assert.ok(root(dark.bytes).includes(`width="128" height="64"`));
  const grey = await server.exchange(
    server.logoUrl("svg.example", { format: "svg", greyscale: "1" }),
  );
  assert.equal(grey.headers.get("content-type"), "image/svg+xml");
  for (
    const [, r, g, b] of decoder.decode(grey.bytes).matchAll(
      /#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})\b/gi,
    )
  ) {
    assert.ok(r === g && g === b, `grey: #${r}${g}${b}`);
  }
  assert.notEqual(grey.headers.get("etag"), dark.headers.get("etag"));
  // An app built without it: the PNG of the same options, marked.
  await using bare = await startTestApp({ app: { themeSvg: null } });
  await bare.addLogo("svg.example", LOGO_SVG);
  const answer = await bare.exchange(
    bare.logoUrl("svg.example", { format: "svg", greyscale: "true" }),
  );
  assert.equal(answer.headers.get("content-type"), "image/png");
  assert.equal(answer.headers.get("x-logo-fallback"), "png");
});

Deno.test("format=svg recolouring runs in the render pool's worker, once per logo and colours", async () => {
  await using pool = startImagePool({ size: 1 });
  let calls = 0;
  const imaging = {
    probe: pool.probe,
    transform: pool.transform,
    renditions: pool.renditions,
    themeSvg: (...args: Parameters<typeof pool.themeSvg>) => (calls++, pool.themeSvg(...args)),
  };
  await using server = await startTestApp({ app: { imaging } });
  const svg = new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10" fill="#1b5e20"/></svg>`,
  );
  await server.addLogo("dark.example", svg);
  const answers = [];
  for (const size of ["64", "300", "64"]) {
    answers.push(
      await server.exchange(server.logoUrl("dark.example", { format: "svg", theme: "dark", size })),
    );
  }
  assert.equal(calls, 1, "one recolouring for every size");
  const inProcess = themeSvg(decoder.decode(sanitizeSvg(svg).bytes), {
    greyscale: false,
    theme: "dark",
  });
  const body = decoder.decode(answers[1].bytes);
  assert.equal(
    body.slice(root(answers[1].bytes).length),
    inProcess.slice(inProcess.indexOf(">") + 1),
  );
  assert.ok(root(answers[1].bytes).includes(`width="300" height="150"`));
});

Deno.test("format=svg of an SVG wordmark (type=logo) answers its sanitised SVG", async () => {
  await using server = await startTestApp();
  const wordmark = new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50"><rect width="200" height="50" fill="#1e88e5"/><script>alert(1)</script></svg>`,
  );
  const { record } = await server.logos.put("svg.example", wordmark, {
    source: "test",
    type: "logo",
  });
  assert.deepEqual(
    [record.renditions[SVG_RENDITION]?.width, record.renditions[SVG_RENDITION]?.height],
    [200, 50],
  );
  server.app.forgetLogo("svg.example");
  const answer = await server.exchange(
    server.logoUrl("svg.example", { type: "logo", format: "svg", size: "400" }),
  );
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get("content-type"), "image/svg+xml");
  assert.equal(answer.headers.get("x-logo-fallback"), null);
  assert.ok(root(answer.bytes).includes(`width="400" height="100"`));
  assert.doesNotMatch(decoder.decode(answer.bytes), /script/);
  // No wordmark for another domain with an icon only: the icon's PNG, marked icon and png.
  await server.addLogo("png.example", flatImage(40, 40, [0, 0, 0, 255]));
  const icon = await server.exchange(
    server.logoUrl("png.example", { type: "logo", format: "svg" }),
  );
  assert.equal(icon.headers.get("x-logo-fallback"), "icon, png");
});
