/**
 * Every option of the render spec is in the strong ETag (and cache key) of logos and monogram
 * tiles, and reaches the WASM call: for each option, taken from the spec itself, two specs that
 * differ in that option alone are rendered and must get different tags. An option forgotten in
 * the tag would serve one variant's bytes for another under a strong ETag. The `type` (which of a
 * domain's images) is not a render option but is in the tag too, adding nothing for `icon`.
 */
import assert from "node:assert/strict";
import { encodeRgba } from "../../imagecore/mod.ts";
import {
  DEFAULT_SPEC,
  RENDER_OPTIONS,
  RENDER_SPEC,
  type RenderSpec,
  specTag,
  transformOptionsOf,
} from "../../imagecore/render_spec.ts";
import { LOGO_TYPES } from "../../src/sdk/logo_options.ts";
import { wireOptions } from "../../imagecore/transform_options.ts";
import { isRasterFormat } from "../../imagecore/formats.ts";
import { createMailbox, postJob, readJob } from "../../imagecore/worker_mailbox.ts";
import { monogramTag } from "../../src/http/monogram.ts";
import { createRenderer } from "../../src/http/render_variant.ts";
import { DEFAULT_OPTIONS, type LogoOptions } from "../../src/http/request_options.ts";
import type { LogoRecord } from "../../src/store/logo_store.ts";

const PNG = encodeRgba(new Uint8Array(64 * 32 * 4).fill(90), 64, 32);

/** A logo with one stored rendition, so every spec renders from the same bytes. */
const RECORD: LogoRecord = {
  domain: "example.com",
  hash: "a".repeat(64),
  type: "image/png",
  width: 64,
  height: 32,
  source: "test",
  createdAt: 0,
  updatedAt: 0,
  pipeline: 2,
  renditions: {
    source: {
      hash: "b".repeat(64),
      type: "image/png",
      width: 64,
      height: 32,
      bytes: PNG.length,
      data: PNG,
    },
  },
};

/** Pairs of request options that differ in `name` alone, one per pair of its sample values. */
function pairsDifferingIn(name: keyof RenderSpec): [LogoOptions, LogoOptions][] {
  const samples: readonly unknown[] = RENDER_SPEC[name].samples;
  assert.ok(new Set(samples).size >= 2, `${name} has two distinct samples`);
  assert.equal(samples[0], RENDER_SPEC[name].default, `${name}'s first sample is its default`);
  const pairs: [LogoOptions, LogoOptions][] = [];
  for (const a of samples) {
    for (const b of samples) {
      if (a === b) continue;
      pairs.push([{ ...DEFAULT_OPTIONS, [name]: a }, { ...DEFAULT_OPTIONS, [name]: b }] as [
        LogoOptions,
        LogoOptions,
      ]);
    }
  }
  return pairs;
}

Deno.test("render spec: every option of a request but the fallback and the type is an option of the spec", () => {
  const requestOptions = Object.keys(DEFAULT_OPTIONS).filter((name) =>
    name !== "fallback" && name !== "type"
  );
  assert.deepEqual(requestOptions.sort(), [...RENDER_OPTIONS].sort());
  assert.deepEqual({ ...DEFAULT_OPTIONS, fallback: undefined, type: undefined }, {
    ...DEFAULT_SPEC,
    fallback: undefined,
    type: undefined,
  });
});

Deno.test("render spec: the type is in the ETag of a logo and of a monogram, icon adding nothing", async () => {
  const renderer = createRenderer({ logos: { readRendition: () => Promise.resolve(null) } });
  assert.equal(LOGO_TYPES[0], DEFAULT_OPTIONS.type, "the default type first");
  const tags = new Set<string>();
  const tiles = new Set<string>();
  for (const type of LOGO_TYPES) {
    const options: LogoOptions = { ...DEFAULT_OPTIONS, size: 48, type };
    const rendered = await renderer.render(renderer.plan(RECORD, options));
    assert.equal(rendered.etag, renderer.plan(RECORD, options).etag, type);
    tags.add(rendered.etag);
    tiles.add(monogramTag("example.com", options));
    // The type picks the record, not the render: the same WASM call either way.
    assert.deepEqual(
      wireOptions(PNG, transformOptionsOf(options)),
      wireOptions(PNG, transformOptionsOf({ ...DEFAULT_OPTIONS, size: 48 })),
    );
  }
  assert.equal(tags.size, LOGO_TYPES.length, "one logo ETag per type");
  assert.equal(tiles.size, LOGO_TYPES.length, "one tile ETag per type");
  // The icon's tags are those made before the type existed.
  const icon = { ...DEFAULT_OPTIONS, size: 48 };
  assert.equal(renderer.plan(RECORD, icon).etag, `"v2-${"b".repeat(32)}${specTag(icon)}"`);
  assert.equal(monogramTag("example.com", icon), `"v2-m1-example.com${specTag(icon)}"`);
});

for (const name of RENDER_OPTIONS) {
  Deno.test(`render spec: ${name} is in the ETag of a logo and of a monogram, and reaches WASM`, async () => {
    const renderer = createRenderer({ logos: { readRendition: () => Promise.resolve(null) } });
    for (const [a, b] of pairsDifferingIn(name)) {
      const label = `${name}: ${String(a[name])} / ${String(b[name])}`;
      const [rendered, other] = [
        await renderer.render(renderer.plan(RECORD, a)),
        await renderer.render(renderer.plan(RECORD, b)),
      ];
      assert.equal(rendered.etag, renderer.plan(RECORD, a).etag, label);
      assert.notEqual(rendered.etag, other.etag, `logo ETag, ${label}`);
      assert.notEqual(
        monogramTag("example.com", a),
        monogramTag("example.com", b),
        `monogram, ${label}`,
      );
      const wire = (options: LogoOptions) => wireOptions(PNG, transformOptionsOf(options));
      // `svg` is stored, never encoded: the WASM boundary refuses it rather than encoding a PNG
      // under its name (the renderer asks for the PNG itself when it substitutes one).
      const stored = [a, b].find((options) => !isRasterFormat(options.format));
      if (stored !== undefined) {
        assert.throws(() => wire(stored), /svg is not a raster format/, label);
        continue;
      }
      assert.notDeepEqual(wire(a), wire(b), `WASM arguments, ${label}`);
      const box = createMailbox(PNG.length);
      assert.ok(postJob(box, 1, "transform", PNG, transformOptionsOf(a)), label);
      assert.deepEqual(wireOptions(PNG, readJob(box).options), wire(a), `mailbox, ${label}`);
    }
  });
}
