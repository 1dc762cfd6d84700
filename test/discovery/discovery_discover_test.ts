import assert from "node:assert/strict";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { type ConnectToMap, parseConnectTo } from "../../src/discovery/connect_to.ts";
import { createDiscovery, type DiscoveryConfig } from "../../src/discovery/discover.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { iconPng, icoOf } from "../support/images.ts";
import {
  type FixtureSite,
  mapHosts,
  page,
  type Route,
  startSite,
} from "../support/discovery_sites.ts";

const DAY = 24 * 60 * 60 * 1000;

/** DNS must never be used in these tests: every host is mapped, everything else is refused. */
const noDns = (name: string): Promise<string[]> => Promise.reject(new Error(`no DNS for ${name}`));

interface World {
  kv: Deno.Kv;
  store: LogoStore;
  sites: FixtureSite[];
  connectTo: ConnectToMap;
  now: { value: number };
  discovery: ReturnType<typeof createDiscovery>;
  close(): Promise<void>;
}

async function world(
  hosts: Record<string, Record<string, Route>>,
  config: Partial<DiscoveryConfig> = {},
): Promise<World> {
  const kv = await Deno.openKv(":memory:");
  const now = { value: Date.UTC(2026, 0, 1) };
  const clock = () => now.value;
  // Loaded before any budget or deadline starts (a first run type-checks the worker here).
  const imaging = startImagePool();
  await imaging.ready();
  const store = new LogoStore(kv, { clock, imaging });
  const sites: Record<string, FixtureSite> = {};
  for (const [host, routes] of Object.entries(hosts)) sites[host] = startSite(routes);
  const connectTo = mapHosts(sites);
  const discovery = createDiscovery({
    kv,
    store,
    imaging,
    connectTo,
    resolve: noDns,
    clock,
    ...config,
  });
  return {
    kv,
    store,
    sites: Object.values(sites),
    connectTo,
    now,
    discovery,
    async close() {
      for (const site of Object.values(sites)) await site.close();
      await imaging.close();
      kv.close();
    },
  };
}

const html = (text: string): Route => ({ body: text, type: "text/html; charset=utf-8" });
const image = (bytes: Uint8Array, type = "image/png"): Route => ({ body: bytes, type });

Deno.test("discovery: each candidate source on its own is found and stored with its source URL", async (t) => {
  const cases: [string, Record<string, Route>, string, number][] = [
    [
      "link rel=icon",
      { "/": html(page(`<link rel="icon" href="/i.png">`)), "/i.png": image(iconPng(96, 96)) },
      "/i.png",
      96,
    ],
    [
      "shortcut icon (ICO)",
      {
        "/": html(page(`<link rel="shortcut icon" href="/s.ico">`)),
        "/s.ico": image(icoOf([{ png: iconPng(48, 48), side: 48 }]), "image/x-icon"),
      },
      "/s.ico",
      48,
    ],
    [
      "apple-touch-icon",
      {
        "/": html(page(`<link rel="apple-touch-icon" href="/t.png">`)),
        "/t.png": image(iconPng(180, 180)),
      },
      "/t.png",
      180,
    ],
    [
      "apple-touch-icon-precomposed",
      {
        "/": html(page(`<link rel="apple-touch-icon-precomposed" href="/p.png">`)),
        "/p.png": image(iconPng(152, 152)),
      },
      "/p.png",
      152,
    ],
    [
      "web app manifest",
      {
        "/": html(page(`<link rel="manifest" href="/app/site.webmanifest">`)),
        "/app/site.webmanifest": {
          body: JSON.stringify({ icons: [{ src: "icons/512.png", sizes: "512x512" }] }),
          type: "application/manifest+json",
        },
        "/app/icons/512.png": image(iconPng(512, 512)),
      },
      "/app/icons/512.png",
      512,
    ],
    [
      "/favicon.ico fallback",
      {
        "/": html(page("")),
        "/favicon.ico": image(icoOf([{ png: iconPng(32, 32), side: 32 }]), "image/x-icon"),
      },
      "/favicon.ico",
      32,
    ],
    [
      "/apple-touch-icon.png fallback",
      { "/": html(page("")), "/apple-touch-icon.png": image(iconPng(180, 180)) },
      "/apple-touch-icon.png",
      180,
    ],
    [
      "JSON-LD logo",
      {
        "/": html(page(
          `<script type="application/ld+json">{"@type":"Organization","logo":{"@type":"ImageObject","url":"/brand.png"}}</script>`,
        )),
        "/brand.png": image(iconPng(300, 100)),
      },
      "/brand.png",
      300,
    ],
    [
      "og:image",
      {
        "/": html(page(`<meta property="og:image" content="/og.png">`)),
        "/og.png": image(iconPng(400, 400)),
      },
      "/og.png",
      400,
    ],
  ];
  for (const [name, routes, path, width] of cases) {
    await t.step(name, async () => {
      const w = await world({ "acme.test": routes });
      try {
        const outcome = await w.discovery.discover("acme.test");
        assert.equal(outcome.status, "stored", JSON.stringify(outcome.tried));
        assert.equal(outcome.source, `http://acme.test${path}`);
        const record = await w.store.get("acme.test");
        assert.equal(record?.source, `http://acme.test${path}`);
        assert.equal(record?.width, width);
        assert.equal(record?.createdAt, w.now.value);
      } finally {
        await w.close();
      }
    });
  }
});

