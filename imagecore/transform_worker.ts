/**
 * Worker side of {@link ../transform_within.ts}: runs one `transform` and posts the result, or
 * the error's code and message.
 * @module
 */
import { ImageCoreError, transform, type TransformOptions } from "./mod.ts";

/** The message this worker answers. */
export interface TransformRequest {
  /** Encoded image. */
  input: Uint8Array;
  /** Options for `transform`. */
  options: TransformOptions;
}

/** The worker's global scope, typed for the two members used here. */
const scope = self as unknown as {
  onmessage: (event: MessageEvent<TransformRequest>) => void;
  postMessage(message: unknown): void;
};

scope.onmessage = (event) => {
  try {
    scope.postMessage({ result: transform(event.data.input, event.data.options) });
  } catch (error) {
    const e = error instanceof ImageCoreError
      ? error
      : new ImageCoreError("internal", `Cannot process image: ${error}`);
    scope.postMessage({ error: { code: e.code, message: e.message } });
  }
};
