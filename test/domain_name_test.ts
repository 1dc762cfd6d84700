import { deepStrictEqual, strictEqual } from "node:assert";
import { lookupChain, normalizeDomain } from "../src/domain_name.ts";

Deno.test("normalizeDomain trims, lowercases and drops one trailing dot", () => {
  strictEqual(normalizeDomain("  Example.COM. "), "example.com");
  strictEqual(normalizeDomain("\tDocs.Example.co.uk\n"), "docs.example.co.uk");
  strictEqual(normalizeDomain("example.com"), "example.com");
});

Deno.test("normalizeDomain converts internationalised names to punycode", () => {
  strictEqual(normalizeDomain("bücher.de"), "xn--bcher-kva.de");
  strictEqual(normalizeDomain("BÜCHER.de"), "xn--bcher-kva.de");
  strictEqual(normalizeDomain("пример.рф"), "xn--e1afmkfd.xn--p1ai");
  strictEqual(normalizeDomain("xn--bcher-kva.de"), "xn--bcher-kva.de");
  // Full-width letters map to ASCII under UTS #46.
  strictEqual(normalizeDomain("ｅｘａｍｐｌｅ.com"), "example.com");
});

Deno.test("normalizeDomain refuses a protocol, path, port, query, fragment or user info", () => {
  for (
    const input of [
      "https://example.com",
      "http://example.com/",
      "example.com/logo.png",
      "example.com/",
      "example.com:443",
      "example.com?x=1",
      "example.com#top",
      "user@example.com",
      "user:pass@example.com",
      "example.com\\path",
      "exa%6Dple.com",
      "//example.com",
    ]
  ) {
    strictEqual(normalizeDomain(input), undefined, input);
  }
});

Deno.test("normalizeDomain refuses IP literals", () => {
  for (
    const input of ["1.2.3.4", "127.0.0.1", "0x7f.0.0.1", "127.1", "[::1]", "::1", "[2001:db8::1]"]
  ) {
    strictEqual(normalizeDomain(input), undefined, input);
  }
});

Deno.test("normalizeDomain refuses empty input, single labels and empty labels", () => {
  for (
    const input of ["", "   ", ".", "localhost", "com", "a..com", ".example.com", "example.com.."]
  ) {
    strictEqual(normalizeDomain(input), undefined, JSON.stringify(input));
  }
});

Deno.test("normalizeDomain refuses labels over 63 and names over 253 characters", () => {
  const label63 = "a".repeat(63);
  strictEqual(normalizeDomain(`${label63}.com`), `${label63}.com`);
  strictEqual(normalizeDomain(`${"a".repeat(64)}.com`), undefined);

  // 4 labels of 61 + "com" joined by dots: 61*4 + 4 + 3 = 251; one more char per step.
  const longest = `${"a".repeat(61)}.${"b".repeat(61)}.${"c".repeat(61)}.${"d".repeat(63)}.com`;
  strictEqual(longest.length, 253);
  strictEqual(normalizeDomain(longest), longest);
  strictEqual(normalizeDomain(`${longest}.`), longest, "trailing dot does not count");
  strictEqual(normalizeDomain(`e${longest}`), undefined);
});

Deno.test("normalizeDomain refuses characters outside letters, digits and inner hyphens", () => {
  for (
    const input of ["exa mple.com", "-example.com", "example-.com", "ex_ample.com", "ex*ample.com"]
  ) {
    strictEqual(normalizeDomain(input), undefined, input);
  }
  strictEqual(normalizeDomain("my-site.example.com"), "my-site.example.com");
  strictEqual(normalizeDomain("3m.com"), "3m.com");
});

Deno.test("normalizeDomain refuses a bare public suffix, ICANN or private", () => {
  for (const input of ["co.uk", "CO.UK.", "github.io", "blogspot.com", "com.au"]) {
    strictEqual(normalizeDomain(input), undefined, input);
  }
  strictEqual(normalizeDomain("example.co.uk"), "example.co.uk");
  strictEqual(normalizeDomain("foo.github.io"), "foo.github.io");
});

Deno.test("lookupChain lists the domain then each parent down to the registrable domain", () => {
  deepStrictEqual(lookupChain("a.b.example.com"), [
    "a.b.example.com",
    "b.example.com",
    "example.com",
  ]);
  deepStrictEqual(lookupChain("www.example.co.uk"), ["www.example.co.uk", "example.co.uk"]);
  deepStrictEqual(lookupChain("example.com"), ["example.com"]);
});

Deno.test("lookupChain never falls back to a public suffix, private ones included", () => {
  deepStrictEqual(lookupChain("foo.github.io"), ["foo.github.io"]);
  deepStrictEqual(lookupChain("docs.foo.github.io"), ["docs.foo.github.io", "foo.github.io"]);
  deepStrictEqual(lookupChain("shop.example.com.au"), ["shop.example.com.au", "example.com.au"]);
});

Deno.test("lookupChain of a name without a registrable domain is the name alone", () => {
  deepStrictEqual(lookupChain("co.uk"), ["co.uk"]);
  deepStrictEqual(lookupChain("localhost"), ["localhost"]);
});