Deno.test("discovery: an inline data: icon is decoded locally and stored", async () => {
  const b64 = btoa(String.fromCharCode(...iconPng(64, 64)));
  const w = await world({
    "acme.test": { "/": html(page(`<link rel="icon" href="data:image/png;base64,${b64}">`)) },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.status, "stored");
    assert.ok(outcome.source?.startsWith("data:image/png"));
    const record = await w.store.get("acme.test");
    assert.equal(record?.width, 64);
    assert.equal(record?.source, "http://acme.test/ (inline data: icon)");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: among competing candidates the largest square raster wins; a wide og:image loses", async () => {
  const w = await world({
    "acme.test": {
      "/": html(page(`
        <meta property="og:image" content="/card.png">
        <link rel="icon" sizes="512x512" href="/liar-32.png">
        <link rel="apple-touch-icon" href="/touch.png">
        <link rel="manifest" href="/manifest.json">`)),
      "/card.png": image(iconPng(1200, 630)),
      "/liar-32.png": image(iconPng(32, 32)), // declares 512x512: measured, not trusted
      "/touch.png": image(iconPng(180, 180)),
      "/manifest.json": {
        body: JSON.stringify({ icons: [{ src: "/m-384.png", sizes: "16x16" }] }),
        type: "application/json",
      },
      "/m-384.png": image(iconPng(384, 384)),
      "/favicon.ico": image(icoOf([{ png: iconPng(16, 16), side: 16 }]), "image/x-icon"),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.status, "stored");
    assert.equal(outcome.source, "http://acme.test/m-384.png");
    assert.deepEqual(
      Object.fromEntries(outcome.tried.map((c) => [new URL(c.url).pathname, c.result])),
      {
        "/liar-32.png": "png 32x32",
        "/touch.png": "png 180x180",
        "/m-384.png": "png 384x384",
        "/favicon.ico": "ico 16x16",
        "/apple-touch-icon.png": "HTTP 404 from http://acme.test/apple-touch-icon.png",
        "/card.png": "png 1200x630",
      },
    );
  } finally {
    await w.close();
  }
});

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

Deno.test("discovery: broken and lying icons are sniffed and skipped for the next best", async () => {
  const big = iconPng(512, 512, [10, 120, 200, 255]);
  const w = await world({
    "acme.test": {
      "/": html(page(`
        <link rel="icon" href="/html.png">
        <link rel="icon" href="/truncated.png">
        <link rel="icon" href="/garbage.ico">
        <link rel="icon" href="/zeros.gif">
        <link rel="icon" href="/really-a-png.svg">
        <link rel="apple-touch-icon" href="/ok.png">`)),
      "/html.png": image(
        new TextEncoder().encode("<!DOCTYPE html><html><body>Not found</body></html>"),
      ),
      "/truncated.png": image(big.subarray(0, 60)),
      "/garbage.ico": image(
        icoOf([{ png: iconPng(64, 64), side: 64 }]).subarray(0, 40),
        "image/x-icon",
      ),
      "/zeros.gif": image(new Uint8Array(2048), "image/gif"),
      "/really-a-png.svg": image(iconPng(48, 48), "image/svg+xml"),
      "/ok.png": image(iconPng(120, 120)),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    const results = Object.fromEntries(
      outcome.tried.map((c) => [new URL(c.url).pathname, c.result]),
    );
    assert.equal(results["/html.png"], "HTML, not an image");
    assert.match(results["/truncated.png"], /^Cannot decode image: corrupt data/);
    assert.match(results["/garbage.ico"], /Cannot decode image/);
    assert.equal(results["/zeros.gif"], "Cannot decode image: unsupported format");
    assert.equal(
      results["/really-a-png.svg"],
      "png 48x48",
      "content sniffed, not the name or type",
    );
    assert.equal(outcome.source, "http://acme.test/ok.png");
    assert.equal((await w.store.get("acme.test"))?.width, 120);
  } finally {
    await w.close();
  }
});

Deno.test("discovery: a PNG whose header probes fine but whose data is cut is refused at full decode", async () => {
  const full = iconPng(400, 400, [1, 2, 3, 255]);
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/cut.png"><link rel="icon" href="/ok.png">`)),
      "/cut.png": image(full.subarray(0, Math.floor(full.length * 0.6))),
      "/ok.png": image(iconPng(64, 64)),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    const cut = outcome.tried.find((c) => c.url.endsWith("/cut.png"))!;
    assert.match(cut.result, /^png 400x400: Cannot decode image: corrupt data/);
    assert.equal(outcome.source, "http://acme.test/ok.png");
  } finally {
    await w.close();
  }
});

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
    const requested = w.sites[0].requests.filter((path) =>
      !path.startsWith("/favicon.ico") && path !== "/apple-touch-icon.png"
    );
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

Deno.test("discovery: an icon redirecting to 127.0.0.1 is refused unless that host is mapped", async () => {
  let internal = 0;
  const inside = startSite({ "/admin.png": () => (internal++, new Response(iconPng(512, 512))) });
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/go.png"><link rel="icon" href="/small.png">`)),
      "/go.png": () => Response.redirect(`http://127.0.0.1:${inside.port}/admin.png`, 302),
      "/small.png": image(iconPng(32, 32)),
    },
  });
  try {
    const outcome = await w.discovery.discover("acme.test");
    const go = outcome.tried.find((c) => c.url.endsWith("/go.png"))!;
    assert.equal(go.result, "Refused 127.0.0.1: loopback address is not public");
    assert.equal(internal, 0);
    assert.equal(outcome.source, "http://acme.test/small.png");
  } finally {
    await w.close();
    await inside.close();
  }
});

