/**
 * Measuring a streamed image without buffering it: read just enough of the body to find the
 * dimensions in the image header, then hand back a stream that replays those chunks and passes
 * the rest through as it arrives.
 *
 * @module
 */

import { type ImageSize, readImageSize } from "./image_size.ts";

/** How many bytes the SDK reads ahead at most, looking for an image header. */
export const PEEK_LIMIT = 64 * 1024;

/** A body whose dimensions have been read from its first chunks. */
export interface PeekedBody {
  /** Dimensions from the image header; undefined when the first bytes did not tell. */
  size: ImageSize | undefined;
  /** The whole body, from its first byte, delivered chunk by chunk as it arrives. */
  stream: ReadableStream<Uint8Array>;
}

/**
 * Reads the first chunks of `body` until the image header gives the dimensions (or
 * {@link PEEK_LIMIT} bytes, or the end); returns them with a stream of the whole body.
 * Cancelling the returned stream cancels `body`.
 *
 * @example
 * ```ts
 * const response = await fetch("https://example.com/logo.png");
 * const { size, stream } = await peekImageSize(response.body!);
 * ```
 */
export async function peekImageSize(body: ReadableStream<Uint8Array>): Promise<PeekedBody> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let seen = new Uint8Array(0);
  let size: ImageSize | undefined;
  let done = false;
  try {
    while (true) {
      const found = readImageSize(seen);
      if (found !== "more") {
        size = found;
        break;
      }
      if (seen.length >= PEEK_LIMIT) break;
      const next = await reader.read();
      if (next.done) {
        done = true;
        break;
      }
      chunks.push(next.value);
      const joined = new Uint8Array(seen.length + next.value.length);
      joined.set(seen);
      joined.set(next.value, seen.length);
      seen = joined;
    }
  } catch (error) {
    reader.releaseLock();
    throw error;
  }
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const buffered = chunks.shift();
      if (buffered !== undefined) return controller.enqueue(buffered);
      if (done) return controller.close();
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return { size, stream };
}
