import assert from "node:assert/strict";
import { parseAdminArgs } from "../../src/admin/main.ts";
import { UsageError } from "../../src/admin/usage.ts";
import { parseDiscoverCommand } from "../../src/admin/discover_command.ts";
import { readAdminSettings } from "../../src/admin/admin_settings.ts";
import { discoveryEnabled, startDiscoveryService } from "../../src/discovery/service.ts";
import { readSettings } from "../../src/settings/read_settings.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { iconPng } from "../support/images.ts";
import { connectToValue, page, startSite } from "../support/discovery_sites.ts";
import { startTestApp } from "../support/server.ts";

const noDns = (name: string): Promise<string[]> => Promise.reject(new Error(`no DNS for ${name}`));

Deno.test("endpoint: a miss discovers the logo within the request budget and serves it", async () => {
  const site = startSite({
    "/": { body: page(`<link rel="icon" href="/logo.png">`) },
    "/logo.png": { body: iconPng(300, 300), type: "image/png" },
  });
  const kv = await Deno.openKv(":memory:");
  const env = { LOGO_CONNECT_TO: connectToValue({ "acme.test": site }) };
  const discovery = startDiscoveryService(kv, readSettings(env, "serve"), {
    resolve: noDns,
    sweepMs: 0,
  })!;
  await discovery.ready(); // imagecore loaded before the request budget starts
  const server = await startTestApp({ kv, discover: discovery.discover });
  try {
    const response = await server.fetch(server.logoUrl("www.acme.test"));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "image/png");
    assert.equal(
      response.headers.get("x-logo-domain"),
      "acme.test",
      "the registrable domain was discovered",
    );
    await response.body?.cancel();
    assert.equal((await server.logos.get("acme.test"))?.source, "http://acme.test/logo.png");
  } finally {
    await server.close();
    await discovery.close();
    await site.close();
    kv.close();
  }
});

Deno.test("endpoint: a discovery slower than the request budget answers 404, then finishes in the background", async () => {
  let pageRequested!: () => void;
  const requested = new Promise<void>((resolve) => pageRequested = resolve);
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => answer = resolve);
  const site = startSite({
    "/": async () => {
      pageRequested();
      await answered;
      return new Response(page(`<link rel="icon" href="/logo.png">`), {
        headers: { "content-type": "text/html" },
      });
    },
    "/logo.png": { body: iconPng(128, 128), type: "image/png" },
  });
  const kv = await Deno.openKv(":memory:");
  const env = { LOGO_CONNECT_TO: connectToValue({ "acme.test": site }) };
  const discovery = startDiscoveryService(kv, readSettings(env, "serve"), {
    resolve: noDns,
    sweepMs: 0,
    requestBudgetMs: 50,
  })!;
  await discovery.ready();
  const server = await startTestApp({
    kv,
    discover: discovery.discover,
    app: { logoCacheTtlMs: 0 },
  });
  try {
    const miss = await server.fetch(server.logoUrl("acme.test"));
    assert.equal(miss.status, 404);
    assert.equal(await miss.text(), "Logo not found");
    await requested;
    answer();
    // The background discovery is the one in flight: joining it waits for it to finish.
    assert.equal((await discovery.discovery.discover("acme.test")).status, "stored");
    const hit = await server.fetch(server.logoUrl("acme.test"));
    assert.equal(hit.status, 200);
    await hit.body?.cancel();
  } finally {
    answer();
    await server.close();
    await discovery.close();
    await site.close();
    kv.close();
  }
});

Deno.test("endpoint: LOGO_DISCOVERY=off disables discovery; other values are refused", async () => {
  assert.equal(discoveryEnabled(undefined), true);
  assert.equal(discoveryEnabled("ON"), true);
  assert.equal(discoveryEnabled("off"), false);
  assert.throws(
    () => discoveryEnabled("maybe"),
    /Invalid LOGO_DISCOVERY "maybe": expected on or off/,
  );
  const kv = await Deno.openKv(":memory:");
  try {
    assert.equal(
      startDiscoveryService(kv, readSettings({ LOGO_DISCOVERY: "off" }, "serve")),
      undefined,
    );
    assert.throws(
      () => startDiscoveryService(kv, readSettings({ LOGO_CONNECT_TO: "bad" }, "serve")),
      /Invalid LOGO_CONNECT_TO entry "bad"/,
    );
  } finally {
    kv.close();
  }
});

Deno.test("admin: logo discover DOMAIN stores the logo and prints the outcome as JSON", async () => {
  const site = startSite({
    "/": { body: page(`<link rel="apple-touch-icon" href="/touch.png">`) },
    "/touch.png": { body: iconPng(180, 180), type: "image/png" },
  });
  const kv = await Deno.openKv(":memory:");
  const out: string[] = [];
  const err: string[] = [];
  const context = {
    kv,
    settings: readAdminSettings({ LOGO_CONNECT_TO: connectToValue({ "acme.test": site }) }),
    stdout: (t: string) => out.push(t),
    stderr: (t: string) => err.push(t),
    stderrIsTerminal: false,
  };
  try {
    const env = { config: { resolve: noDns } };
    const status = await parseDiscoverCommand(["ACME.test."], env).run(context);
    assert.equal(status, 0);
    const printed = JSON.parse(out.join(""));
    assert.equal(printed.status, "stored");
    assert.equal(printed.source, "http://acme.test/touch.png");
    assert.equal(
      printed.why[0],
      "tier 3 of 0-8, square raster of 64-255 px: png 180x180 from apple-touch-icon",
      "the JSON says why the winner won",
    );
    assert.equal((await new LogoStore(kv).get("acme.test"))?.width, 180);
    out.length = 0;
    assert.equal(await parseDiscoverCommand(["acme.test"], env).run(context), 0);
    assert.equal(JSON.parse(out.join("")).status, "fresh");
    out.length = 0;
    assert.equal(await parseDiscoverCommand(["acme.test", "--force"], env).run(context), 0);
    assert.equal(JSON.parse(out.join("")).status, "unchanged");
    out.length = 0;
    assert.equal(await parseDiscoverCommand(["nothing.test"], env).run(context), 1);
    assert.equal(JSON.parse(out.join("")).status, "not-found");
    assert.match(err.join(""), /No logo found for nothing\.test/);
  } finally {
    await site.close();
    kv.close();
  }
});

Deno.test("admin: logo discover refuses bad arguments with a usage error", () => {
  for (
    const args of [["logo", "discover"], ["logo", "discover", "http://acme.test/"], [
      "logo",
      "discover",
      "a.test",
      "--frce",
    ]]
  ) {
    assert.throws(() => parseAdminArgs(args), UsageError, args.join(" "));
  }
  assert.throws(
    () => readAdminSettings({ LOGO_CONNECT_TO: "acme.test:80" }),
    (e: Error) => e instanceof UsageError && /Invalid LOGO_CONNECT_TO entry/.test(e.message),
  );
  assert.throws(
    () => readAdminSettings({ LOGO_DNS_SERVER: "dns.test" }),
    (e: Error) => e instanceof UsageError && /Invalid LOGO_DNS_SERVER "dns\.test"/.test(e.message),
  );
  assert.doesNotThrow(() => parseAdminArgs(["logo", "discover", "acme.test", "--force"]));
});