Deno.test("discovery: huge and endless icon responses are cut at the byte cap; the next best wins", async () => {
  const w = await world({
    "acme.test": {
      "/": html(
        page(
          `<link rel="icon" href="/huge.png"><link rel="icon" href="/endless.png"><link rel="icon" href="/ok.png">`,
        ),
      ),
      "/huge.png": image(new Uint8Array(200 * 1024)),
      "/endless.png": () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(iconPng(512, 512).subarray(0, 33));
            },
            pull(controller) {
              controller.enqueue(new Uint8Array(8192));
            },
          }),
          { headers: { "content-type": "image/png" } },
        ),
      "/ok.png": image(iconPng(100, 100)),
    },
  }, { maxBytes: 64 * 1024 });
  try {
    const outcome = await w.discovery.discover("acme.test");
    const results = Object.fromEntries(
      outcome.tried.map((c) => [new URL(c.url).pathname, c.result]),
    );
    assert.equal(
      results["/huge.png"],
      "Refused http://acme.test/huge.png: body exceeds 65536 bytes",
    );
    assert.equal(
      results["/endless.png"],
      "Refused http://acme.test/endless.png: body exceeds 65536 bytes",
    );
    assert.equal(outcome.source, "http://acme.test/ok.png");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: the time budget cuts a slow icon, and the icons already measured still count", async () => {
  let slowArrived!: () => void;
  const arrived = new Promise<void>((resolve) => slowArrived = resolve);
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/slow.png"><link rel="icon" href="/ok.png">`)),
      "/slow.png": async () => {
        slowArrived();
        await w.sites[0].held; // never answers before the test ends
        return new Response(iconPng(512, 512));
      },
      "/ok.png": image(iconPng(64, 64)),
    },
  }, { budgetMs: 1500, parallelFetches: 4 });
  try {
    const pending = w.discovery.discover("acme.test");
    await arrived;
    const outcome = await pending;
    const slow = outcome.tried.find((c) => c.url.endsWith("/slow.png"))!;
    assert.equal(slow.result, "Gave up on http://acme.test/slow.png: time budget exhausted");
    assert.equal(outcome.source, "http://acme.test/ok.png");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: a home page that never answers ends within the budget as not found", async () => {
  const w = await world({
    "acme.test": { "/": async () => (await w.sites[0].held, new Response("late")) },
  }, { budgetMs: 200 });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.equal(outcome.status, "not-found");
    assert.match(outcome.pageError ?? "", /time budget exhausted/);
    assert.equal(await w.store.get("acme.test"), null);
  } finally {
    await w.close();
  }
});

