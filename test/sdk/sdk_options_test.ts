import assert from "node:assert/strict";
import { BadRequestError } from "../../src/sdk/errors.ts";
import { checkDomain, type LogoOptions, logoUrl, validateOptions } from "../../src/sdk/options.ts";

Deno.test("validateOptions accepts sizes 1 to 1200 and the server's themes and formats", () => {
  for (const size of [1, 128, 800, 1200]) validateOptions({ size });
  validateOptions({ greyscale: true, theme: "dark", format: "webp", fallbackToParent: false });
  validateOptions({});
});

Deno.test("validateOptions refuses each bad option with a BadRequestError naming it", () => {
  const bad: [LogoOptions, RegExp][] = [
    [{ size: 0 }, /^Invalid size/],
    [{ size: 1201 }, /^Invalid size: .*1 to 1200/],
    [{ size: 12.5 }, /^Invalid size/],
    [{ size: NaN }, /^Invalid size/],
    [{ greyscale: "yes" as unknown as boolean }, /^Invalid greyscale/],
    [{ theme: "blue" as "dark" }, /^Invalid theme/],
    [{ format: "gif" as "png" }, /^Invalid format/],
    [{ fallbackToParent: 1 as unknown as boolean }, /^Invalid fallbackToParent/],
  ];
  for (const [options, message] of bad) {
    assert.throws(() => validateOptions(options), (e: unknown) => {
      assert.ok(e instanceof BadRequestError, `${JSON.stringify(options)} gave ${e}`);
      assert.equal(e.status, 400);
      assert.match(e.text, message);
      return true;
    });
  }
});

Deno.test("checkDomain normalises like the server and refuses what is no host name", () => {
  assert.equal(checkDomain("  Example.COM. "), "example.com");
  assert.equal(checkDomain("bücher.de"), "xn--bcher-kva.de");
  // A bare public suffix is the server's to refuse (its 400 arrives as a BadRequestError too).
  assert.equal(checkDomain("co.uk"), "co.uk");
  for (const bad of ["https://example.com", "example.com/x", "example.com:80", "1.2.3.4"]) {
    assert.throws(() => checkDomain(bad), (e: unknown) => {
      assert.ok(e instanceof BadRequestError);
      assert.equal(e.text, "Invalid domain format");
      return true;
    });
  }
});

Deno.test("logoUrl puts the domain in the path and only the given options in the query", () => {
  const base = new URL("https://logos.example.com/api/");
  assert.equal(logoUrl(base, "example.com", {}).href, "https://logos.example.com/api/example.com");
  const url = logoUrl(base, "example.com", {
    size: 1200,
    greyscale: true,
    theme: "light",
    format: "jpeg",
    fallbackToParent: false,
  });
  assert.equal(url.pathname, "/api/example.com");
  assert.deepEqual(
    [...url.searchParams],
    [["size", "1200"], ["greyscale", "true"], ["theme", "light"], ["format", "jpeg"]],
  );
  assert.equal(logoUrl(base, "example.com", { greyscale: false }).search, "");
});
