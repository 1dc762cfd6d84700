/**
 * SHA-256 as lowercase hex: the content address of stored blobs and the only form in which a
 * secret key is kept.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./sha256.ts";
 * await sha256Hex(new TextEncoder().encode("abc")); // "ba7816bf…"
 * ```
 * @module
 */

/** Returns the SHA-256 of `data` (bytes, or a string encoded as UTF-8) as 64 lowercase hex digits. */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
