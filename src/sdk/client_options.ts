/**
 * The settings of a `LogoClient`: the `fetch` and `sleep` it may be given, its options and their
 * defaults, and the checks the constructor applies to them.
 *
 * @module
 */
import { sleep } from "./retry.ts";

/**
 * A `fetch`-compatible function, such as `globalThis.fetch` or a wrapper around it.
 *
 * @example
 * ```ts
 * import { type FetchLike, LogoClient } from "@logo-lookup/sdk";
 *
 * const logged: FetchLike = (input, init) => {
 *   console.log("GET", String(input));
 *   return fetch(input, init);
 * };
 * const client = new LogoClient({ secretKey: "sk_…", fetch: logged });
 * ```
 */
export type FetchLike = (input: URL | Request | string, init?: RequestInit) => Promise<Response>;

/**
 * How the client waits before a retry; rejects with `signal.reason` when the signal aborts.
 *
 * @example
 * ```ts
 * import { LogoClient, type SleepLike } from "@logo-lookup/sdk";
 *
 * // Never wait more than 5 s, whatever Retry-After says.
 * const capped: SleepLike = (ms, signal) =>
 *   new Promise((resolve, reject) => {
 *     const timer = setTimeout(resolve, Math.min(ms, 5000));
 *     signal?.addEventListener("abort", () => {
 *       clearTimeout(timer);
 *       reject(signal.reason);
 *     }, { once: true });
 *   });
 * const client = new LogoClient({ secretKey: "sk_…", sleep: capped });
 * ```
 */
export type SleepLike = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * Settings of a {@link LogoClient}.
 *
 * @example
 * ```ts
 * import { LogoClient, type LogoClientOptions } from "@logo-lookup/sdk";
 *
 * const options: LogoClientOptions = {
 *   secretKey: "sk_…",
 *   baseUrl: "https://logos.example.com",
 *   maxRetries: 3,
 *   timeout: 10_000,
 * };
 * const client = new LogoClient(options);
 * ```
 */
export interface LogoClientOptions {
  /** The secret key (`sk_…`). Sent only as `Authorization: Bearer`, never in a URL. */
  secretKey: string;
  /** Where the service runs. Default `http://localhost:8000` (what `deno task start` serves). */
  baseUrl?: string | URL;
  /** The `fetch` to use. Default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** How many times a 429 or 503 answer is retried after its `Retry-After`. Default 2. */
  maxRetries?: number;
  /**
   * Longest wait, in milliseconds, the client makes before a retry. A 429 or 503 asking for a
   * longer one (say, an hourly quota used up) is thrown at once rather than waited for.
   * Default 60000; `Infinity` always waits.
   */
  maxRetryWait?: number;
  /**
   * Milliseconds one attempt may take: until the whole body for `get`, until the answer's headers
   * (and the image header) for `getStream`. Rejects with a `TimeoutError` `DOMException`.
   * Default 30000; `Infinity` disables it.
   */
  timeout?: number;
  /** How to wait between retries. Default: a timer, cancelled at once by the request's signal. */
  sleep?: SleepLike;
}

/**
 * Default service address: a local `deno task start`.
 *
 * @example
 * ```ts
 * import { DEFAULT_BASE_URL } from "@logo-lookup/sdk";
 *
 * console.log(DEFAULT_BASE_URL); // "http://localhost:8000"
 * ```
 */
export const DEFAULT_BASE_URL = "http://localhost:8000";

/** A client's settings with every default applied, as {@link resolveClientOptions} returns them. */
export interface ClientSettings {
  /** The secret key (`sk_…`). */
  secretKey: string;
  /** Where the service runs. */
  baseUrl: URL;
  /** The `fetch` to use. */
  fetch: FetchLike;
  /** Retries of a 429 or 503. */
  maxRetries: number;
  /** Milliseconds one attempt may take. */
  timeout: number;
  /** Longest wait before a retry, in milliseconds. */
  maxRetryWait: number;
  /** How to wait between retries. */
  sleep: SleepLike;
}

/**
 * Checks a client's options and applies the defaults. Throws a `TypeError` for a key that does
 * not start with `sk_` (publishable `pk_` keys belong in browser URLs, not here) and for a base
 * URL that is not http(s), and a `RangeError` for an out-of-range number.
 *
 * @example
 * ```ts
 * const settings = resolveClientOptions({ secretKey: "sk_test" });
 * console.log(settings.baseUrl.href, settings.maxRetries); // "http://localhost:8000/" 2
 * ```
 */
export function resolveClientOptions(options: LogoClientOptions): ClientSettings {
  const {
    secretKey,
    baseUrl = DEFAULT_BASE_URL,
    maxRetries = 2,
    maxRetryWait = 60_000,
    timeout = 30_000,
  } = options;
  if (typeof secretKey !== "string" || !/^sk_[\x21-\x7e]+$/.test(secretKey)) {
    throw new TypeError(
      "Invalid secret key: must start with sk_ (publishable pk_ keys are for browser URLs)",
    );
  }
  const url = new URL(baseUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError("Invalid baseUrl: must be an http or https URL");
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    throw new TypeError("Invalid baseUrl: must not carry credentials, a query or a fragment");
  }
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new RangeError("Invalid maxRetries: must be an integer of at least 0");
  }
  if (typeof timeout !== "number" || !(timeout > 0)) {
    throw new RangeError("Invalid timeout: must be a positive number of milliseconds");
  }
  if (typeof maxRetryWait !== "number" || !(maxRetryWait >= 0)) {
    throw new RangeError("Invalid maxRetryWait: must be a number of milliseconds, at least 0");
  }
  return {
    secretKey,
    baseUrl: url,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    maxRetries,
    timeout,
    maxRetryWait,
    sleep: options.sleep ?? sleep,
  };
}
