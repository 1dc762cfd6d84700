/* tslint:disable */
/* eslint-disable */

export function __wbg_reset_state(): void;

/**
 * Resizes straight-alpha RGBA8 `pixels` (`src_width`×`src_height`) to `width`×`height`: with
 * `reference`, one Lanczos3 convolution over every pixel; with `grey`, the greyscale resize
 * ([`resize::grey`]); else what `transform` does for colour.
 */
export function bench_resize(pixels: Uint8Array | number[], src_width: number, src_height: number, width: number, height: number, reference: boolean, grey: boolean): Uint8Array;

/**
 * Encodes raw straight-alpha RGBA8 pixels. `format` 0 PNG, 1 WebP, 2 JPEG. The pixels arrive as
 * a buffer of their own (wasm-bindgen copies them in once), which PNG encoding normalises in place.
 */
export function encode_rgba(pixels: Uint8Array | number[], width: number, height: number, format: number): Uint8Array;

/**
 * Whether the bytes are an SVG document (for `mod.ts` to route them to the SVG module).
 */
export function is_svg(input: Uint8Array | number[]): boolean;

/**
 * Size of the instance's linear memory in bytes (it grows, never shrinks).
 */
export function memory_bytes(): number;

/**
 * Reads format and dimensions from the header. Returns the result header with no image.
 */
export function probe(input: Uint8Array | number[]): Uint8Array;

/**
 * Decodes once and renders PNG renditions: the source at `source_width` (a PNG needing no resize
 * kept as it came when `keep_png`), then each of `widths` from its pixels (see `renditions`).
 * Returns them packed by `renditions::pack`.
 */
export function renditions(input: Uint8Array | number[], source_width: number, widths: Uint32Array | number[], keep_png: boolean): Uint8Array;

/**
 * Whether an allocation failed since the last call, clearing the note. Safe to call after a
 * trap: it touches one static, no stack and no heap.
 */
export function take_out_of_memory(): boolean;

/**
 * Transforms an encoded image. `width` 0 keeps the source width; `theme` 0 none, 1 light,
 * 2 dark; `format` 0 PNG, 1 WebP, 2 JPEG; `effort` (PNG) 0 fast, 1 small. Returns the result
 * header then the encoded image, written behind the header in one buffer.
 */
export function transform(input: Uint8Array | number[], width: number, greyscale: boolean, theme: number, format: number, effort: number): Uint8Array;

/**
 * `transform` with the same arguments, timed by stage: returns decode, resize, colour and
 * encode ms, then the encoded image's byte length. For benchmarks; the image is dropped.
 */
export function transform_stages(input: Uint8Array | number[], width: number, greyscale: boolean, theme: number, format: number, effort: number): Float64Array;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly bench_resize: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number) => [number, number, number, number];
    readonly encode_rgba: (a: number, b: number, c: number, d: number, e: number) => [number, number, number, number];
    readonly is_svg: (a: number, b: number) => number;
    readonly memory_bytes: () => number;
    readonly probe: (a: number, b: number) => [number, number, number, number];
    readonly renditions: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number, number];
    readonly take_out_of_memory: () => number;
    readonly transform: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => [number, number, number, number];
    readonly transform_stages: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => [number, number, number, number];
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
