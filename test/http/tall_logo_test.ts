/**
 * Tall logos (issue #9, item 4): every legal size of a 1:10 logo is a 200. An output taller than
 * the 4096-px side limit is narrowed to the widest that fits (docs/internals/images.md), in ingestion and
 * at request time alike, through the real ingest code and the app handler.
 */
import assert from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { bytesOf, fromPixels, pixelAt, pixelsOf } from "../support/images.ts";

const RED = [220, 20, 20, 255] as const;
const BLUE = [20, 20, 220, 255] as const;

/** A `width`×`height` logo, red in its top half and blue in its bottom half, encoded by sharp. */
function tallLogo(width: number, height: number): Promise<Uint8Array> {
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set(y < height / 2 ? RED : BLUE, (y * width + x) * 4);
  }
  return bytesOf(fromPixels(pixels, width, height).png());
}

/** round(width × H / W), halves up, as imagecore documents. */
function heightFor(srcWidth: number, srcHeight: number, width: number): number {
  return Math.max(1, Math.floor((2 * width * srcHeight + srcWidth) / (2 * srcWidth)));
}

async function withApp(
  run: (
    ask: (domain: string, size: number, key: "pk" | "sk") => Promise<Response>,
  ) => Promise<void>,
  logos: Record<string, Uint8Array>,
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const app = createApp({ kv });
  try {
    const { key, secretKey } = await new KeyStore(kv).create();
    const store = new LogoStore(kv);
    for (const [domain, bytes] of Object.entries(logos)) {
      await store.put(domain, bytes, { source: "test" });
    }
    await run((domain, size, kind) => {
      const url = new URL(`http://localhost/${domain}`);
      url.searchParams.set("size", String(size));
      const headers = new Headers();
      if (kind === "pk") url.searchParams.set("token", key.publishableKey);
      else headers.set("authorization", `Bearer ${secretKey}`);
      return app.handler(new Request(url, { headers }));
    });
  } finally {
    await app.close();
    kv.close();
  }
}

Deno.test("a 1:10 logo answers 200 at size=700 (pk) and size=1200 (sk), narrowed to fit 4096 px", async () => {
  // 120×1200 is stored as it is; 600×6000 is itself too tall for a 600-px source rendition.
  const logos = {
    "small.example": await tallLogo(120, 1200),
    "large.example": await tallLogo(600, 6000),
  };
  await withApp(async (ask) => {
    for (const domain of Object.keys(logos)) {
      for (const [size, key] of [[700, "pk"], [1200, "sk"], [128, "pk"], [409, "pk"]] as const) {
        const response = await ask(domain, size, key);
        const body = new Uint8Array(await response.arrayBuffer());
        const what = `${domain} size=${size}`;
        assert.equal(response.status, 200, `${what}: ${new TextDecoder().decode(body)}`);
        assert.equal(response.headers.get("content-type"), "image/png", what);
        const image = await pixelsOf(body);
        // The widest width up to `size` whose height fits 4096 px: 409 px for 1:10 (410 → 4100).
        const width = Math.min(size, 409);
        assert.deepEqual([image.width, image.height], [width, heightFor(1, 10, width)], what);
        // The logo itself, not a placeholder: red on top, blue at the bottom.
        assert.deepEqual(pixelAt(image, width >> 1, 2), [...RED], what);
        assert.deepEqual(pixelAt(image, width >> 1, image.height - 3), [...BLUE], what);
      }
    }
  }, logos);
});
