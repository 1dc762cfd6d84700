/**
 * `type=logo`: the wordmark is served at the asked width (aspect kept), found along the domain's
 * parent chain like an icon; without one anywhere in the chain the icon answers, marked
 * `X-Logo-Fallback: icon` (exposed to CORS, cached an hour) under an ETag of its own; with nothing
 * at all and `fallback=monogram`, the tile, marked `icon, monogram`. `type=icon` (the default)
 * keeps today's answers and ETags. A bad `type` is a 400.
 */
import assert from "node:assert/strict";
import { flatImage, pixelsOf } from "../support/images.ts";
import { startTestApp, type TestServer } from "../support/server.ts";
import { widePng, wideSvg } from "../support/wordmarks.ts";
import { LogoChangeFeed } from "../../src/store/logo_change_feed.ts";
import { LogoStore } from "../../src/store/logo_store.ts";

const ICON = flatImage(256, 256, [200, 0, 0, 255]);

async function addWordmark(server: TestServer, domain: string, bytes: Uint8Array) {
  const { record } = await server.logos.put(domain, bytes, { source: "test", type: "logo" });
  server.app.forgetLogo(domain);
  return record;
}

Deno.test("type=logo serves the stored wordmark at the asked width, aspect kept, unmarked", async () => {
  await using server = await startTestApp();
  await server.addLogo("acme.example", ICON);
  const record = await addWordmark(server, "acme.example", wideSvg(200, 50));
  assert.equal(record.renditions.source.width, 1200, "an SVG wordmark is stored 1200 px wide");
  const wide = await server.exchange(
    server.logoUrl("acme.example", { type: "logo", size: "400" }),
  );
  assert.equal(wide.status, 200, wide.text);
  assert.equal(wide.headers.get("x-logo-fallback"), null);
  assert.equal(wide.headers.get("x-logo-domain"), "acme.example");
  assert.equal(wide.headers.get("x-logo-width"), "400");
  assert.equal(wide.headers.get("x-logo-height"), "100");
  const image = await pixelsOf(wide.bytes);
  assert.deepEqual([image.width, image.height], [400, 100]);
  assert.equal(wide.headers.get("cache-control"), "public, max-age=86400, s-maxage=300");
  assert.match(wide.headers.get("etag")!, /^"v2-[0-9a-f]{32}-400-png-logo"$/);
  // The default request is the stored default rendition of the wordmark: 128 px wide.
  const small = await server.exchange(server.logoUrl("acme.example", { type: "logo" }));
  assert.equal(small.headers.get("x-logo-width"), "128");
  assert.equal(small.headers.get("x-logo-height"), "32");
  assert.deepEqual(small.bytes, await server.logos.readRendition(record.renditions.default));
});

Deno.test("type=icon, given or not, answers today's icon under today's ETag", async () => {
  await using server = await startTestApp();
  const icon = await server.addLogo("acme.example", ICON);
  await addWordmark(server, "acme.example", widePng(400, 100));
  const plain = await server.exchange(server.logoUrl("acme.example"));
  const typed = await server.exchange(server.logoUrl("acme.example", { type: "icon" }));
  const upper = await server.exchange(server.logoUrl("acme.example", { type: "ICON" }));
  // The ETag of an icon is the one made before wordmarks existed: version, hash, size, format.
  const expected = `"v2-${icon.renditions.default.hash.slice(0, 32)}-128-png"`;
  for (const answer of [plain, typed, upper]) {
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("etag"), expected);
    assert.equal(answer.headers.get("x-logo-fallback"), null);
    assert.equal(answer.headers.get("x-logo-width"), "128");
    assert.equal(answer.headers.get("x-logo-height"), "128");
  }
  const sized = await server.exchange(server.logoUrl("acme.example", { size: "64", type: "icon" }));
  assert.match(sized.headers.get("etag")!, /^"v2-[0-9a-f]{32}-64-png"$/);
});

