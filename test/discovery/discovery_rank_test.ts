import assert from "node:assert/strict";
import type { Candidate } from "../../src/discovery/candidate.ts";
import {
  compareMeasured,
  explain,
  type Measured,
  refusal,
  score,
  tier,
} from "../../src/discovery/rank.ts";

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

Deno.test("rank: BIMI, square SVG, large, mid and adequate square rasters, non-square, small favicons, mask icons, og:images", () => {
  const bimi = m("bimi", "svg", 100, 100);
  const svg = m("icon", "svg", 100, 100);
  const large = m("manifest", "png", 512, 512);
  const touch = m("apple-touch-icon", "png", 180, 180);
  const favicon32 = m("favicon", "ico", 32, 32);
  const wordmark = m("json-ld", "svg", 600, 60);
  const favicon16 = m("icon", "ico", 16, 16);
  const mask = m("mask-icon", "svg", 16, 16);
  const cover = m("og:image", "jpeg", 1400, 1400);
  const ranked = [bimi, svg, large, touch, favicon32, wordmark, favicon16, mask, cover];
  assert.deepEqual(ranked.map(tier), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(ranked.toReversed().toSorted(compareMeasured), ranked);
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

Deno.test("rank: a mask icon and an og:image keep their last-resort tier whatever their shape", () => {
  assert.equal(tier(m("og:image", "png", 400, 400)), 8);
  assert.equal(tier(m("og:image", "svg", 400, 400)), 8);
  assert.equal(tier(m("mask-icon", "svg", 512, 512)), 7);
  assert.ok(score(m("icon", "ico", 16, 16)) > score(m("mask-icon", "svg", 16, 16)));
});

Deno.test("rank: a raster under 16 px is not a logo; an SVG is never too small", () => {
  assert.equal(refusal(m("icon", "gif", 1, 1)), "too small to be a logo (under 16 px)");
  assert.equal(refusal(m("icon", "png", 64, 15)), "too small to be a logo (under 16 px)");
  assert.equal(refusal(m("icon", "png", 16, 16)), undefined);
  assert.equal(refusal(m("mask-icon", "svg", 1, 1)), undefined);
});

Deno.test("rank: the score orders across discoveries and is above every score of the previous ranking", () => {
  assert.ok(score(m("icon", "svg", 10, 10)) > score(m("icon", "png", 4096, 4096)));
  assert.ok(score(m("icon", "png", 512, 512)) > score(m("icon", "png", 256, 256)));
  assert.ok(score(m("icon", "png", 256, 256)) > score(m("apple-touch-icon", "png", 180, 180)));
  assert.equal(score(m("icon", "png", 64, 64)), score(m("favicon", "ico", 64, 64)));
  assert.ok(score(m("og:image", "jpeg", 1200, 630)) > 799_999);
});

Deno.test("rank: explain names the tier and what the candidate is", () => {
  assert.equal(
    explain(m("fluid-icon", "png", 512, 512)),
    "tier 2 of 0-8, square raster of 256 px or more: png 512x512 from fluid-icon",
  );
});
