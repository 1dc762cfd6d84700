/**
 * One HTTP exchange read completely, so tests never leak a response body.
 *
 * @example
 * ```ts
 * import { exchange } from "./support/http.ts";
 * const { status, headers, text } = await exchange("http://127.0.0.1:8000/example.com");
 * ```
 * @module
 */

/** A response with its body read. */
export interface Exchange {
  /** HTTP status. */
  readonly status: number;
  /** Response headers. */
  readonly headers: Headers;
  /** The body's bytes (empty for HEAD and 304). */
  readonly bytes: Uint8Array;
  /** The body as UTF-8 text. */
  readonly text: string;
}

/** Fetches `url` and reads the whole body. */
export async function exchange(url: string, init?: RequestInit): Promise<Exchange> {
  const response = await fetch(url, init);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    text: new TextDecoder().decode(bytes),
  };
}
