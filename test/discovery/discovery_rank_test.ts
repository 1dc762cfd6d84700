import assert from "node:assert/strict";
import type { Candidate } from "../../src/discovery/candidates.ts";
import { compareMeasured, type Measured, score, tier } from "../../src/discovery/rank.ts";

let order = 0;
function m(kind: Candidate["kind"], format: string, width: number, height: number): Measured {
  return {
    candidate: { url: `https://a.test/${order}`, kind },
    format,
    width,
    height,
    order: order++,
  };
}

Deno.test("rank: SVG first, then large square rasters, mask icons, mid icons, wide logos, small favicons, wide og:images", () => {
  const svg = m("icon", "svg", 100, 100);
  const large = m("manifest", "png", 512, 512);
  const mask = m("mask-icon", "svg", 16, 16);
  const touch = m("apple-touch-icon", "png", 180, 180);
  const wordmark = m("json-ld", "png", 600, 160);
  const favicon = m("favicon", "ico", 32, 32);
  const card = m("og:image", "jpeg", 1200, 630);
  assert.deepEqual([svg, large, mask, touch, wordmark, favicon, card].map(tier), [
    0,
    1,
    2,
    3,
    4,
    5,
    6,
  ]);
  const shuffled = [card, favicon, touch, svg, wordmark, mask, large];
  assert.deepEqual(shuffled.toSorted(compareMeasured), [
    svg,
    large,
    mask,
    touch,
    wordmark,
    favicon,
    card,
  ]);
});

Deno.test("rank: within a tier the larger raster wins, then the preferred declaration, then order", () => {
  const big = m("favicon", "png", 1024, 1024);
  const small = m("icon", "png", 256, 256);
  assert.ok(compareMeasured(big, small) < 0);
  const fromLink = m("icon", "png", 256, 256);
  const fromManifest = m("manifest", "png", 256, 256);
  assert.ok(compareMeasured(fromManifest, fromLink) > 0);
  const first = m("icon", "png", 64, 64);
  const second = m("icon", "png", 64, 64);
  assert.ok(compareMeasured(first, second) < 0);
});

Deno.test("rank: a square og:image ranks like any raster; only wide ones go last", () => {
  const squareCard = m("og:image", "png", 400, 400);
  assert.equal(tier(squareCard), 1);
  assert.ok(score(squareCard) > score(m("favicon", "ico", 48, 48)));
});

Deno.test("rank: the score orders across discoveries (never replace with worse)", () => {
  assert.ok(score(m("icon", "svg", 10, 10)) > score(m("icon", "png", 4096, 4096)));
  assert.ok(score(m("icon", "png", 512, 512)) > score(m("icon", "png", 256, 256)));
  assert.ok(score(m("icon", "png", 256, 256)) > score(m("apple-touch-icon", "png", 180, 180)));
  assert.equal(score(m("icon", "png", 64, 64)), score(m("favicon", "ico", 64, 64)));
});
