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

/** A `fetch`-compatible function: the global `fetch`, or a test server's `fetch`. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Fetches `url` with `fetcher` (the global `fetch` by default; pass a test server's `fetch` to go
 * through its handler without a socket) and reads the whole body.
 */
export async function exchange(
  url: string,
  init?: RequestInit,
  fetcher: Fetch = fetch,
): Promise<Exchange> {
  return readExchange(await fetcher(url, init));
}

/** Reads `response` completely. */
export async function readExchange(response: Response): Promise<Exchange> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    text: new TextDecoder().decode(bytes),
  };
}
