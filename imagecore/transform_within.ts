/**
 * `transformWithin`: a wall-clock cap for work that cannot be interrupted from inside. A WASM
 * call is synchronous, so the only way to stop one is to run it in a Worker and terminate the
 * Worker at the deadline. Used for untrusted SVG in discovery; the request path calls
 * `transform` directly (a Worker costs tens of milliseconds to start).
 * @module
 */
import { ImageCoreError, type TransformOptions, type TransformResult } from "./mod.ts";

/**
 * Runs `transform(input, options)` in a fresh Worker; rejects with an `ImageCoreError` of code
 * `timeout` if it has not finished within `ms` milliseconds (the Worker is terminated).
 *
 * @example
 * ```ts
 * const png = await transformWithin(svgBytes, { width: 1200 }, 2000);
 * ```
 */
export function transformWithin(
  input: Uint8Array,
  options: TransformOptions,
  ms: number,
): Promise<TransformResult> {
  const worker = new Worker(new URL("./transform_worker.ts", import.meta.url), { type: "module" });
  return new Promise<TransformResult>((resolve, reject) => {
    const finish = () => {
      clearTimeout(deadline);
      worker.terminate();
    };
    const deadline = setTimeout(() => {
      finish();
      reject(new ImageCoreError("timeout", `Cannot process image: it took longer than ${ms} ms`));
    }, ms);
    worker.onmessage = (event) => {
      finish();
      const { result, error } = event.data;
      if (error) reject(new ImageCoreError(error.code, error.message));
      else resolve(result);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
      reject(new ImageCoreError("internal", `Cannot process image: ${event.message}`));
    };
    worker.postMessage({ input, options });
  });
}
