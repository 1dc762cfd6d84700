import assert from "node:assert/strict";
import { encodeRgba, ImageCoreError, transform } from "../../imagecore/mod.ts";
import { isRasterFormat } from "../../imagecore/formats.ts";
import { HttpError } from "../../src/http_error.ts";
import {
  CONTENT_TYPES,
  DEFAULT_SIZE,
  FALLBACK_RULE,
  FORMAT_RULE,
  FORMAT_SPELLINGS,
  GREYSCALE_RULE,
  GREYSCALE_SPELLINGS,
  LOGO_FALLBACKS,
  LOGO_FORMATS,
  LOGO_THEMES,
  LOGO_TYPES,
  MAX_PUBLISHABLE_SIZE,
  MAX_SECRET_SIZE,
  sizeRule,
  THEME_RULE,
  TYPE_RULE,
} from "../../src/sdk/logo_options.ts";
import { DEFAULT_OPTIONS, parseOptions } from "../../src/http/request_options.ts";
import { BadRequestError } from "../../src/sdk/errors.ts";
import { MAX_SIZE as SDK_MAX_SIZE, validateOptions } from "../../src/sdk/options.ts";

/** The server's verdict on one query parameter, with the secret-key cap the SDK uses. */
function serverVerdict(name: string, value: string): string {
  try {
    const options = parseOptions(new URLSearchParams({ [name]: value }), MAX_SECRET_SIZE);
    return `ok ${JSON.stringify(options[name as keyof typeof options])}`;
  } catch (error) {
    assert.ok(error instanceof HttpError, `${name}=${value} threw ${error}`);
    assert.equal(error.status, 400);
    return error.publicMessage;
  }
}

/** The SDK's verdict on the same option, before anything is sent. */
function sdkVerdict(
  name: "size" | "theme" | "format" | "fallback" | "type",
  value: string,
): string {
  const option = name === "size" ? Number(value) : value;
  try {
    validateOptions({ [name]: option });
    return `ok ${JSON.stringify(option)}`;
  } catch (error) {
    assert.ok(error instanceof BadRequestError, `${name}=${value} threw ${error}`);
    return error.text;
  }
}

Deno.test("logo options: the rules read as the endpoint has always worded them", () => {
  assert.equal(DEFAULT_SIZE, 128);
  assert.equal(MAX_PUBLISHABLE_SIZE, 800);
  assert.equal(MAX_SECRET_SIZE, 1200);
  assert.equal(sizeRule(800), "must be a whole number of pixels from 1 to 800");
  assert.equal(THEME_RULE, "must be light or dark");
  assert.equal(FORMAT_RULE, "must be png, webp, jpeg or svg");
  assert.equal(GREYSCALE_RULE, "must be true, 1, yes, false, 0 or no");
  assert.equal(FALLBACK_RULE, "must be 404 or monogram");
  assert.equal(TYPE_RULE, "must be icon or logo");
});

Deno.test("logo options: the server and the SDK accept and refuse the same sizes, themes, formats and types, in the same words", () => {
  assert.equal(SDK_MAX_SIZE, MAX_SECRET_SIZE);
  const cases: ["size" | "theme" | "format" | "fallback" | "type", string][] = [
    ...["1", "64", String(DEFAULT_SIZE), String(MAX_SECRET_SIZE), "0", String(MAX_SECRET_SIZE + 1)]
      .map((v) => ["size", v] as ["size", string]),
    ...[...LOGO_THEMES, "sepia"].map((v) => ["theme", v] as ["theme", string]),
    ...[...LOGO_FORMATS, "gif", "svg"].map((v) => ["format", v] as ["format", string]),
    ...[...LOGO_FALLBACKS, "letter", "401"].map((v) => ["fallback", v] as ["fallback", string]),
    ...[...LOGO_TYPES, "wordmark", "symbol"].map((v) => ["type", v] as ["type", string]),
  ];
  const refused = new Set<string>();
  for (const [name, value] of cases) {
    const verdict = serverVerdict(name, value);
    assert.equal(sdkVerdict(name, value), verdict, `${name}=${value}`);
    if (!verdict.startsWith("ok")) refused.add(verdict);
  }
  assert.deepEqual([...refused].sort(), [
    `Invalid fallback: ${FALLBACK_RULE}`,
    `Invalid format: ${FORMAT_RULE}`,
    `Invalid size: ${sizeRule(MAX_SECRET_SIZE)}`,
    `Invalid theme: ${THEME_RULE}`,
    `Invalid type: ${TYPE_RULE}`,
  ]);
});

Deno.test("logo options: every spelling parses to its value, in any case; the defaults are the declared ones", () => {
  for (const [spelling, format] of Object.entries(FORMAT_SPELLINGS)) {
    assert.equal(
      parseOptions(new URLSearchParams({ format: spelling.toUpperCase() })).format,
      format,
    );
  }
  for (const value of [true, false]) {
    for (const spelling of GREYSCALE_SPELLINGS[`${value}`]) {
      const params = new URLSearchParams({ greyscale: spelling.toUpperCase() });
      assert.equal(parseOptions(params).greyscale, value, spelling);
    }
  }
  assert.throws(() => parseOptions(new URLSearchParams({ greyscale: "on" })), HttpError);
  assert.deepEqual(parseOptions(new URLSearchParams({ size: "64" })), {
    ...DEFAULT_OPTIONS,
    size: 64,
  });
  assert.deepEqual(DEFAULT_OPTIONS, {
    size: DEFAULT_SIZE,
    greyscale: false,
    theme: undefined,
    format: "png",
    fallback: "404",
    type: "icon",
  });
  assert.equal(parseOptions(new URLSearchParams({ type: "LOGO" })).type, "logo");
});

/** The Content-Type the first bytes of an encoded image show. */
function sniffedType(bytes: Uint8Array): string {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (ascii(1, 4) === "PNG") return "image/png";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  return "unknown";
}

Deno.test("logo options: imagecore encodes every raster format as its declared Content-Type, and every theme", () => {
  const png = encodeRgba(new Uint8Array(8 * 8 * 4).fill(200), 8, 8);
  for (const format of LOGO_FORMATS.filter(isRasterFormat)) {
    const out = transform(png, { width: 4, format });
    assert.equal(out.format, format);
    assert.equal(sniffedType(out.bytes), CONTENT_TYPES[format], format);
    assert.equal(
      sniffedType(encodeRgba(new Uint8Array(4 * 4), 2, 2, format)),
      CONTENT_TYPES[format],
    );
  }
  assert.equal(sniffedType(transform(png).bytes), "image/png", "the default format");
  for (const theme of LOGO_THEMES) assert.equal(transform(png, { theme }).width, 8);
  assert.throws(
    () => transform(png, { theme: "sepia" as "dark" }),
    (e: unknown) => e instanceof ImageCoreError && e.code === "invalid_argument",
  );
  // svg is the stored sanitised SVG (test/http/svg_format_test.ts), never encoded.
  assert.deepEqual(LOGO_FORMATS.filter((format) => !isRasterFormat(format)), ["svg"]);
  assert.equal(CONTENT_TYPES.svg, "image/svg+xml");
  assert.throws(
    () => transform(png, { format: "svg" }),
    (e: unknown) => e instanceof ImageCoreError && e.code === "invalid_argument",
  );
  assert.throws(
    () => transform(png, { format: "gif" as "png" }),
    (e: unknown) =>
      e instanceof ImageCoreError && e.message === 'Cannot encode image: unknown format "gif"',
  );
});
