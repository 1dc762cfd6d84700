/**
 * imagecore's `transform` options and their WASM arguments, derived from the render spec
 * (`render_spec.ts`) plus the encoder's effort, checked: a bad option is an `invalid_argument`
 * refusal. The worker mailbox (`worker_mailbox.ts`) carries the same numbers.
 * @module
 */
import type * as glue from "./pkg/imagecore.js";
import { checkInputSize, ImageCoreError } from "./refusals.ts";
import { RENDER_OPTIONS, RENDER_SPEC, type RenderSpec, type WasmCodec } from "./render_spec.ts";

/**
 * How hard the PNG encoder works for fewer bytes; the pixels are identical either way. `"fast"`
 * (the default) is for renders made on request: the deflate level with the best bytes per
 * millisecond. `"small"` is for renditions stored once and served many times: the fewest bytes.
 * WebP and JPEG have one setting each.
 */
export type EncodeEffort = "fast" | "small";
/** Every {@link EncodeEffort}, in the order of their WASM codes. */
export const ENCODE_EFFORTS: readonly EncodeEffort[] = Object.freeze(["fast", "small"] as const);

/**
 * Options of `transform`: the render spec's options, each optional (`width` is the spec's
 * `size`), and the encoder's effort.
 */
export interface TransformOptions
  extends Partial<{ -readonly [K in keyof Omit<RenderSpec, "size">]: RenderSpec[K] }> {
  /** Output width in px (1..4096); height keeps the aspect ratio. Default: the source width. */
  width?: number;
  /** The PNG encoder's effort ({@link EncodeEffort}); default "fast", the request path's. */
  effort?: EncodeEffort;
}

/** The effort's codec (Rust `Effort::from_code`: 0 fast, 1 small). */
const EFFORT: WasmCodec<EncodeEffort> = {
  unset: 0,
  encode: (effort) => {
    const code = (ENCODE_EFFORTS as readonly unknown[]).indexOf(effort);
    return code < 0 ? undefined : code;
  },
  decode: (code) => ENCODE_EFFORTS[code],
  refusal: (effort) =>
    (ENCODE_EFFORTS as readonly unknown[]).includes(effort)
      ? undefined
      : `Cannot encode image: unknown effort "${effort}"`,
};

/** One argument of the Rust `transform` after its input: the option it carries and its codec. */
export interface TransformArgument {
  /** Its key in {@link TransformOptions}, and its name in Rust. */
  readonly key: keyof TransformOptions;
  /** How its value becomes the argument. */
  readonly codec: WasmCodec<unknown>;
}

/**
 * The arguments of the Rust `transform` (and `transform_stages`) after the input, in order: the
 * render spec's options, then the effort.
 */
export const TRANSFORM_ARGUMENTS: readonly TransformArgument[] = Object.freeze([
  ...RENDER_OPTIONS.map((name) => ({
    key: RENDER_SPEC[name].argument,
    codec: RENDER_SPEC[name].wasm as WasmCodec<unknown>,
  })),
  { key: "effort", codec: EFFORT },
]);

/** The arguments of the WASM `transform` after its input, as the generated glue types them. */
export type WasmTransformArguments = typeof glue.transform extends
  (input: never, ...rest: infer R) => unknown ? R : never;

/** Refuses what is not a `Uint8Array` of an acceptable size. */
export function checkInput(input: Uint8Array): void {
  if (!(input instanceof Uint8Array)) {
    throw new ImageCoreError("invalid_argument", "Cannot decode image: input must be a Uint8Array");
  }
  checkInputSize(input.length);
}

/**
 * The argument `codec` makes of `value`: its `unset` number when `value` is `undefined`.
 *
 * @throws {ImageCoreError} `invalid_argument` when imagecore refuses `value`.
 */
export function wasmArgument(codec: WasmCodec<unknown>, value: unknown): number {
  if (value === undefined) return codec.unset;
  const refusal = codec.refusal(value);
  if (refusal !== undefined) throw new ImageCoreError("invalid_argument", refusal);
  return codec.encode(value) ?? codec.unset;
}

/**
 * `transform`'s checked arguments as the WASM export takes them (after the input).
 *
 * @throws {ImageCoreError} `invalid_argument` naming the first bad option, as `checkInput` does
 * for the input.
 */
export function wireOptions(input: Uint8Array, options: TransformOptions): WasmTransformArguments {
  checkInput(input);
  const values = options as Record<string, unknown>;
  return TRANSFORM_ARGUMENTS.map(({ key, codec }) =>
    wasmArgument(codec, values[key])
  ) as unknown as WasmTransformArguments;
}