Deno.test("discovery: a site with no icon is remembered as missing for a day (negative cache)", async () => {
  const w = await world({ "acme.test": { "/": html(page("")) } });
  try {
    const first = await w.discovery.discover("acme.test");
    assert.equal(first.status, "not-found");
    assert.deepEqual(first.tried.map((c) => c.result), [
      "HTTP 404 from http://acme.test/favicon.ico",
      "HTTP 404 from http://acme.test/apple-touch-icon.png",
    ]);
    const requests = w.sites[0].requests.length;
    w.now.value += DAY - 1;
    assert.equal((await w.discovery.discover("acme.test")).status, "known-missing");
    assert.equal(w.sites[0].requests.length, requests, "nothing fetched while remembered");
    w.now.value += 2;
    assert.equal((await w.discovery.discover("acme.test")).status, "not-found");
    assert.ok(w.sites[0].requests.length > requests, "looked again after a day");
    assert.equal((await w.discovery.discover("acme.test", { force: true })).status, "not-found");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: an unmapped host that does not resolve to a public address is not contacted", async () => {
  const w = await world({}, { resolve: () => Promise.resolve(["127.0.0.1"]) });
  try {
    const outcome = await w.discovery.discover("internal.test");
    assert.equal(outcome.status, "not-found");
    assert.match(
      outcome.pageError ?? "",
      /Refused internal\.test: resolves to 127\.0\.0\.1 \(loopback\)/,
    );
  } finally {
    await w.close();
  }
});

Deno.test("discovery: concurrent discoveries of one domain share one run", async () => {
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/i.png">`)),
      "/i.png": image(iconPng(64, 64)),
    },
  });
  try {
    const [a, b, c] = await Promise.all([
      w.discovery.discover("acme.test"),
      w.discovery.discover("acme.test"),
      w.discovery.discover("acme.test"),
    ]);
    assert.equal(a, b);
    assert.equal(b, c);
    assert.equal(w.sites[0].requests.filter((p) => p === "/").length, 1);
    assert.equal((await w.discovery.discover("acme.test")).status, "fresh");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: an old discovered logo is refreshed, never replaced by a worse one", async () => {
  let icon = iconPng(256, 256, [0, 0, 255, 255]);
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/i.png">`)),
      "/i.png": () => new Response(icon),
    },
  });
  try {
    assert.equal((await w.discovery.discover("acme.test")).status, "stored");
    const first = await w.store.get("acme.test");
    icon = iconPng(32, 32, [255, 0, 0, 255]); // the site now offers a worse icon
    w.now.value += 29 * DAY;
    assert.equal((await w.discovery.discover("acme.test")).status, "fresh");
    w.now.value += 2 * DAY;
    assert.equal((await w.discovery.discover("acme.test")).status, "kept");
    assert.equal((await w.store.get("acme.test"))?.hash, first?.hash);
    icon = iconPng(512, 512, [0, 255, 0, 255]); // and later a better one
    w.now.value += 31 * DAY;
    assert.equal((await w.discovery.discover("acme.test")).status, "stored");
    assert.equal((await w.store.get("acme.test"))?.width, 512);
  } finally {
    await w.close();
  }
});

