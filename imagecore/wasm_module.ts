/**
 * One wasm-bindgen module of imagecore as the TypeScript side holds it: instantiated on first
 * use, each call's error turned into an {@link ImageCoreError}, and a fresh instance after a trap
 * or once a call left linear memory above the high-water mark.
 *
 * @module
 */
import { IMAGECORE_ERROR_CODES, ImageCoreError, type ImageCoreErrorCode } from "./refusals.ts";

/** After a call leaves linear memory above this, the instance is recreated to give it back. */
let memoryHighWater = 256 * 1024 * 1024;

/**
 * Sets the linear-memory size above which an instance is recreated after a call (default
 * 256 MiB). The image worker sets `Infinity`: it reports its memory instead, and the pool replaces
 * the whole worker, which gives the memory back at once.
 *
 * @example
 * ```ts
 * setMemoryHighWater(Infinity);
 * ```
 */
export function setMemoryHighWater(bytes: number): void {
  memoryHighWater = bytes;
}

/** What both wasm-bindgen glues offer. */
export interface Glue {
  initSync(module: { module: BufferSource }): unknown;
  memory_bytes(): number;
  take_out_of_memory(): boolean;
  __wbg_reset_state(): void;
}

/**
 * One WASM module: instantiated on first use (nothing is opened at import time), its calls'
 * errors mapped to ImageCoreError, recreated after a trap or when a call left it oversized.
 *
 * @example
 * ```ts
 * import * as glue from "./pkg/imagecore.js";
 *
 * const core = new WasmModule(glue, "./pkg/imagecore_bg.wasm");
 * console.log(core.call(() => glue.memory_bytes()) > 0); // true
 * ```
 */
export class WasmModule {
  #ready = false;
  /** Wraps `glue`, whose WASM file is `file` (relative to this folder). */
  constructor(readonly glue: Glue, readonly file: string) {}

  /** Whether the module has been instantiated. */
  get ready(): boolean {
    return this.#ready;
  }

  /** Runs `run` on the instance (instantiating it first if needed), mapping its errors. */
  call<T>(run: () => T): T {
    if (!this.#ready) {
      this.glue.initSync({ module: Deno.readFileSync(new URL(this.file, import.meta.url)) });
      this.#ready = true;
    }
    try {
      return run();
    } catch (error) {
      throw this.#toImageCoreError(error);
    } finally {
      // Linear memory only grows; after a large image, start a fresh instance to give it back.
      if (this.glue.memory_bytes() > memoryHighWater) this.glue.__wbg_reset_state();
    }
  }

  #toImageCoreError(error: unknown): ImageCoreError {
    if (typeof error === "string") {
      const tab = error.indexOf("\t");
      const code = error.slice(0, tab) as ImageCoreErrorCode;
      if (tab > 0 && IMAGECORE_ERROR_CODES.includes(code)) {
        return new ImageCoreError(code, error.slice(tab + 1));
      }
    }
    // A trap (panic=abort → unreachable) leaves the instance unusable: start a fresh one. An
    // allocation over the linear-memory cap (see tools/build.ts) traps too, having noted it.
    const outOfMemory = this.glue.take_out_of_memory();
    this.glue.__wbg_reset_state();
    if (outOfMemory) {
      return new ImageCoreError("too_large", "Cannot process image: too large (out of memory)");
    }
    const detail = error instanceof Error ? error.message : String(error);
    return new ImageCoreError("internal", `Cannot process image: internal error (${detail})`);
  }
}
