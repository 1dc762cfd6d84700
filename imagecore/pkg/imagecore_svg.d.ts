/* tslint:disable */
/* eslint-disable */

export function __wbg_reset_state(): void;

/**
 * Whether the bytes are an SVG document (for `mod.ts` to route them to the SVG module).
 */
export function is_svg(input: Uint8Array | number[]): boolean;

/**
 * Size of the instance's linear memory in bytes (it grows, never shrinks).
 */
export function memory_bytes(): number;

/**
 * SVG module: checks that `input` is a sanitised document as `svg_sanitize` writes them
 * ([`sanitize::check_sanitized`]: an archive import's check of a stored one), as the result
 * header with its intrinsic size and no body.
 */
export function svg_check_sanitized(input: Uint8Array | number[]): Uint8Array;

/**
 * SVG module: the monogram tile's SVG document for `domain`, with the first letter of `label`
 * (its brand label, in Unicode) — see [`monogram`]. Draw it with `svg_rasterize`.
 */
export function svg_monogram(label: string, domain: string): string;

/**
 * SVG module: intrinsic size of an SVG, as `probe`'s result header (format 6 = svg).
 */
export function svg_probe(input: Uint8Array | number[]): Uint8Array;

/**
 * SVG module: rasterises to a PNG `width` px wide (0: intrinsic), as the result header then
 * the PNG. The header holds the size the image is meant to be shown at; the PNG may be drawn
 * narrower (an SVG over the work budget), to be scaled up to it.
 */
export function svg_rasterize(input: Uint8Array | number[], width: number): Uint8Array;

/**
 * SVG module: the sanitised SVG document served for `format=svg` ([`sanitize`]), as the result
 * header (the intrinsic size, format 6 = svg) then the document in UTF-8.
 */
export function svg_sanitize(input: Uint8Array | number[]): Uint8Array;

/**
 * SVG module: the sanitised SVG `text` recoloured for `greyscale` and `theme` (0 none, 1 light,
 * 2 dark) — see [`recolour`].
 */
export function svg_theme(text: string, greyscale: boolean, theme: number): string;

/**
 * Whether an allocation failed since the last call, clearing the note. Safe to call after a
 * trap: it touches one static, no stack and no heap.
 */
export function take_out_of_memory(): boolean;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly is_svg: (a: number, b: number) => number;
    readonly memory_bytes: () => number;
    readonly svg_check_sanitized: (a: number, b: number) => [number, number, number, number];
    readonly svg_monogram: (a: number, b: number, c: number, d: number) => [number, number];
    readonly svg_probe: (a: number, b: number) => [number, number, number, number];
    readonly svg_rasterize: (a: number, b: number, c: number) => [number, number, number, number];
    readonly svg_sanitize: (a: number, b: number) => [number, number, number, number];
    readonly svg_theme: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly take_out_of_memory: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
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
