/**
 * imagecore: Logo Lookup's image pipeline (Rust compiled to WASM).
 *
 * Decodes PNG, JPEG, GIF (first frame), WebP, ICO (largest entry), BMP and SVG (rasterised by
 * resvg at the output size, nothing external loaded) — recognised from the bytes, never from a
 * name — then resizes (Lanczos3, premultiplied alpha), greyscales, themes and
 * encodes PNG, WebP or JPEG. Every refusal is an {@link ImageCoreError} with a machine-readable
 * `code`; a trap inside WASM also surfaces as one, and the next call runs on a fresh instance.
 *
 * @example
 * ```ts
 * import { transform } from "./mod.ts";
 * const source = await Deno.readFile("logo.png");
 * const out = transform(source, { width: 128, greyscale: true });
 * console.log(out.width, out.height, out.format, out.bytes.length);
 * ```
 * @module
 */
import { DEFAULT_FORMAT, type LogoTheme } from "../src/sdk/logo_options.ts";
import { OUTPUT_FORMATS, type OutputFormat, SOURCE_FORMATS, type SourceFormat } from "./formats.ts";
import { markupStart } from "./markup_start.ts";
import { RENDER_SPEC } from "./render_spec.ts";
import {
  checkInput,
  type EncodeEffort,
  TRANSFORM_ARGUMENTS,
  type TransformOptions,
  wasmArgument,
  wireOptions,
} from "./transform_options.ts";
import { checkInputSize, ImageCoreError, type ImageCoreErrorCode, LIMITS } from "./refusals.ts";
import { setMemoryHighWater, WasmModule } from "./wasm_module.ts";
import { svgModule as svg } from "./svg_module.ts";
import {
  checkRenditionsOptions,
  type PackedRenditions,
  readPacked,
  type RenditionsOptions,
  type RenditionsResult,
  type SanitizedSvg,
  unpackRenditions,
} from "./renditions.ts";
import { checkSanitizedSvg, sanitizedOrNothing } from "./svg_sanitize.ts";
import * as glue from "./pkg/imagecore.js";
import * as svgGlue from "./pkg/imagecore_svg.js";

/** Formats imagecore can encode: the raster logo formats of `src/sdk/logo_options.ts`. */
export type { OutputFormat };
/** Background a themed logo will be shown on: the logo themes of `src/sdk/logo_options.ts`. */
export type Theme = LogoTheme;
export { checkInputSize, ImageCoreError, type ImageCoreErrorCode, LIMITS, setMemoryHighWater };
export type { EncodeEffort, SourceFormat, TransformOptions };
export type { PackedRenditions, RenditionsOptions, RenditionsResult, SanitizedSvg };
export { type SvgThemeOptions, themeSvg } from "./svg_theme.ts";
export { checkSanitizedSvg, sanitizeSvg } from "./svg_sanitize.ts";

/** What {@link transformStages} measured: ms of each stage inside one WASM call. */
export interface StageTimes {
  /** Decoding the source to pixels. */
  decodeMs: number;
  /** Resizing. */
  resizeMs: number;
  /** Greyscale and theme. */
  colourMs: number;
  /** Encoding. */
  encodeMs: number;
  /** Length of the encoded image. */
  bytes: number;
}

/** What {@link transform} returns. */
export interface TransformResult {
  /** The encoded image. */
  bytes: Uint8Array;
  /** Output width in px: the asked width, or the widest whose height fits 4096 px (tall logos). */
  width: number;
  /** Output height in px: round(width × H / W), at least 1. */
  height: number;
  /** Output encoding. */
  format: OutputFormat;
  /** Whether the theme step changed any colour (named when the theme inverted whole logos). */
  inverted: boolean;
}

/** What {@link probe} returns: read from the header, no pixels decoded. */
export interface ProbeResult {
  /** Detected source format. */
  format: SourceFormat;
  /** Width in px. */
  width: number;
  /** Height in px. */
  height: number;
}

/** Where the width is among `transform`'s arguments (the SVG path replaces it). */
const WIDTH_ARGUMENT = TRANSFORM_ARGUMENTS.findIndex((argument) => argument.key === "width");
/** Where the effort is among `transform_stages`' arguments (a benchmark's level replaces it). */
const EFFORT_ARGUMENT = TRANSFORM_ARGUMENTS.findIndex((argument) => argument.key === "effort");
/** The request path: decode, resize, greyscale, theme, encode. */
const core = new WasmModule(glue, "./pkg/imagecore_bg.wasm");

/**
 * Whether `input` is an SVG document. Every raster format imagecore decodes opens with a binary
 * signature, so only input whose first byte after an optional BOM and white space is `<` is
 * handed to the WASM sniffer: raster sources are not copied into WASM twice per call.
 */
function isSvg(input: Uint8Array): boolean {
  return markupStart(input) >= 0 && core.call(() => glue.is_svg(input));
}

function readU32(view: DataView, offset: number): number {
  return view.getUint32(offset, true);
}

