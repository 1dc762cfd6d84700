/**
 * BIMI: the `default._bimi.DOMAIN` TXT record, looked up with `Deno.resolveDns` on a DNS server
 * on loopback (`LOGO_DNS_SERVER`-style `dnsServer`), names an SVG fetched through the same safe
 * path (over https, the fixture certificate) and ranked first; a record that is missing, invalid
 * or names something other than a square SVG changes nothing.
 */
import assert from "node:assert/strict";
import { bimiLogoUrl, parseDnsServer } from "../../src/discovery/bimi.ts";
import { parseConnectTo } from "../../src/discovery/connect_to.ts";
import { createDiscovery } from "../../src/discovery/discover.ts";
import { IN_PROCESS } from "../../src/store/logo_ingest.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { startDnsServer } from "../support/dns_server.ts";
import { iconPng } from "../support/images.ts";
import { FIXTURE_CERT as CERT, httpsSite, page } from "../support/discovery_sites.ts";

const noDns = (name: string): Promise<string[]> => Promise.reject(new Error(`no DNS for ${name}`));
const SQUARE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" ` +
  `viewBox="0 0 100 100"><title>Acme</title><rect width="100" height="100" fill="#e30"/></svg>`;
const WIDE_SVG = SQUARE_SVG.replace('viewBox="0 0 100 100"', 'viewBox="0 0 400 100"');

/** acme.test over https: a 512-px icon declared by the page, and the BIMI SVGs. */
function acmeSite() {
  return httpsSite({
    "/": () =>
      new Response(page(`<link rel="icon" sizes="512x512" href="/icon-512.png">`), {
        headers: { "content-type": "text/html" },
      }),
    "/icon-512.png": () =>
      new Response(iconPng(512, 512), { headers: { "content-type": "image/png" } }),
    "/bimi.svg": () => new Response(SQUARE_SVG, { headers: { "content-type": "image/svg+xml" } }),
    "/wide.svg": () => new Response(WIDE_SVG, { headers: { "content-type": "image/svg+xml" } }),
    "/logo.png": () =>
      new Response(iconPng(600, 600), { headers: { "content-type": "image/png" } }),
  });
}

async function discoverWith(record: string[][] | undefined) {
  const site = acmeSite();
  const dns = await startDnsServer(record ? { "default._bimi.acme.test": record } : {});
  const kv = await Deno.openKv(":memory:");
  try {
    const discovery = createDiscovery({
      imaging: IN_PROCESS,
      kv,
      store: new LogoStore(kv),
      connectTo: parseConnectTo(`acme.test:443:127.0.0.1:${site.port}`),
      resolve: noDns,
      dnsServer: parseDnsServer(`127.0.0.1:${dns.port}`),
      caCerts: [CERT],
    });
    const outcome = await discovery.discover("acme.test");
    return { outcome, questions: dns.questions, requests: site.requests };
  } finally {
    kv.close();
    await dns.close();
    await site.close();
  }
}

Deno.test("BIMI: the SVG the DNS record names is fetched over the safe path and ranks first", async () => {
  const { outcome, questions, requests } = await discoverWith([
    ["v=BIMI1; l=https://acme.test/bimi.svg; a=;"],
  ]);
  assert.deepEqual(questions, ["TXT default._bimi.acme.test"]);
  assert.equal(outcome.status, "stored");
  assert.equal(outcome.source, "https://acme.test/bimi.svg");
  assert.ok(requests.includes("/icon-512.png"), "the page's icons are still fetched");
  assert.match(outcome.why![0], /^tier 0 of 0-8, square BIMI logo/);
});

Deno.test("BIMI: a record split in several strings is joined", async () => {
  const { outcome } = await discoverWith([["v=BIMI1; l=https://acme.test/", "bimi.svg"]]);
  assert.equal(outcome.source, "https://acme.test/bimi.svg");
});

Deno.test("BIMI: no record, an invalid one, a non-SVG or a wide SVG leaves the site's icons to win", async () => {
  for (
    const record of [
      undefined,
      [["v=BIMI1; l=http://acme.test/bimi.svg"]], // not https
      [["v=spf1 -all"], ["l=https://acme.test/bimi.svg"]], // no v=BIMI1
      [["v=BIMI1; l=https://acme.test/logo.png"]], // not an SVG
      [["v=BIMI1; l=https://acme.test/wide.svg"]], // not square
    ]
  ) {
    const { outcome } = await discoverWith(record);
    assert.equal(outcome.source, "https://acme.test/icon-512.png", JSON.stringify(record));
  }
});

Deno.test("BIMI: record parsing and LOGO_DNS_SERVER", () => {
  assert.equal(bimiLogoUrl("v=BIMI1;l=https://a.test/l.svg"), "https://a.test/l.svg");
  assert.equal(bimiLogoUrl("v=BIMI1; l=; a=;"), undefined, "declined");
  assert.equal(bimiLogoUrl("l=https://a.test/l.svg; v=BIMI1"), undefined, "v= must come first");
  assert.equal(bimiLogoUrl("v=BIMI1; l=ftp://a.test/l.svg"), undefined);
  assert.deepEqual(parseDnsServer("127.0.0.1:5353"), { ipAddr: "127.0.0.1", port: 5353 });
  assert.deepEqual(parseDnsServer("[::1]:53"), { ipAddr: "::1", port: 53 });
  assert.deepEqual(parseDnsServer("10.0.0.2"), { ipAddr: "10.0.0.2", port: 53 });
  assert.equal(parseDnsServer(""), undefined);
  for (const bad of ["dns.example:53", "127.0.0.1:0", "127.0.0.1:99999", "300.1.1.1:53"]) {
    assert.throws(() => parseDnsServer(bad), /Invalid LOGO_DNS_SERVER ".*": expected address:port/);
  }
});