Deno.test("type=logo without a wordmark serves the icon, marked, exposed, an hour, its own ETag", async () => {
  await using server = await startTestApp();
  await server.addLogo("acme.example", ICON);
  const icon = await server.exchange(server.logoUrl("acme.example", { size: "200" }));
  const fallback = await server.exchange(
    server.logoUrl("acme.example", { type: "logo", size: "200" }),
  );
  assert.equal(fallback.status, 200);
  assert.equal(fallback.headers.get("x-logo-fallback"), "icon");
  assert.match(fallback.headers.get("access-control-expose-headers")!, /X-Logo-Fallback/);
  assert.equal(fallback.headers.get("cache-control"), "public, max-age=3600, s-maxage=300");
  assert.equal(fallback.headers.get("x-logo-domain"), "acme.example");
  assert.deepEqual(fallback.bytes, icon.bytes, "the icon's bytes");
  const etag = fallback.headers.get("etag")!;
  assert.notEqual(etag, icon.headers.get("etag"), "not the icon's own ETag");
  assert.equal(etag, icon.headers.get("etag")!.replace(/"$/, '-logo"'));

  // Revalidated: 304 while nothing changed, with the fallback still said.
  const headers = { "if-none-match": etag };
  const same = await server.exchange(
    server.logoUrl("acme.example", { type: "logo", size: "200" }),
    { headers },
  );
  assert.equal(same.status, 304);
  assert.equal(same.headers.get("x-logo-fallback"), "icon");
  // The icon's ETag does not revalidate the fallback, nor the other way round.
  const crossed = await server.exchange(
    server.logoUrl("acme.example", { size: "200" }),
    { headers },
  );
  assert.equal(crossed.status, 200);

  // A wordmark added later: the client's fallback ETag no longer matches.
  await addWordmark(server, "acme.example", widePng(800, 200));
  const fresh = await server.exchange(
    server.logoUrl("acme.example", { type: "logo", size: "200" }),
    { headers },
  );
  assert.equal(fresh.status, 200);
  assert.equal(fresh.headers.get("x-logo-fallback"), null);
  assert.notEqual(fresh.headers.get("etag"), etag);
  assert.equal(fresh.headers.get("x-logo-height"), "50");
});

Deno.test("type=logo looks along the parent chain for a wordmark before the icon", async () => {
  await using server = await startTestApp();
  await server.addLogo("docs.acme.example", ICON);
  await addWordmark(server, "acme.example", widePng(400, 100));
  const wide = await server.exchange(server.logoUrl("docs.acme.example", { type: "logo" }));
  assert.equal(wide.headers.get("x-logo-domain"), "acme.example");
  assert.equal(wide.headers.get("x-logo-fallback"), null);
  assert.equal(wide.headers.get("x-logo-height"), "32");
  // The icon request still gets the nearest icon.
  const icon = await server.exchange(server.logoUrl("docs.acme.example"));
  assert.equal(icon.headers.get("x-logo-domain"), "docs.acme.example");
  // No wordmark in the chain: the nearest icon, as for type=icon.
  await server.addLogo("other.example", ICON);
  const sub = await server.exchange(server.logoUrl("www.other.example", { type: "logo" }));
  assert.equal(sub.headers.get("x-logo-domain"), "other.example");
  assert.equal(sub.headers.get("x-logo-fallback"), "icon");
});

Deno.test("type=logo with nothing stored: 404, or the tile marked icon, monogram", async () => {
  await using server = await startTestApp();
  const miss = await server.exchange(server.logoUrl("nothing.example", { type: "logo" }));
  assert.equal(miss.status, 404);
  assert.equal(miss.text, "Logo not found");
  assert.equal(miss.headers.get("x-logo-fallback"), null);
  const tileUrl = server.logoUrl("nothing.example", { type: "logo", fallback: "monogram" });
  const tile = await server.exchange(tileUrl);
  assert.equal(tile.status, 200);
  assert.equal(tile.headers.get("x-logo-fallback"), "icon, monogram");
  assert.equal(tile.headers.get("x-logo-width"), "128");
  assert.equal(tile.headers.get("x-logo-height"), "128", "the square tile");
  const iconTile = await server.exchange(
    server.logoUrl("nothing.example", { fallback: "monogram" }),
  );
  assert.equal(iconTile.headers.get("x-logo-fallback"), "monogram");
  assert.deepEqual(tile.bytes, iconTile.bytes);
  assert.notEqual(tile.headers.get("etag"), iconTile.headers.get("etag"));
  const again = await server.exchange(tileUrl, {
    headers: { "if-none-match": tile.headers.get("etag")! },
  });
  assert.equal(again.status, 304);
  assert.equal(again.headers.get("x-logo-fallback"), "icon, monogram");
});

Deno.test("an unknown type is a 400 naming the rule; twice is a 400", async () => {
  await using server = await startTestApp();
  await server.addLogo("acme.example", ICON);
  for (const value of ["wordmark", "", "logo ", "symbol"]) {
    const bad = await server.exchange(server.logoUrl("acme.example", { type: value }));
    assert.equal(bad.status, 400, value);
    assert.equal(bad.text, "Invalid type: must be icon or logo");
  }
  const twice = await server.exchange(`${server.logoUrl("acme.example")}&type=logo&type=icon`);
  assert.equal(twice.status, 400);
  assert.equal(twice.text, "Invalid type: given more than once");
});

Deno.test("a wordmark written by another process reaches a serving app through the change feed", async () => {
  const kv = await Deno.openKv(":memory:");
  const clock = { now: 1_750_000_000_000 };
  const feed = new LogoChangeFeed(kv, { clock: () => clock.now, log: () => {} });
  await using server = await startTestApp({
    kv,
    clock: () => clock.now,
    app: { logoChanges: feed, logoCacheTtlMs: 60_000 },
  });
  try {
    const writer = new LogoStore(kv, { clock: () => clock.now }); // the admin CLI, say
    await writer.put("acme.example", ICON, { source: "test" });
    await feed.poll();
    const url = server.logoUrl("acme.example", { type: "logo", size: "300" });
    assert.equal((await server.exchange(url)).headers.get("x-logo-fallback"), "icon");
    // Cached: the record's absence stays while the feed confirms nothing changed.
    clock.now += 1_000;
    await feed.poll();
    assert.equal((await server.exchange(url)).headers.get("x-logo-fallback"), "icon");

    await writer.put("acme.example", widePng(600, 150), { source: "test", type: "logo" });
    assert.equal(
      (await server.exchange(url)).headers.get("x-logo-fallback"),
      "icon",
      "not read before the feed tells",
    );
    clock.now += 1_000;
    await feed.poll();
    const wide = await server.exchange(url);
    assert.equal(wide.headers.get("x-logo-fallback"), null);
    assert.equal(wide.headers.get("x-logo-height"), "75");

    await writer.remove("acme.example", "logo");
    clock.now += 1_000;
    await feed.poll();
    assert.equal((await server.exchange(url)).headers.get("x-logo-fallback"), "icon");
  } finally {
    kv.close();
  }
});