/**
 * Decodes `input`, resizes it to `options.width` (aspect ratio kept), applies greyscale and
 * theme, and encodes it.
 *
 * @throws {ImageCoreError} `unsupported_format`, `corrupt`, `too_large` or `invalid_argument`.
 * @example
 * ```ts
 * const png = encodeRgba(new Uint8Array(4 * 256 * 128), 256, 128);
 * const { bytes, width, height } = transform(png, { width: 64, theme: "dark" }); // 64 × 32
 * ```
 */
export function transform(input: Uint8Array, options: TransformOptions = {}): TransformResult {
  const args = wireOptions(input, options);
  const width = args[WIDTH_ARGUMENT] as number;
  let source = input;
  if (isSvg(input)) {
    // Rasterised at the output size by the SVG module, so the resize step has no work — unless
    // drawing that large passes the SVG work budget: then it is drawn narrower (down to a quarter)
    // and scaled up here to the width asked.
    const png = svg.call(() => svgGlue.svg_rasterize(input, width));
    args[WIDTH_ARGUMENT] = width || new DataView(png.buffer, png.byteOffset).getUint32(0, true);
    source = png.subarray(12);
  }
  const out = core.call(() => glue.transform(source, ...args));
  // Layout: u32 width, u32 height, u8 format, u8 inverted, 2 bytes padding, then the image.
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  return {
    width: readU32(view, 0),
    height: readU32(view, 4),
    format: OUTPUT_FORMATS[out[8]],
    inverted: out[9] === 1,
    bytes: out.subarray(12),
  };
}

/**
 * Benchmark hook: {@link transform}'s work on a raster (not SVG) `input`, timed by stage with
 * `performance.now` inside one WASM call; the image is dropped. `level` (1–9) replaces the
 * effort's zlib level, to compare levels.
 *
 * @example
 * ```ts
 * const png = encodeRgba(new Uint8Array(4 * 256 * 256), 256, 256);
 * const { decodeMs, resizeMs, colourMs, encodeMs } = transformStages(png, { width: 128 });
 * ```
 */
export function transformStages(
  input: Uint8Array,
  options: TransformOptions = {},
  level?: number,
): StageTimes {
  const args = wireOptions(input, options);
  if (level !== undefined) args[EFFORT_ARGUMENT] = 10 + level;
  const t = core.call(() => glue.transform_stages(input, ...args));
  return { decodeMs: t[0], resizeMs: t[1], colourMs: t[2], encodeMs: t[3], bytes: t[4] };
}

/**
 * Reads the format and dimensions of `input` from its header, without decoding pixels.
 *
 * @throws {ImageCoreError} `unsupported_format` or `corrupt`.
 * @example
 * ```ts
 * const bytes = await Deno.readFile("logo.png");
 * const { format, width, height } = probe(bytes);
 * ```
 */
export function probe(input: Uint8Array): ProbeResult {
  checkInput(input);
  const out = isSvg(input)
    ? svg.call(() => svgGlue.svg_probe(input))
    : core.call(() => glue.probe(input));
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  return { format: SOURCE_FORMATS[out[8]], width: readU32(view, 0), height: readU32(view, 4) };
}

/**
 * {@link renditions} in its packed form, for a worker to post as one buffer
 * (`./renditions.ts`): the source is decoded once (an SVG rasterised once, at the source width).
 *
 * @throws {ImageCoreError} as {@link transform} does.
 * @example
 * ```ts
 * const packed = renditionsPacked(await Deno.readFile("logo.png"), { sourceMaxWidth: 1200, widths: [128] });
 * packed.parts.length; // 2
 * ```
 */
export function renditionsPacked(input: Uint8Array, options: RenditionsOptions): PackedRenditions {
  checkRenditionsOptions(options);
  const source = probe(input);
  const width = Math.min(source.width, options.sourceMaxWidth);
  const widths = Uint32Array.from(options.widths);
  let raster = input;
  if (source.format === "svg") {
    raster = svg.call(() => svgGlue.svg_rasterize(input, width)).subarray(12);
  }
  // A PNG as given is kept when it needs no resize; the SVG's raster is always encoded anew.
  const keepPng = source.format !== "svg";
  const packed = readPacked(
    core.call(() => glue.renditions(raster, width, widths, keepPng)),
    source,
  );
  if (source.format !== "svg") return packed;
  if (options.svg === "check") return { ...packed, svg: checkSanitizedSvg(input) };
  const sanitized = sanitizedOrNothing(input);
  return sanitized === undefined ? packed : { ...packed, svg: sanitized };
}

/**
 * Decodes `input` once and renders PNG renditions: the source at most `sourceMaxWidth` wide
 * (never upscaled), then one per entry of `widths` resized from its pixels — the bytes separate
 * {@link transform} calls would give (`transform(input, { width })`, then
 * `transform(thatPng, { width: w })` for each `w`). One exception: a PNG `input` that needs no
 * resize is the source rendition as it came, minus the chunks no decoder here reads (imagecore's
 * `src/raster/png_as_is.rs` says when): the same pixels, without the deflate.
 *
 * @throws {ImageCoreError} as {@link transform} does.
 * @example
 * ```ts
 * const { images } = renditions(await Deno.readFile("logo.png"), { sourceMaxWidth: 1200, widths: [128] });
 * images[1].width; // 128
 * ```
 */