Deno.test("discovery: an operator's logo is left alone unless forced", async () => {
  const w = await world({
    "acme.test": {
      "/": html(page(`<link rel="icon" href="/i.png">`)),
      "/i.png": image(iconPng(300, 300)),
    },
  });
  try {
    await w.store.put("acme.test", iconPng(40, 40), { source: "file:acme.test.png" });
    assert.equal((await w.discovery.discover("acme.test")).status, "operator");
    assert.deepEqual(w.sites[0].requests, []);
    assert.equal((await w.discovery.discover("acme.test", { force: true })).status, "stored");
    assert.equal((await w.store.get("acme.test"))?.source, "http://acme.test/i.png");
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

Deno.test("discovery: the refresh sweep revisits only discovered logos older than the refresh age", async () => {
  const site = {
    "/": html(page(`<link rel="icon" href="/i.png">`)),
    "/i.png": image(iconPng(64, 64)),
  };
  const w = await world({ "a.test": site, "b.test": site });
  try {
    assert.equal((await w.discovery.discover("a.test")).status, "stored");
    assert.equal((await w.discovery.discover("b.test")).status, "stored");
    assert.deepEqual(await w.discovery.refreshStale(), [], "nothing is old yet");
    await w.store.put("b.test", iconPng(50, 50), { source: "file:b.test.png" }); // an operator's now
    w.now.value += 30 * DAY;
    const outcomes = await w.discovery.refreshStale();
    assert.deepEqual(outcomes.map((o) => [o.domain, o.status]), [["a.test", "unchanged"]]);
    assert.equal((await w.kv.get(["discovery", "found", "b.test"])).value, null);
    assert.equal((await w.store.get("b.test"))?.source, "file:b.test.png");
    assert.deepEqual(await w.discovery.refreshStale(), [], "refreshed just now");
  } finally {
    await w.close();
  }
});

Deno.test("discovery: under the fetch cap, icons declaring larger sizes are fetched first", async () => {
  const sizes = [57, 60, 72, 76, 114, 120, 144, 152, 180];
  const routes: Record<string, Route> = {
    "/": html(
      page(
        sizes.map((s) => `<link rel="apple-touch-icon" sizes="${s}x${s}" href="/t${s}.png">`).join(
          "",
        ),
      ),
    ),
  };
  for (const s of sizes) routes[`/t${s}.png`] = image(iconPng(s, s));
  const w = await world({ "acme.test": routes }, { maxFetches: 3 });
  try {
    const outcome = await w.discovery.discover("acme.test");
    assert.deepEqual(outcome.tried.map((c) => new URL(c.url).pathname), [
      "/t180.png",
      "/t152.png",
      "/t144.png",
    ]);
    assert.equal(outcome.source, "http://acme.test/t180.png");
  } finally {
    await w.close();
  }
});
