/**
 * `fallback=monogram`: when no logo is found, a 200 letter tile marked `X-Logo-Fallback`, with a
 * short max-age, counted against the rate limit, honouring the options and cached; `fallback=404`
 * (the default) keeps the 404; anything else is a 400.
 */
import assert from "node:assert/strict";
import { flatImage, pixelAt, pixelsOf } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";
import { monogramLabel } from "../../src/http/monogram.ts";

const LOGO = flatImage(120, 60, [200, 0, 0, 255]);

Deno.test("without fallback, and with fallback=404, a missing logo stays 404 Logo not found", async () => {
  await using server = await startTestApp();
  for (const params of [{}, { fallback: "404" }] as Record<string, string>[]) {
    const miss = await server.exchange(server.logoUrl("nothing.example", params));
    assert.equal(miss.status, 404);
    assert.equal(miss.text, "Logo not found");
    assert.equal(miss.headers.get("x-logo-fallback"), null);
  }
});

Deno.test("any other fallback is a 400 naming the rule, before the key is checked", async () => {
  await using server = await startTestApp();
  for (const value of ["letter", "", "monogram "]) {
    const bad = await server.exchange(
      server.logoUrl("example.com", { fallback: value, token: "pk_wrong" }),
    );
    assert.equal(bad.status, 400, value);
    assert.equal(bad.text, "Invalid fallback: must be 404 or monogram");
  }
  const twice = await server.exchange(
    `${server.logoUrl("example.com")}&fallback=monogram&fallback=404`,
  );
  assert.equal(twice.status, 400);
  assert.equal(twice.text, "Invalid fallback: given more than once");
});

Deno.test("fallback=monogram answers a square tile, marked, exposed to CORS, cached an hour", async () => {
  await using server = await startTestApp({ limit: 10, window: 60 });
  const tile = await server.exchange(server.logoUrl("nothing.example", { fallback: "monogram" }));
  assert.equal(tile.status, 200, tile.text);
  assert.equal(tile.headers.get("content-type"), "image/png");
  assert.equal(tile.headers.get("x-logo-fallback"), "monogram");
  assert.match(tile.headers.get("access-control-expose-headers")!, /X-Logo-Fallback/);
  assert.equal(tile.headers.get("cache-control"), "public, max-age=3600, s-maxage=300");
  assert.equal(tile.headers.get("x-logo-domain"), null);
  assert.equal(tile.headers.get("x-logo-width"), "128");
  assert.equal(tile.headers.get("x-logo-height"), "128");
  assert.equal(tile.headers.get("x-ratelimit-remaining"), "9", "counted against the limit");
  const image = await pixelsOf(tile.bytes);
  assert.deepEqual([image.width, image.height], [128, 128]);
  const corner = pixelAt(image, 1, 1);
  assert.equal(corner[3], 255, "opaque background");
  const centre = pixelAt(image, 64, 64);
  assert.notDeepEqual(centre, corner, "a letter is drawn in the middle");
});

Deno.test("a stored logo wins over the monogram, unmarked", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  const plain = await server.exchange(server.logoUrl("example.com", { size: "64" }));
  const asked = await server.exchange(
    server.logoUrl("example.com", { size: "64", fallback: "monogram" }),
  );
  assert.equal(asked.status, 200);
  assert.equal(asked.headers.get("x-logo-fallback"), null);
  assert.equal(asked.headers.get("cache-control"), plain.headers.get("cache-control"));
  assert.deepEqual(asked.bytes, plain.bytes);
});

Deno.test("the tile honours size, format and greyscale", async () => {
  await using server = await startTestApp();
  const url = (params: Record<string, string>) =>
    server.logoUrl("nothing.example", { fallback: "monogram", ...params });
  const webp = await server.exchange(url({ size: "48", format: "webp" }));
  assert.equal(webp.status, 200, webp.text);
  assert.equal(webp.headers.get("content-type"), "image/webp");
  const decoded = await pixelsOf(webp.bytes);
  assert.deepEqual([decoded.width, decoded.height], [48, 48]);

  const colour = await pixelsOf((await server.exchange(url({ size: "64" }))).bytes);
  const grey = await pixelsOf(
    (await server.exchange(url({ size: "64", greyscale: "true" }))).bytes,
  );
  const [r, g, b] = pixelAt(colour, 1, 1);
  assert.ok(r !== g || g !== b, "the colour tile has a hue");
  for (let i = 0; i < grey.data.length; i += 4) {
    assert.equal(grey.data[i], grey.data[i + 1]);
    assert.equal(grey.data[i + 1], grey.data[i + 2]);
  }
});

Deno.test("the letter is the brand label's: www.example.com draws example.com's tile", async () => {
  await using server = await startTestApp();
  const get = async (domain: string) =>
    (await server.exchange(server.logoUrl(domain, { fallback: "monogram" }))).bytes;
  const apex = await get("example.com");
  assert.deepEqual(await get("www.example.com"), apex);
  assert.deepEqual(await get("www.example.co.uk"), await get("example.co.uk"));
  assert.notDeepEqual(await get("wexample.com"), apex);
});

Deno.test("an IDN label gives its Unicode first letter", () => {
  assert.equal(monogramLabel("xn--bcher-kva.de"), "bücher");
  assert.equal(monogramLabel("www.xn--bcher-kva.de"), "bücher");
  assert.equal(monogramLabel("shop.example.com"), "example");
});

Deno.test("a tile is drawn once per domain and options, and revalidates with its ETag", async () => {
  await using server = await startTestApp();
  const url = server.logoUrl("nothing.example", { fallback: "monogram", size: "96" });
  const first = await server.exchange(url);
  const misses = server.app.stats().variants.misses;
  const second = await server.exchange(url);
  assert.deepEqual(second.bytes, first.bytes);
  assert.equal(server.app.stats().variants.misses, misses, "served from the variant cache");
  const etag = first.headers.get("etag")!;
  assert.match(etag, /^"v\d+-m\d+-nothing\.example-96-png"$/);
  const other = await server.exchange(server.logoUrl("other.example", { fallback: "monogram" }));
  assert.notEqual(other.headers.get("etag"), etag);

  const revalidated = await server.exchange(url, { headers: { "if-none-match": etag } });
  assert.equal(revalidated.status, 304);
  assert.equal(revalidated.headers.get("x-logo-fallback"), "monogram");
  assert.equal(revalidated.headers.get("cache-control"), "public, max-age=3600, s-maxage=300");
  const head = await server.exchange(url, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("x-logo-fallback"), "monogram");
  assert.equal(head.headers.get("content-length"), String(first.bytes.byteLength));
});

Deno.test("a secret key's tile is private, an hour", async () => {
  await using server = await startTestApp();
  const tile = await server.exchange(
    server.logoUrl("nothing.example", { fallback: "monogram", token: null }),
    { headers: { authorization: `Bearer ${server.secretKey}` } },
  );
  assert.equal(tile.status, 200, tile.text);
  assert.equal(tile.headers.get("cache-control"), "private, max-age=3600");
});