export function renditions(input: Uint8Array, options: RenditionsOptions): RenditionsResult {
  return unpackRenditions(renditionsPacked(input, options));
}

/**
 * The SVG document of a monogram tile for `domain` (imagecore's `svg/monogram.rs`): the first
 * character of `label` (the domain's brand label, in Unicode), upper-cased, or `#` when the bundled
 * font lacks it, on a background colour picked from `domain`, the letter white or dark by contrast.
 * Draw it with {@link transform} like any SVG logo.
 *
 * @example
 * ```ts
 * const svg = monogramSvg("example", "www.example.com");
 * const { width, height } = transform(svg, { width: 64 }); // 64 × 64, an "E"
 * ```
 */
export function monogramSvg(label: string, domain: string): Uint8Array {
  return new TextEncoder().encode(svg.call(() => svgGlue.svg_monogram(label, domain)));
}

/**
 * Bytes of linear memory the WASM instances hold now (0 for one not instantiated yet: reading
 * never instantiates). It stays flat across calls: every buffer is freed inside the call that made
 * it, and an instance grown past 256 MiB by one huge image is replaced after that call.
 *
 * @example
 * ```ts
 * console.log(`imagecore holds ${wasmMemoryBytes() / 2 ** 20} MiB`);
 * ```
 */
export function wasmMemoryBytes(): number {
  return (core.ready ? glue.memory_bytes() : 0) + (svg.ready ? svgGlue.memory_bytes() : 0);
}

/**
 * Instantiates both WASM modules now instead of on first use, so that a caller's deadline does not
 * count loading them. The image worker calls it before it reports ready.
 *
 * @example
 * ```ts
 * warmUp();
 * console.log(wasmMemoryBytes() > 0); // true
 * ```
 */
export function warmUp(): void {
  core.call(() => glue.memory_bytes());
  svg.call(() => svgGlue.memory_bytes());
}

/**
 * The raw exports of the instance `call` runs on. wasm-bindgen's `initSync` returns them, without
 * instantiating anything, once the module is instantiated: inside `call`, always.
 */
function liveExports<T>(initSync: (module: { module: BufferSource }) => T): T {
  return initSync({ module: new Uint8Array(0) });
}

/**
 * Test hook: makes the WASM code of `module` trap, to show that the call throws an
 * `ImageCoreError` with code `internal` and that the next call works on a fresh instance. The trap
 * is the shipped module's own, not a test-only export: wasm-bindgen's allocator aborts on an
 * impossible request (alignment 3), as a Rust panic aborts.
 *
 * @example
 * ```ts
 * try { trapForTests(); } catch (e) { console.log((e as ImageCoreError).code); } // "internal"
 * ```
 */
export function trapForTests(module: "core" | "svg" = "core"): void {
  if (module === "svg") svg.call(() => liveExports(svgGlue.initSync).__wbindgen_malloc(1, 3));
  else core.call(() => liveExports(glue.initSync).__wbindgen_malloc(1, 3));
}

/**
 * Test hook: allocates `bytes` bytes with the request-path WASM module's own allocator, fills them
 * with ones and frees them; returns their sum. Past the module's 512 MiB linear-memory cap the
 * allocation fails, the module aborts, and this throws an `ImageCoreError` with code `too_large`.
 *
 * @example
 * ```ts
 * try { allocateForTests(2 ** 30); } catch (e) { console.log((e as ImageCoreError).code); }
 * ```
 */
export function allocateForTests(bytes: number): number {
  return core.call(() => {
    const wasm = liveExports(glue.initSync);
    const at = wasm.__wbindgen_malloc(bytes, 1) >>> 0;
    const sum = new Uint8Array(wasm.memory.buffer, at, bytes).fill(1).reduce((n, b) => n + b, 0);
    wasm.__wbindgen_free(at, bytes, 1);
    return sum;
  });
}

/**
 * Encodes raw RGBA pixels (row-major, 4 bytes a pixel) as an image, with the same encoders as
 * {@link transform}. Useful for generated logos and test fixtures.
 *
 * @throws {ImageCoreError} `invalid_argument` when the buffer does not hold width × height pixels.
 * @example
 * ```ts
 * const png = encodeRgba(new Uint8Array(4 * 16 * 16), 16, 16);
 * ```
 */
export function encodeRgba(
  pixels: Uint8Array,
  width: number,
  height: number,
  format: OutputFormat = DEFAULT_FORMAT,
): Uint8Array {
  const code = wasmArgument(RENDER_SPEC.format.wasm, format);
  return core.call(() => glue.encode_rgba(pixels, width, height, code));
}
