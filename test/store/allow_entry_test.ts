import assert from "node:assert/strict";
import { matchAllowlist, normalizeAllowEntry } from "../../src/store/allow_entry.ts";

Deno.test("allowlist entries normalise to origin, host or wildcard form", () => {
  assert.equal(normalizeAllowEntry("https://App.Example.com"), "https://app.example.com");
  assert.equal(normalizeAllowEntry("https://app.example.com/"), "https://app.example.com");
  assert.equal(normalizeAllowEntry("https://app.example.com:443"), "https://app.example.com");
  assert.equal(normalizeAllowEntry("http://localhost:3000"), "http://localhost:3000");
  assert.equal(normalizeAllowEntry("https://bücher.de"), "https://xn--bcher-kva.de");
  assert.equal(normalizeAllowEntry(" Example.COM. "), "example.com");
  assert.equal(normalizeAllowEntry("*.Example.com"), "*.example.com");
});

Deno.test("allowlist entries refuse paths, other schemes, user info and bare suffixes", () => {
  for (
    const bad of [
      "",
      "https://example.com/path",
      "https://example.com?x=1",
      "ftp://example.com",
      "https://user@example.com",
      "https://*.example.com",
      "*.co.uk",
      "*.com",
      "co.uk",
      "localhost",
      "example.com/path",
      "*example.com",
      "a.*.example.com",
    ]
  ) {
    assert.throws(() => normalizeAllowEntry(bad), RangeError, bad);
  }
});

Deno.test("allowlist matching: exact origins, hosts on any scheme, wildcards for subdomains", () => {
  const allow = ["https://app.example.com", "example.org", "*.example.net"];
  assert.equal(matchAllowlist(allow, "https://app.example.com"), "https://app.example.com");
  assert.equal(matchAllowlist(allow, "http://app.example.com"), null, "scheme differs");
  assert.equal(matchAllowlist(allow, "https://app.example.com:8443"), null, "port differs");
  assert.equal(matchAllowlist(allow, "https://example.org"), "https://example.org");
  assert.equal(matchAllowlist(allow, "http://example.org:8080"), "http://example.org:8080");
  assert.equal(matchAllowlist(allow, "https://www.example.org"), null, "host is exact");
  assert.equal(matchAllowlist(allow, "https://a.b.example.net"), "https://a.b.example.net");
  assert.equal(matchAllowlist(allow, "https://example.net"), null, "wildcard excludes apex");
  assert.equal(matchAllowlist(allow, "https://evilexample.net"), null);
  assert.equal(matchAllowlist(allow, "https://example.net.evil.com"), null);
});

Deno.test("allowlist matching takes a full Referer URL and refuses null or garbage", () => {
  const allow = ["https://app.example.com"];
  assert.equal(
    matchAllowlist(allow, "https://app.example.com/dashboard?x=1"),
    "https://app.example.com",
  );
  assert.equal(matchAllowlist(allow, null), null);
  assert.equal(matchAllowlist(allow, "null"), null);
  assert.equal(matchAllowlist(allow, "not a url"), null);
  assert.equal(matchAllowlist([], "https://app.example.com"), null);
});
