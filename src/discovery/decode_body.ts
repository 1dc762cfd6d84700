/**
 * A response body undone from its `Content-Encoding` (gzip or deflate, through the built-in
 * `DecompressionStream`), with the byte cap applied to the decoded output too.
 *
 * @module
 */
import { SafeFetchError, tooLarge } from "./safe_fetch_error.ts";

/**
 * Joins `chunks`, `total` bytes in all, into one array.
 *
 * @example
 * ```ts
 * console.log(concat([new Uint8Array([1]), new Uint8Array([2, 3])], 3)); // Uint8Array [1, 2, 3]
 * ```
 */
export function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * Undoes gzip/deflate with the byte cap applied to the decoded output too.
 *
 * @example
 * ```ts
 * const body = await decode(new TextEncoder().encode("hi"), null, "https://example.com/", 1024);
 * ```
 */
export async function decode(
  body: Uint8Array,
  encoding: string | null,
  href: string,
  maxBytes: number,
): Promise<Uint8Array> {
  const name = (encoding ?? "identity").trim().toLowerCase();
  if (name === "identity" || name === "") return body;
  if (name !== "gzip" && name !== "x-gzip" && name !== "deflate") {
    throw new SafeFetchError("bad_encoding", href, `Cannot decode ${href}: ${name} encoding`);
  }
  const format = name === "deflate" ? "deflate" : "gzip";
  const stream = new Blob([body as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new DecompressionStream(format),
  );
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += chunk.length;
      if (total > maxBytes) throw tooLarge(href, maxBytes);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof SafeFetchError) throw error;
    throw new SafeFetchError("bad_encoding", href, `Cannot decode ${href}: corrupt ${name} body`);
  }
  return concat(chunks, total);
}
