import assert from "node:assert/strict";
import { MAX_REFRESHES, refreshTarget } from "../../src/discovery/meta_refresh.ts";
import { iconPng } from "../support/images.ts";
import { page } from "../support/discovery_sites.ts";
import { html, image, world } from "../support/discover_setup.ts";

Deno.test("meta refresh: the content attribute is read as browsers read it", () => {
  const at = (content: string, base = "https://a.test/x/") =>
    refreshTarget(`<meta http-equiv="Refresh" content="${content}">`, base);
  assert.equal(at("0; url=/en/"), "https://a.test/en/");
  assert.equal(at("0;URL='home.html'"), "https://a.test/x/home.html");
  assert.equal(at("5, url=https://www.a.test/"), "https://www.a.test/");
  assert.equal(at("0; https://b.test/#top"), "https://b.test/");
  assert.equal(at("30"), undefined, "a plain reload goes nowhere");
  assert.equal(at("0; url=/x/"), undefined, "the page itself");
  assert.equal(at("0; url=javascript:alert(1)"), undefined);
  assert.equal(at("0; url=http://a.test/en/"), undefined, "never https to http");
  assert.equal(at("0; url=http://a.test/en/", "http://a.test/"), "http://a.test/en/");
  assert.equal(
    refreshTarget(`<meta name="refresh" content="0; url=/en/">`, "https://a.test/"),
    undefined,
  );
});

Deno.test("meta refresh: followed at most MAX_REFRESHES times, through the same fetch", async () => {
  const hop = (to: string) => html(page(`<meta http-equiv="refresh" content="0; url=${to}">`));
  const w = await world({
    "acme.test": {
      "/": hop("/one/"),
      "/one/": hop("/two/"),
      "/two/": html(
        page(
          `<meta http-equiv="refresh" content="0; url=/three/"><link rel="icon" href="/i2.png">`,
        ),
      ),
      "/three/": html(page(`<link rel="icon" href="/i3.png">`)),
      "/i2.png": image(iconPng(64, 64)),
      "/i3.png": image(iconPng(128, 128)),
    },
  });
  try {
    assert.equal(MAX_REFRESHES, 2);
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.page, "http://acme.test/two/");
    assert.equal(outcome.source, "http://acme.test/i2.png");
    assert.ok(!w.sites[0].requests.includes("/three/"));
  } finally {
    await w.close();
  }
});
