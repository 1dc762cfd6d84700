/**
 * Resolution: the exact domain, else its parents down to the registrable domain (public-suffix
 * aware), `X-Logo-Domain` naming what was served, and discovery on a miss.
 */
import assert from "node:assert/strict";
import { flatImage } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";
import type { LogoStore } from "../../src/store/logo_store.ts";

const PARENT = flatImage(120, 60, [200, 0, 0, 255]);
const CHILD = flatImage(120, 60, [0, 0, 200, 255]);

Deno.test("a subdomain without a logo is served its parent's, named in X-Logo-Domain", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", PARENT);
  const parent = await server.exchange(server.logoUrl("example.com"));
  const child = await server.exchange(server.logoUrl("docs.example.com"));
  assert.equal(child.status, 200);
  assert.equal(child.headers.get("x-logo-domain"), "example.com");
  assert.deepEqual(child.bytes, parent.bytes);
});

Deno.test("the nearest parent with a logo wins, and an exact match beats any parent", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", PARENT);
  await server.addLogo("b.example.com", CHILD);
  const deep = await server.exchange(server.logoUrl("a.b.example.com"));
  assert.equal(deep.headers.get("x-logo-domain"), "b.example.com");
  const exact = await server.exchange(server.logoUrl("b.example.com"));
  assert.equal(exact.headers.get("x-logo-domain"), "b.example.com");
  const other = await server.exchange(server.logoUrl("c.example.com"));
  assert.equal(other.headers.get("x-logo-domain"), "example.com");
  assert.notDeepEqual(deep.bytes, other.bytes);
});

Deno.test("fallback is public-suffix aware: foo.github.io never falls back to github.io", async () => {
  await using server = await startTestApp();
  // Stored directly: github.io is a public suffix, which the endpoint itself refuses.
  await server.logos.put("github.io", PARENT, { source: "test" });
  await server.logos.put("co.uk", PARENT, { source: "test" });
  const github = await server.exchange(server.logoUrl("foo.github.io"));
  assert.equal(github.status, 404);
  assert.equal(github.text, "Logo not found");
  const uk = await server.exchange(server.logoUrl("example.co.uk"));
  assert.equal(uk.status, 404);

  await server.addLogo("example.co.uk", CHILD);
  const www = await server.exchange(server.logoUrl("www.example.co.uk"));
  assert.equal(www.status, 200);
  assert.equal(www.headers.get("x-logo-domain"), "example.co.uk");
});

Deno.test("the served domain is the normalised one (punycode, lowercase)", async () => {
  await using server = await startTestApp();
  await server.addLogo("bücher.de", PARENT);
  const result = await server.exchange(server.logoUrl("WWW.B%C3%9CCHER.DE."));
  assert.equal(result.status, 200, result.text);
  assert.equal(result.headers.get("x-logo-domain"), "xn--bcher-kva.de");
});

Deno.test("on a miss, discover is called once for the requested domain and its logo served", async () => {
  const calls: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  let discoveryStarted!: () => void;
  const started = new Promise<void>((resolve) => discoveryStarted = resolve);
  const stored: { logos?: LogoStore } = {};
  await using server = await startTestApp({
    discover: async (domain) => {
      calls.push(domain);
      discoveryStarted();
      await gate;
      await stored.logos!.put(domain, CHILD, { source: "https://discovered" });
    },
  });
  stored.logos = server.logos;

  const pending = Array.from(
    { length: 5 },
    () => server.exchange(server.logoUrl("new.example.com")),
  );
  await started;
  release();
  const results = await Promise.all(pending);
  for (const result of results) {
    assert.equal(result.status, 200, result.text);
    assert.equal(result.headers.get("x-logo-domain"), "new.example.com");
  }
  assert.deepEqual(calls, ["new.example.com"]);

  await server.exchange(server.logoUrl("new.example.com"));
  assert.equal(calls.length, 1, "a hit does not discover");
});

Deno.test("a discovery that finds nothing or fails is a 404, and the failure is logged", async () => {
  const logged: string[] = [];
  await using server = await startTestApp({
    discover: (domain) =>
      domain.startsWith("broken") ? Promise.reject(new Error("boom")) : Promise.resolve(),
    app: { log: (message) => logged.push(message) },
  });
  const nothing = await server.exchange(server.logoUrl("nothing.example.com"));
  assert.equal(nothing.status, 404);
  assert.equal(nothing.text, "Logo not found");
  const broken = await server.exchange(server.logoUrl("broken.example.com"));
  assert.equal(broken.status, 404);
  assert.equal(broken.text, "Logo not found");
  assert.equal(logged.length, 1);
  assert.match(logged[0], /broken\.example\.com/);
});

Deno.test("a logo stored by another process is served within the 5 s record cache", async () => {
  const clock = { now: Date.UTC(2026, 0, 1) };
  await using server = await startTestApp({ clock: () => clock.now });
  assert.equal((await server.exchange(server.logoUrl("late.example.com"))).status, 404);
  // Written straight to KV, as `deno task admin logo add` in another process would.
  await server.logos.put("late.example.com", CHILD, { source: "test" });
  assert.equal(
    (await server.exchange(server.logoUrl("late.example.com"))).status,
    404,
    "cached miss",
  );
  clock.now += 5_001;
  const result = await server.exchange(server.logoUrl("late.example.com"));
  assert.equal(result.status, 200);
  assert.equal(result.headers.get("x-logo-domain"), "late.example.com");
});
