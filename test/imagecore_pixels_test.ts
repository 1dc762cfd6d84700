import { ok, strictEqual } from "node:assert";
import { transform } from "../imagecore/mod.ts";
import { bytesOf, discPixels, fromPixels, pixelAt, pixelsOf, type Rgba } from "./support/images.ts";

async function png(width: number, height: number, colour: Rgba, background: Rgba) {
  return await bytesOf(
    fromPixels(discPixels(width, height, colour, background), width, height).png(),
  );
}

Deno.test("greyscale output has R = G = B and keeps alpha", async () => {
  const out = transform(await png(64, 64, [200, 40, 90, 255], [0, 0, 0, 0]), {
    width: 30,
    greyscale: true,
  });
  const image = await pixelsOf(out.bytes);
  let translucent = 0;
  for (let i = 0; i < image.data.length; i += 4) {
    const [r, g, b, a] = image.data.subarray(i, i + 4);
    ok(r === g && g === b, `pixel ${i / 4} is (${r}, ${g}, ${b})`);
    if (a > 0 && a < 255) translucent++;
  }
  ok(translucent > 0, "the anti-aliased edge keeps partial alpha");
  // Rec. 709 luma of (200, 40, 90) ≈ 78.
  ok(Math.abs(pixelAt(image, 15, 15)[0] - 78) <= 1);
});

Deno.test("a red logo on transparency has no fringe at any size", async () => {
  // The transparent pixels carry green: without premultiplied alpha it would bleed into edges.
  const bytes = await png(97, 61, [255, 0, 0, 255], [0, 255, 0, 0]);
  for (const width of [7, 16, 33, 64, 128, 300]) {
    const image = await pixelsOf(transform(bytes, { width }).bytes);
    for (let i = 0; i < image.data.length; i += 4) {
      const [r, g, b, a] = image.data.subarray(i, i + 4);
      if (a < 8) continue;
      ok(r >= 240 && g <= 12 && b <= 12, `fringe at ${width}px: (${r}, ${g}, ${b}, ${a})`);
    }
  }
});

async function themed(colour: Rgba, theme: "light" | "dark") {
  const out = transform(await png(40, 40, colour, [0, 0, 0, 0]), { theme });
  return { inverted: out.inverted, centre: pixelAt(await pixelsOf(out.bytes), 20, 20) };
}

Deno.test("dark theme inverts a black logo", async () => {
  const { inverted, centre } = await themed([0, 0, 0, 255], "dark");
  ok(inverted);
  strictEqual(centre.join(), "255,255,255,255");
});

Deno.test("dark theme leaves a white logo alone", async () => {
  const { inverted, centre } = await themed([255, 255, 255, 255], "dark");
  ok(!inverted);
  strictEqual(centre.join(), "255,255,255,255");
});

Deno.test("light theme inverts a white logo", async () => {
  const { inverted, centre } = await themed([255, 255, 255, 255], "light");
  ok(inverted);
  strictEqual(centre.join(), "0,0,0,255");
});

Deno.test("light theme leaves a black logo alone", async () => {
  const { inverted } = await themed([0, 0, 0, 255], "light");
  ok(!inverted);
});

Deno.test("themes leave a mid-contrast colour alone", async () => {
  // #1a73e8 has 4.6:1 against white and 4.5:1 against black: enough either way.
  ok(!(await themed([0x1a, 0x73, 0xe8, 255], "light")).inverted);
  ok(!(await themed([0x1a, 0x73, 0xe8, 255], "dark")).inverted);
});

Deno.test("opaque logos are never inverted", async () => {
  const out = transform(await png(40, 40, [0, 0, 0, 255], [20, 20, 20, 255]), { theme: "dark" });
  ok(!out.inverted);
});

Deno.test("JPEG output flattens transparency onto white", async () => {
  const out = transform(await png(40, 40, [0, 0, 0, 255], [0, 0, 0, 0]), { format: "jpeg" });
  strictEqual(out.format, "jpeg");
  const corner = pixelAt(await pixelsOf(out.bytes), 0, 0);
  ok(corner.slice(0, 3).every((c) => c >= 250), `corner ${corner}`);
});

Deno.test("WebP output is lossless", async () => {
  const pixels = discPixels(30, 20, [120, 40, 200, 255], [0, 0, 0, 0]);
  const out = transform(await bytesOf(fromPixels(pixels, 30, 20).png()), { format: "webp" });
  strictEqual(out.format, "webp");
  ok((await pixelsOf(out.bytes)).data.every((v, i) => v === pixels[i]));
});
