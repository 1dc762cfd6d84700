/**
 * The SDK's domain check is the server's without the public-suffix list: on every input the two
 * agree, except a bare public suffix, which the SDK passes and the server refuses (its `400`).
 */
import assert from "node:assert/strict";
import { normalizeDomain } from "../../src/domain_name.ts";
import { normalizeDomainSyntax } from "../../src/sdk/domain_syntax.ts";

const INPUTS = [
  "  Example.COM. ",
  "\tDocs.Example.co.uk\n",
  "bücher.de",
  "пример.рф",
  "ｅｘａｍｐｌｅ.com",
  "foo.github.io",
  "3m.com",
  "https://example.com",
  "example.com/logo.png",
  "example.com:443",
  "example.com?x=1",
  "user@example.com",
  "exa%6Dple.com",
  "1.2.3.4",
  "0x7f.0.0.1",
  "127.1",
  "[::1]",
  "",
  "localhost",
  "a..com",
  "example.com..",
  `${"a".repeat(64)}.com`,
  "-example.com",
  "ex_ample.com",
];
const PUBLIC_SUFFIXES = ["co.uk", "CO.UK.", "github.io", "blogspot.com", "com.au"];

Deno.test("the SDK's check and the server's agree on everything but a bare public suffix", () => {
  for (const input of INPUTS) {
    assert.equal(normalizeDomainSyntax(input), normalizeDomain(input), JSON.stringify(input));
  }
  assert.equal(INPUTS.filter((input) => normalizeDomain(input) !== undefined).length, 7);
});

Deno.test("a bare public suffix passes the SDK's check and is the server's to refuse", () => {
  for (const input of PUBLIC_SUFFIXES) {
    assert.equal(normalizeDomainSyntax(input), input.toLowerCase().replace(/\.$/, ""), input);
    assert.equal(normalizeDomain(input), undefined, input);
  }
});
