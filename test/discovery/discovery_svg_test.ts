/** Discovery with a hostile SVG icon: nothing it references is fetched; it is stored rasterised. */
import assert from "node:assert/strict";
import { CONVENTIONAL_ICONS } from "../../src/discovery/candidates.ts";
import { iconPng } from "../support/images.ts";
import { page } from "../support/discovery_sites.ts";
import { html, image, world } from "../support/discover_setup.ts";

const HOSTILE_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE svg [<!ENTITY ext SYSTEM "http://acme.test/entity.txt">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64" viewBox="0 0 64 64">
  <script>fetch("http://acme.test/script-ran")</script>
  <script href="http://acme.test/external.js"/>
  <style>@import url("http://acme.test/style.css"); rect { fill: url(http://acme.test/paint.svg#p) }</style>
  <image href="http://acme.test/tracker.png" width="64" height="64"/>
  <image xlink:href="http://acme.test/tracker2.png" width="64" height="64"/>
  <use href="http://acme.test/sprite.svg#logo"/>
  <foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="http://acme.test/frame.html"/></foreignObject>
  <rect width="64" height="64" fill="#c00" onload="fetch('http://acme.test/onload')"/>
  <text>&ext;</text>
</svg>`;

/** The same hostile SVG without its external entity: valid, so it renders. */
const HOSTILE_SVG_NO_ENTITY = HOSTILE_SVG
  .replace(/<!DOCTYPE svg \[[^\]]*\]>\n/, "")
  .replace("<text>&ext;</text>", "<text>ext</text>");

Deno.test("discovery: an SVG with scripts and external references fetches nothing it references", async () => {
  const w = await world({
    "acme.test": {
      "/": html(
        page(
          `<link rel="icon" type="image/svg+xml" href="/logo.svg"><link rel="icon" href="/fallback.png">
           <link rel="mask-icon" href="/mask.svg" color="#000">`,
        ),
      ),
      "/logo.svg": { body: HOSTILE_SVG_NO_ENTITY, type: "image/svg+xml" },
      "/mask.svg": { body: HOSTILE_SVG, type: "image/svg+xml" },
      "/fallback.png": image(iconPng(64, 64)),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    const requested = w.sites[0].requests.filter((path) => !CONVENTIONAL_ICONS.includes(path));
    assert.deepEqual(requested.toSorted(), ["/", "/fallback.png", "/logo.svg", "/mask.svg"]);
    const svg = outcome.tried.find((c) => c.url.endsWith("/logo.svg"))!;
    const mask = outcome.tried.find((c) => c.url.endsWith("/mask.svg"))!;
    assert.equal(mask.kind, "mask-icon");
    assert.equal(svg.result, "svg 64x64");
    assert.match(
      mask.result,
      /^Cannot decode image: corrupt data \(SVG: unknown entity reference 'ext'/,
    );
    assert.equal(outcome.source, "http://acme.test/logo.svg", "an SVG ranks first");
    const record = await w.store.get("acme.test");
    assert.equal(record?.type, "image/png", "stored rasterised");
    assert.equal(record?.width, 1200, "rasterised at SVG_RASTER_WIDTH");
  } finally {
    await w.close();
  }
});
