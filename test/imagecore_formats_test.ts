import { deepStrictEqual, strictEqual } from "node:assert";
import { probe, transform } from "../imagecore/mod.ts";
import {
  bmp24,
  bytesOf,
  discPixels,
  fromPixels,
  icoOf,
  pixelAt,
  pixelsOf,
  type Rgba,
} from "./support/images.ts";

const GREEN: Rgba = [20, 160, 60, 255];
const W = 48, H = 32;
const logo = discPixels(W, H, GREEN, [0, 0, 0, 0]);

async function assertDecodes(bytes: Uint8Array, format: string, centre: Rgba, tolerance = 0) {
  deepStrictEqual(probe(bytes), { format, width: W, height: H });
  const out = transform(bytes);
  strictEqual(out.width, W);
  strictEqual(out.height, H);
  const got = pixelAt(await pixelsOf(out.bytes), W / 2, H / 2);
  for (let c = 0; c < 4; c++) {
    if (Math.abs(got[c] - centre[c]) > tolerance) {
      throw new Error(`${format}: centre ${got} is not ${centre} ± ${tolerance}`);
    }
  }
}

Deno.test("PNG RGBA 8-bit decodes", async () => {
  await assertDecodes(await bytesOf(fromPixels(logo, W, H).png()), "png", GREEN);
});

Deno.test("PNG 16-bit decodes", async () => {
  const png16 = await bytesOf(fromPixels(logo, W, H).toColourspace("rgb16").png());
  await assertDecodes(png16, "png", GREEN, 1);
});

Deno.test("PNG interlaced (Adam7) decodes", async () => {
  await assertDecodes(
    await bytesOf(fromPixels(logo, W, H).png({ progressive: true })),
    "png",
    GREEN,
  );
});

Deno.test("PNG palette decodes", async () => {
  const palette = await bytesOf(fromPixels(logo, W, H).png({ palette: true, dither: 0 }));
  await assertDecodes(palette, "png", GREEN, 2);
});

Deno.test("PNG grey without alpha decodes", async () => {
  const grey = await bytesOf(fromPixels(logo, W, H).removeAlpha().greyscale().png());
  const luma = (await pixelsOf(grey)).data[((H / 2) * W + W / 2) * 4];
  await assertDecodes(grey, "png", [luma, luma, luma, 255]);
});

Deno.test("JPEG decodes", async () => {
  const jpeg = await bytesOf(
    fromPixels(logo, W, H).flatten({ background: "#fff" }).jpeg({ quality: 95 }),
  );
  await assertDecodes(jpeg, "jpeg", GREEN, 8);
});

Deno.test("GIF decodes its first frame", async () => {
  await assertDecodes(await bytesOf(fromPixels(logo, W, H).gif()), "gif", GREEN, 4);
});

Deno.test("WebP lossless and lossy decode", async () => {
  await assertDecodes(
    await bytesOf(fromPixels(logo, W, H).webp({ lossless: true })),
    "webp",
    GREEN,
  );
  await assertDecodes(
    await bytesOf(fromPixels(logo, W, H).webp({ quality: 90 })),
    "webp",
    GREEN,
    12,
  );
});

Deno.test("BMP decodes", async () => {
  await assertDecodes(bmp24(logo, W, H), "bmp", GREEN);
});

Deno.test("ICO decodes its largest PNG entry", async () => {
  const small = await bytesOf(
    fromPixels(discPixels(16, 16, [255, 0, 0, 255], [0, 0, 0, 0]), 16, 16).png(),
  );
  const large = await bytesOf(fromPixels(logo, W, H).png());
  await assertDecodes(icoOf([{ png: small, side: 16 }, { png: large, side: W }]), "ico", GREEN);
});

Deno.test("format is recognised from the bytes, whatever the caller believes", async () => {
  const webp = await bytesOf(fromPixels(logo, W, H).webp({ lossless: true }));
  strictEqual(probe(webp).format, "webp");
  strictEqual(transform(webp, { format: "png" }).format, "png");
});

Deno.test("SVG is rasterised by resvg at the requested width", async () => {
  const svg = new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="32"><rect width="48" height="32" fill="rgb(20,160,60)"/></svg>`,
  );
  deepStrictEqual(probe(svg), { format: "svg", width: W, height: H });
  const out = transform(svg, { width: 480 });
  deepStrictEqual([out.width, out.height], [480, 320]);
  const image = await pixelsOf(out.bytes);
  deepStrictEqual(pixelAt(image, 0, 0), GREEN, "sharp edge at the corner");
  deepStrictEqual(pixelAt(image, 240, 160), GREEN);
});

/** Left half red, right half blue, opaque. */
function halves(): Uint8Array {
  const pixels = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      pixels.set(x < W / 2 ? [220, 20, 20, 255] : [20, 20, 220, 255], (y * W + x) * 4);
    }
  }
  return pixels;
}

function near(got: Rgba, want: Rgba, tolerance: number, what: string) {
  for (let c = 0; c < 4; c++) {
    if (Math.abs(got[c] - want[c]) > tolerance) {
      throw new Error(`${what}: ${got} is not ${want} ± ${tolerance}`);
    }
  }
}

Deno.test("progressive, grey and CMYK JPEGs decode opaque, in their colours", async () => {
  const opaque = () => fromPixels(halves(), W, H).flatten({ background: "#fff" });
  for (
    const [name, pipeline] of [
      ["progressive", opaque().jpeg({ quality: 95, progressive: true })],
      ["grey", opaque().greyscale().jpeg({ quality: 95 })],
    ] as const
  ) {
    const jpeg = await bytesOf(pipeline);
    const reference = await pixelsOf(jpeg); // libjpeg, through sharp
    const got = await pixelsOf(transform(jpeg).bytes);
    for (const [x, y] of [[4, 4], [W - 5, H - 5]]) {
      near(pixelAt(got, x, y), pixelAt(reference, x, y), 8, `${name} at ${x},${y}`);
    }
  }
  // CMYK is converted without its ICC profile (as the `image` crate does): colours drift, so
  // they are compared with the source's, loosely.
  const cmyk = await bytesOf(opaque().toColourspace("cmyk").jpeg({ quality: 95 }));
  const got = await pixelsOf(transform(cmyk).bytes);
  near(pixelAt(got, 4, 4), [220, 20, 20, 255], 40, "CMYK left");
  near(pixelAt(got, W - 5, H - 5), [20, 20, 220, 255], 40, "CMYK right");
});

Deno.test("EXIF orientation 6 in a JPEG and a PNG turns the image upright", async () => {
  const turned = fromPixels(halves(), W, H);
  for (
    const bytes of [
      await bytesOf(turned.clone().jpeg({ quality: 95 }).withMetadata({ orientation: 6 })),
      await bytesOf(turned.clone().png().withMetadata({ orientation: 6 })),
    ]
  ) {
    const out = transform(bytes);
    deepStrictEqual([out.width, out.height], [H, W]);
    const image = await pixelsOf(out.bytes);
    // Rotated 90° clockwise: the left (red) half is now on top.
    near(pixelAt(image, 3, 3), [220, 20, 20, 255], 8, "top");
    near(pixelAt(image, H - 4, W - 4), [20, 20, 220, 255], 8, "bottom");
  }
});
