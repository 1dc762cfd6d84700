/**
 * `X-Logo-Width` / `X-Logo-Height`: every 200 (and its `HEAD`) states the dimensions of the bytes
 * it carries, browsers may read them (CORS), and the SDK takes them from there. Through the
 * handler: no socket decides any of this.
 */
import assert from "node:assert/strict";
import { encodeRgba, probe } from "../../imagecore/mod.ts";
import { createApp } from "../../src/http/app.ts";
import { LogoClient } from "../../src/sdk/mod.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";

const BASE = "http://logos.test";

/** A `width`×`height` flat PNG. */
function flatPng(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < pixels.length; i += 4) pixels.set([20, 40, 220, 255], i);
  return encodeRgba(pixels, width, height, "png");
}

/** An app over a fresh in-memory KV with one key and a 240×120 logo for example.com. */
async function world() {
  const kv = await Deno.openKv(":memory:");
  const { key, secretKey } = await new KeyStore(kv).create({});
  await new LogoStore(kv).put("example.com", flatPng(240, 120), { source: "test" });
  const app = createApp({ kv });
  return {
    app,
    secretKey,
    get(query: string, init: RequestInit = {}) {
      const url = `${BASE}/example.com?token=${key.publishableKey}${query}`;
      return app.handler(new Request(url, init));
    },
    async [Symbol.asyncDispose]() {
      await app.close();
      kv.close();
    },
  };
}

const CASES: [string, number, number][] = [
  ["", 128, 64], // the stored default rendition, sent as stored
  ["&size=300", 300, 150], // rendered from the source rendition
  ["&size=64&format=webp&greyscale=true", 64, 32],
  ["&size=256", 256, 128], // rendered from the source rendition (recipe 1 stored it as mid)
];

Deno.test("a 200 states the dimensions of its bytes in X-Logo-Width/Height, GET and HEAD", async () => {
  await using w = await world();
  for (const [query, width, height] of CASES) {
    // Twice: the second answer comes from the variant cache and its prepared response.
    for (let round = 0; round < 2; round++) {
      const response = await w.get(query);
      assert.equal(response.status, 200, query);
      const facts = probe(await response.bytes());
      assert.deepEqual([facts.width, facts.height], [width, height], query);
      const stated = [response.headers.get("x-logo-width"), response.headers.get("x-logo-height")];
      assert.deepEqual(stated, [String(width), String(height)], `${query} round ${round}`);
    }
    const head = await w.get(query, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("x-logo-width"), String(width), `HEAD ${query}`);
    assert.equal(head.headers.get("x-logo-height"), String(height), `HEAD ${query}`);
  }
});

Deno.test("browsers may read X-Logo-Width/Height (Access-Control-Expose-Headers)", async () => {
  await using w = await world();
  const response = await w.get("");
  await response.body?.cancel();
  const exposed = (response.headers.get("access-control-expose-headers") ?? "")
    .split(",").map((name) => name.trim().toLowerCase());
  assert.ok(exposed.includes("x-logo-width"), exposed.join());
  assert.ok(exposed.includes("x-logo-height"), exposed.join());
});

Deno.test("errors and 304s carry no dimensions", async () => {
  await using w = await world();
  const missing = await w.get("&size=99999");
  assert.equal(missing.status, 400);
  await missing.body?.cancel();
  assert.equal(missing.headers.get("x-logo-width"), null);
  const first = await w.get("");
  await first.body?.cancel();
  const again = await w.get("", { headers: { "if-none-match": first.headers.get("etag")! } });
  assert.equal(again.status, 304);
  assert.equal(again.headers.get("x-logo-width"), null);
});

Deno.test("the SDK's width and height are the server's X-Logo-Width/Height", async () => {
  await using w = await world();
  const stated: string[] = [];
  const client = new LogoClient({
    secretKey: w.secretKey,
    baseUrl: BASE,
    fetch: async (input, init) => {
      const response = await w.app.handler(new Request(input, init));
      stated.push(
        `${response.headers.get("x-logo-width")}x${response.headers.get("x-logo-height")}`,
      );
      return response;
    },
  });
  const logo = await client.get("example.com", { size: 300 });
  assert.deepEqual([logo.width, logo.height], [300, 150]);
  const streamed = await client.getStream("example.com", { size: 64, format: "jpeg" });
  await streamed.stream.cancel();
  assert.deepEqual([streamed.width, streamed.height], [64, 32]);
  assert.deepEqual(stated, ["300x150", "64x32"]);
});
