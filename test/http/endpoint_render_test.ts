/**
 * What the endpoint renders: the stored default rendition as is for a default request, the asked
 * width with the aspect ratio kept, the asked format, and one render for identical concurrent misses.
 */
import assert from "node:assert/strict";
import { probe } from "../../imagecore/mod.ts";
import { flatImage } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";

const LOGO = flatImage(600, 200, [250, 120, 0, 255]);

Deno.test("a default request is the precomputed default rendition, byte for byte", async () => {
  await using server = await startTestApp();
  const record = await server.addLogo("example.com", LOGO);
  const stored = await server.logos.readRendition(record.renditions.default);
  const result = await server.exchange(server.logoUrl("example.com"));
  assert.deepEqual(result.bytes, stored);
  assert.deepEqual(probe(result.bytes), { format: "png", width: 128, height: 43 });
});

Deno.test("size sets the width and keeps the aspect ratio, upscaling past the source", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", flatImage(160, 80, [0, 0, 0, 255]));
  for (const size of [1, 17, 64, 128, 160, 300, 800]) {
    const result = await server.exchange(server.logoUrl("example.com", { size: String(size) }));
    assert.equal(result.status, 200);
    const { width, height } = probe(result.bytes);
    assert.equal(width, size);
    assert.equal(height, Math.max(1, Math.round(size / 2)));
  }
});

Deno.test("format, greyscale and theme produce the asked encoding and distinct images", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  const seen = new Set<string>();
  const cases: Record<string, string>[] = [
    { format: "png" },
    { format: "webp" },
    { format: "jpeg" },
    { greyscale: "true", format: "png" },
    { theme: "dark", format: "png", size: "300" },
  ];
  for (const params of cases) {
    const result = await server.exchange(server.logoUrl("example.com", params));
    assert.equal(result.status, 200);
    assert.equal(probe(result.bytes).format, params.format);
    assert.equal(result.headers.get("content-type"), `image/${params.format}`);
    seen.add(result.bytes.join(","));
  }
  assert.equal(seen.size, 5, "every option changes the bytes");
});

Deno.test("identical concurrent misses render once", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  const before = server.app.stats().variants.misses;
  const results = await Promise.all(
    Array.from(
      { length: 12 },
      () => server.exchange(server.logoUrl("example.com", { size: "321" })),
    ),
  );
  const bodies = new Set(results.map((r) => r.bytes.join(",")));
  assert.equal(bodies.size, 1);
  assert.equal(server.app.stats().variants.misses - before, 1);
  await server.exchange(server.logoUrl("example.com", { size: "321" }));
  assert.equal(server.app.stats().variants.misses - before, 1, "a later request is a hit");
});

Deno.test("a logo removed while its record is cached answers 404, not 500", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  assert.equal((await server.exchange(server.logoUrl("example.com"))).status, 200);
  await server.logos.remove("example.com"); // another process would not forget our cache
  // 200 px renders from a blob rendition (the default's bytes are inside the cached record).
  const result = await server.exchange(server.logoUrl("example.com", { size: "200" }));
  assert.equal(result.status, 404);
  assert.equal(result.text, "Logo not found");
});
