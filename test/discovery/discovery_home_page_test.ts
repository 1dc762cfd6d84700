/**
 * Discovery reaching a site's home page: redirects to the canonical host and URL resolution there,
 * https first with http fallback, https with a verified certificate, and an error status.
 */
import assert from "node:assert/strict";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { parseConnectTo } from "../../src/discovery/connect_to.ts";
import { createDiscovery } from "../../src/discovery/discover.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { iconPng, icoOf } from "../support/images.ts";
import { page } from "../support/discovery_sites.ts";
import { html, image, noDns, world } from "../support/discover_setup.ts";

Deno.test("discovery: follows the home page's redirect to the canonical host; relative and base-relative URLs resolve there", async () => {
  const w = await world({
    "acme.test": { "/": () => Response.redirect("http://www.acme.test/en/", 301) },
    "www.acme.test": {
      "/en/": html(page(`<base href="/static/"><link rel="icon" href="img/logo.png">
        <link rel="apple-touch-icon" href="//cdn.acme.test/touch.png">`)),
      "/static/img/logo.png": image(iconPng(256, 256)),
    },
    "cdn.acme.test": { "/touch.png": image(iconPng(180, 180)) },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.page, "http://www.acme.test/en/");
    assert.equal(outcome.source, "http://www.acme.test/static/img/logo.png");
    const urls = outcome.tried.map((c) => c.url);
    assert.ok(urls.includes("http://cdn.acme.test/touch.png"));
    assert.ok(
      urls.includes("http://www.acme.test/favicon.ico"),
      "fallbacks use the canonical root",
    );
  } finally {
    await w.close();
  }
});

Deno.test("discovery: tries https first and falls back to http when https is refused", async () => {
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/i.png">`)),
      "/i.png": image(iconPng(64, 64)),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.status, "stored");
    assert.equal(outcome.page, "http://acme.test/");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: a home page refused with an error status still gets the conventional icons tried", async () => {
  const w = await world({
    "acme.test": {
      "/": { body: "Forbidden", type: "text/plain", status: 403 },
      "/favicon.ico": image(icoOf([{ png: iconPng(32, 32), side: 32 }]), "image/x-icon"),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.status, "stored");
    assert.equal(outcome.source, "http://acme.test/favicon.ico");
    assert.match(outcome.pageError ?? "", /HTTP 403 from http:\/\/acme\.test\//);
  } finally {
    await w.close();
  }
});

Deno.test("discovery: a site served over https is read over https (certificate verified)", async () => {
  const tls = new URL("../fixtures/discovery_tls/", import.meta.url);
  const cert = Deno.readTextFileSync(new URL("cert.pem", tls));
  const icon = iconPng(200, 200);
  const server = Deno.serve(
    {
      hostname: "127.0.0.1",
      port: 0,
      cert,
      key: Deno.readTextFileSync(new URL("key.pem", tls)),
      onListen() {},
    },
    (req) =>
      new URL(req.url).pathname === "/"
        ? new Response(page(`<link rel="icon" href="/i.png">`), {
          headers: { "content-type": "text/html" },
        })
        : new URL(req.url).pathname === "/i.png"
        ? new Response(icon)
        : new Response("no", { status: 404 }),
  );
  const kv = await Deno.openKv(":memory:");
  await using imaging = startImagePool();
  await imaging.ready();
  try {
    const discovery = createDiscovery({
      kv,
      store: new LogoStore(kv),
      imaging,
      connectTo: parseConnectTo(`acme.test:443:127.0.0.1:${server.addr.port}`),
      resolve: noDns,
      caCerts: [cert],
    });
    const outcome = await discovery.discover("acme.test");
    assert.equal(outcome.page, "https://acme.test/");
    assert.equal(outcome.source, "https://acme.test/i.png");
    assert.equal(outcome.status, "stored");
  } finally {
    kv.close();
    await server.shutdown();
  }
});
