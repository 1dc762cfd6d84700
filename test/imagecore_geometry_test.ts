import { deepStrictEqual, strictEqual } from "node:assert";
import { transform } from "../imagecore/mod.ts";
import { bytesOf, discPixels, fromPixels, pixelsOf } from "./support/images.ts";

async function logo(width: number, height: number): Promise<Uint8Array> {
  return await bytesOf(
    fromPixels(discPixels(width, height, [0, 0, 200, 255], [0, 0, 0, 0]), width, height).png(),
  );
}

async function sizeAfter(width: number, height: number, to: number): Promise<[number, number]> {
  const out = transform(await logo(width, height), { width: to });
  const decoded = await pixelsOf(out.bytes);
  deepStrictEqual([decoded.width, decoded.height], [out.width, out.height], "header matches bytes");
  return [out.width, out.height];
}

Deno.test("wide source: 2048×512 to 128 is 128×32", async () => {
  deepStrictEqual(await sizeAfter(2048, 512, 128), [128, 32]);
});

Deno.test("tall source: 100×400 to 50 is 50×200", async () => {
  deepStrictEqual(await sizeAfter(100, 400, 50), [50, 200]);
});

Deno.test("height rounds to nearest: 300×200 to 100 is 100×67", async () => {
  deepStrictEqual(await sizeAfter(300, 200, 100), [100, 67]);
});

Deno.test("tiny output keeps at least one row: 300×1 to 1 is 1×1", async () => {
  deepStrictEqual(await sizeAfter(300, 1, 1), [1, 1]);
});

Deno.test("upscaling: 16×16 to 256 is 256×256", async () => {
  deepStrictEqual(await sizeAfter(16, 16, 256), [256, 256]);
});

Deno.test("no width keeps the source width", async () => {
  const out = transform(await logo(40, 30));
  strictEqual(out.width, 40);
  strictEqual(out.height, 30);
});
