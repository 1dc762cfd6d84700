/**
 * The PNG encoder's `effort` at the JS boundary: it reaches the WASM, "fast" is the default, both
 * settings decode to the same pixels and "small" is not larger, a bad value is refused, stored
 * renditions ask for "small", and the stage-timing hook measures the real call. The encoder's own
 * checks (every level, every colour type) are imagecore/tests/encode_effort.rs.
 */
import { deepStrictEqual, notDeepStrictEqual, ok, strictEqual, throws } from "node:assert";
import {
  ImageCoreError,
  transform,
  type TransformOptions,
  transformStages,
} from "../../imagecore/mod.ts";
import { IN_PROCESS, prepareLogo } from "../../src/store/logo_ingest.ts";
import { bytesOf, pixelsOf } from "../support/images.ts";
import sharp from "sharp";

/** A logo with soft edges and a gradient on transparency: many grey+alpha values at 128 px. */
async function softLogo(side: number): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#1a73e8"/>
    <stop offset="1" stop-color="#34a853"/></linearGradient></defs>
    <circle cx="${side / 2}" cy="${side / 2}" r="${side * 0.4}" fill="url(#g)"/></svg>`;
  return await bytesOf(sharp(new TextEncoder().encode(svg)).png());
}

Deno.test("both efforts decode to the same pixels; small is not larger; fast is the default", async () => {
  const source = await softLogo(512);
  const base = { width: 128, greyscale: true };
  const fast = transform(source, { ...base, effort: "fast" });
  const small = transform(source, { ...base, effort: "small" });
  const unset = transform(source, base);
  deepStrictEqual(await pixelsOf(fast.bytes), await pixelsOf(small.bytes));
  ok(small.bytes.length <= fast.bytes.length, `${small.bytes.length} > ${fast.bytes.length}`);
  deepStrictEqual(unset.bytes, fast.bytes, "no effort given is the request path's setting");
});

Deno.test("an unknown effort is refused as invalid_argument", async () => {
  const source = await softLogo(64);
  throws(
    () => transform(source, { effort: "best" } as unknown as TransformOptions),
    (e: unknown) =>
      e instanceof ImageCoreError && e.code === "invalid_argument" &&
      e.message === 'Cannot encode image: unknown effort "best"',
  );
});

Deno.test("stored renditions are encoded with the small effort", async () => {
  const prepared = await prepareLogo(await softLogo(1024), IN_PROCESS);
  const source = prepared.renditions.source.bytes;
  const small = transform(source, { width: 128, effort: "small" }).bytes;
  const fast = transform(source, { width: 128, effort: "fast" }).bytes;
  notDeepStrictEqual(small, fast, "the two settings differ on this logo");
  deepStrictEqual(prepared.renditions.default.bytes, small);
});

Deno.test("transformStages times the real pipeline and reports its output length", async () => {
  const source = await softLogo(512);
  const options = { width: 128, greyscale: true };
  const stages = transformStages(source, options);
  strictEqual(stages.bytes, transform(source, options).bytes.length);
  for (const ms of [stages.decodeMs, stages.resizeMs, stages.colourMs, stages.encodeMs]) {
    ok(ms >= 0 && Number.isFinite(ms), `${ms}`);
  }
  ok(stages.decodeMs + stages.resizeMs + stages.encodeMs > 0);
  // A level replaces the effort's: level 1 deflates this logo into more bytes than level 9.
  ok(transformStages(source, options, 1).bytes > transformStages(source, options, 9).bytes);
});
