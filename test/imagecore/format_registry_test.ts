/**
 * The numbers TypeScript and Rust give formats, themes, efforts and `transform`'s arguments are
 * one registry: TypeScript declares them in `imagecore/formats.ts`, `imagecore/render_spec.ts` and
 * `imagecore/transform_options.ts`; Rust in its enums and `from_code`s. These tests read the Rust
 * sources (wherever in `imagecore/src/` they live) and fail on any drift between the two.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { LOGO_FORMATS, LOGO_THEMES } from "../../src/sdk/logo_options.ts";
import {
  isRasterFormat,
  OUTPUT_FORMATS,
  outputFormatCode,
  SOURCE_FORMATS,
} from "../../imagecore/formats.ts";
import { RENDER_SPEC } from "../../imagecore/render_spec.ts";
import { ENCODE_EFFORTS, TRANSFORM_ARGUMENTS } from "../../imagecore/transform_options.ts";
import * as glue from "../../imagecore/pkg/imagecore.js";

const RUST_SRC = new URL("../../imagecore/src/", import.meta.url).pathname;

/** Every Rust source of imagecore, concatenated: the patterns below name what they look for. */
function rustSources(dir = RUST_SRC): string {
  return [...Deno.readDirSync(dir)].map((entry) =>
    entry.isDirectory
      ? rustSources(join(dir, entry.name))
      : entry.name.endsWith(".rs")
      ? Deno.readTextFileSync(join(dir, entry.name))
      : ""
  ).join("\n");
}

const RUST = rustSources();

/** The one match of `pattern` in the Rust sources (fails when it is gone: the test needs care). */
function one(pattern: RegExp): RegExpMatchArray {
  const matches = [...RUST.matchAll(new RegExp(pattern, "g"))];
  assert.equal(matches.length, 1, `exactly one match of ${pattern} in imagecore/src`);
  return matches[0];
}

/** `Name = 3` lines of the Rust enum `name`, as [lower-cased name, number]. */
function discriminants(name: string): [string, number][] {
  const body = one(new RegExp(`pub enum ${name} \\{([^}]*)\\}`))[1];
  return [...body.matchAll(/^\s*(\w+) = (\d+),/gm)].map((m) => [m[1].toLowerCase(), Number(m[2])]);
}

/** `3 => …Type::Name…` arms of `Type::from_code`, as [lower-cased name, number]. */
function fromCodeArms(type: string): [string, number][] {
  const body = one(
    new RegExp(
      `impl ${type} \\{[\\s\\S]*?fn from_code[\\s\\S]*?match code \\{([\\s\\S]*?)\\n\\s*\\}`,
    ),
  )[1];
  return [...body.matchAll(new RegExp(`^\\s*(\\d+) => [^\\n]*${type}::(\\w+)`, "gm"))]
    .map((m) => [m[2].toLowerCase(), Number(m[1])]);
}

Deno.test("format registry: source formats have Rust's numbers (SourceFormat, and svg_probe's)", () => {
  const raster = discriminants("SourceFormat");
  assert.ok(raster.length >= 6, "SourceFormat's discriminants were read");
  for (const [name, code] of raster) {
    assert.equal(SOURCE_FORMATS[code], name, `SourceFormat::${name}`);
  }
  const svg = Number(one(/pub fn svg_probe[\s\S]*?with_header\(\s*width,\s*height,\s*(\d+)/)[1]);
  assert.equal(SOURCE_FORMATS[svg], "svg");
  assert.equal(SOURCE_FORMATS.length, raster.length + 1, "no TypeScript source format Rust lacks");
});

Deno.test("format registry: output formats have Rust's numbers (OutputFormat and its from_code)", () => {
  const declared = discriminants("OutputFormat");
  assert.deepEqual(fromCodeArms("OutputFormat"), declared);
  assert.deepEqual(declared.map(([, code]) => [OUTPUT_FORMATS[code], code]), declared);
  assert.equal(OUTPUT_FORMATS.length, declared.length);
  // Every logo format but the stored sanitised SVG is one Rust encodes.
  assert.deepEqual(
    [...OUTPUT_FORMATS].sort(),
    LOGO_FORMATS.filter((format) => format !== "svg").sort(),
    "every raster logo format",
  );
  for (const [name, code] of declared) {
    assert.equal(outputFormatCode(name), code);
    assert.equal(RENDER_SPEC.format.wasm.encode(name), code);
    assert.equal(RENDER_SPEC.format.wasm.decode(code), name);
  }
  assert.equal(RENDER_SPEC.format.wasm.unset, outputFormatCode(RENDER_SPEC.format.default));
});

Deno.test("format registry: themes and efforts have Rust's numbers (Theme and Effort from_code)", () => {
  const none = Number(one(/(\d+) => Some\(None\)/)[1]);
  assert.equal(RENDER_SPEC.theme.wasm.unset, none, "no theme");
  const themes = fromCodeArms("Theme");
  assert.deepEqual(themes.map(([name]) => name).sort(), [...LOGO_THEMES].sort());
  for (const [name, code] of themes) {
    assert.equal(RENDER_SPEC.theme.wasm.encode(name), code, name);
    assert.equal(RENDER_SPEC.theme.wasm.decode(code), name, name);
  }
  const effort = TRANSFORM_ARGUMENTS.find((argument) => argument.key === "effort")!.codec;
  const efforts = fromCodeArms("Effort");
  assert.deepEqual(efforts.map(([name]) => name).sort(), [...ENCODE_EFFORTS].sort());
  for (const [name, code] of efforts) assert.equal(effort.encode(name), code, name);
  assert.equal(effort.unset, efforts.find(([name]) => name === "fast")![1]);
});

Deno.test("format registry: transform's arguments are Rust's, in Rust's order", () => {
  for (const name of ["transform", "transform_stages"]) {
    const signature =
      one(new RegExp(`#\\[wasm_bindgen\\]\\s*pub fn ${name}\\(\\s*input: &\\[u8\\],([^)]*)\\)`))[1];
    const rust = [...signature.matchAll(/(\w+):/g)].map((m) => m[1]);
    assert.deepEqual(TRANSFORM_ARGUMENTS.map((argument) => argument.key), rust, name);
  }
  assert.equal(glue.transform.length, 1 + TRANSFORM_ARGUMENTS.length, "the built glue agrees");
});

Deno.test("format registry: svg is a logo format with no WASM number, refused by transform's codec", () => {
  assert.ok((LOGO_FORMATS as readonly string[]).includes("svg"));
  assert.equal(isRasterFormat("svg"), false);
  assert.equal(outputFormatCode("svg"), -1);
  assert.equal(RENDER_SPEC.format.wasm.encode("svg"), undefined);
  assert.match(RENDER_SPEC.format.wasm.refusal("svg")!, /svg is not a raster format/);
  assert.match(RENDER_SPEC.format.wasm.refusal("gif")!, /unknown format "gif"/);
  // No Rust OutputFormat is named svg: the numbers above stay those of the raster encoders.
  assert.ok(!discriminants("OutputFormat").some(([name]) => name === "svg"));
});
