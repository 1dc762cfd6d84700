/**
 * `LogoClient`: the server-side client of Logo Lookup. It authenticates with a secret key sent
 * only in the `Authorization` header, validates and normalises domains and options with the
 * server's rules before sending, retries 429 and 503 after `Retry-After`, and offers a single
 * fetch (`get`), a batch (`getMany`) and a stream (`getStream`).
 *
 * @module
 */

import { settleBounded } from "./batch.ts";
import { NotFoundError } from "./errors.ts";
import { checkDomain, type LogoOptions, logoUrl, validateOptions } from "./options.ts";
import {
  errorFor,
  imageSizeOf,
  type LogoMetadata,
  readHeaders,
  sizeFromHeaders,
} from "./response.ts";
import { RETRYABLE_STATUSES, retryDelayMs, sleep } from "./retry.ts";
import { peekImageSize } from "./stream.ts";

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
 * A logo's bytes with its metadata, as returned by {@link LogoClient.get}.
 *
 * @example
 * ```ts
 * import { LogoClient, type LogoResult } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const logo: LogoResult = await client.get("github.com");
 * console.log(logo.bytes.length, logo.contentType, logo.width, logo.height);
 * ```
 */
export interface LogoResult extends LogoMetadata {
  /** The image file, complete (backed by its own `ArrayBuffer`, so usable as a `Response` body). */
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * A logo's body as a stream with its metadata, as returned by {@link LogoClient.getStream}.
 *
 * @example
 * ```ts
 * import { LogoClient, type LogoStream } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const logo: LogoStream = await client.getStream("github.com", { size: 1200 });
 * const response = new Response(logo.stream, { headers: { "content-type": logo.contentType } });
 * ```
 */
export interface LogoStream extends LogoMetadata {
  /** The image file, chunk by chunk as it arrives; cancel it to stop the download. */
  stream: ReadableStream<Uint8Array>;
}

/**
 * One outcome of {@link LogoClient.getMany}: the logo, or the error for that domain. `domain` is
 * the input exactly as given.
 *
 * @example
 * ```ts
 * import { LogoClient, type LogoBatchResult } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const results: LogoBatchResult[] = [];
 * for await (const r of client.getMany(["github.com", "deno.com"])) results.push(r);
 * const failed = results.filter((r) => !r.success).map((r) => r.domain);
 * ```
 */
export type LogoBatchResult =
  | ({ domain: string; success: true } & LogoResult)
  | { domain: string; success: false; error: unknown };

/**
 * Options of {@link LogoClient.getMany}: the options of every request plus the batch's width.
 *
 * @example
 * ```ts
 * import { type GetManyOptions, LogoClient } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const options: GetManyOptions = { concurrency: 8, size: 64, format: "webp" };
 * for await (const r of client.getMany(["github.com", "deno.com"], options)) console.log(r.domain);
 * ```
 */
export interface GetManyOptions extends LogoOptions {
  /** How many requests may be in flight at once, an integer ≥ 1. Default 4. */
  concurrency?: number;
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

/**
 * The Logo Lookup server SDK client.
 *
 * @example
 * ```ts
 * import { LogoClient } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({
 *   secretKey: Deno.env.get("LOGO_SECRET_KEY")!,
 *   baseUrl: "https://logos.example.com",
 * });
 * const logo = await client.get("github.com", { size: 512, format: "webp" });
 * await Deno.writeFile("github.webp", logo.bytes);
 * ```
 */
export class LogoClient {
  #secretKey: string;
  #baseUrl: URL;
  #fetch: FetchLike;
  #maxRetries: number;
  #timeout: number;
  #maxRetryWait: number;
  #sleep: SleepLike;

  /**
   * Creates a client. Throws a `TypeError` for a key that does not start with `sk_` (publishable
   * `pk_` keys belong in browser URLs, not here) and for a base URL that is not http(s).
   */
  constructor(options: LogoClientOptions) {
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
    this.#secretKey = secretKey;
    this.#baseUrl = url;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#maxRetries = maxRetries;
    this.#timeout = timeout;
    this.#maxRetryWait = maxRetryWait;
    this.#sleep = options.sleep ?? sleep;
  }

  /**
   * Fetches one logo, up to 1200 px wide, and returns its bytes with metadata. A bad domain or
   * option throws `BadRequestError` before any request; other failures throw the `LogoError`
   * subclass of the answer's status (after retrying 429/503), or the signal's reason on abort.
   *
   * @example
   * ```ts
   * import { LogoClient } from "@logo-lookup/sdk";
   *
   * const client = new LogoClient({ secretKey: "sk_…" });
   * const logo = await client.get("github.com", { size: 256, theme: "dark" });
   * console.log(logo.contentType, logo.width, logo.height, logo.servedDomain);
   * console.log(logo.rateLimit?.remaining, logo.rateLimit?.reset);
   * ```
   */
  async get(domain: string, options: LogoOptions = {}): Promise<LogoResult> {
    const { response, metadata, done } = await this.#open(domain, options);
    try {
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { ...metadata, ...imageSizeOf(response.headers, bytes), bytes };
    } finally {
      done();
    }
  }

  /**
   * Fetches many logos with at most `concurrency` requests in flight (default 4), yielding one
   * result per input domain **in completion order** (fastest first, not input order): `{ domain,
   * success: true, ...logo }` or `{ domain, success: false, error }`, where `domain` is the input
   * exactly as given. One failure never stops the batch; invalid options throw before any request.
   * Aborting `signal` stops the batch and throws its reason; leaving the loop early (`break`)
   * cancels the requests still in flight.
   *
   * @example
   * ```ts
   * import { LogoClient } from "@logo-lookup/sdk";
   *
   * const client = new LogoClient({ secretKey: "sk_…" });
   * for await (const r of client.getMany(["github.com", "deno.com"], { concurrency: 8 })) {
   *   if (r.success) await Deno.writeFile(`${r.domain}.png`, r.bytes);
   *   else console.error(r.domain, r.error);
   * }
   * ```
   */
  async *getMany(
    domains: Iterable<string> | AsyncIterable<string>,
    options: GetManyOptions = {},
  ): AsyncGenerator<LogoBatchResult, void, undefined> {
    const { concurrency = 4, signal, ...logoOptions } = options;
    validateOptions(logoOptions);
    const outcomes = settleBounded(
      domains,
      concurrency,
      (domain, taskSignal) => this.get(domain, { ...logoOptions, signal: taskSignal }),
      signal,
    );
    for await (const outcome of outcomes) {
      yield outcome.ok
        ? { domain: outcome.input, success: true, ...outcome.value }
        : { domain: outcome.input, success: false, error: outcome.error };
    }
  }

  /**
   * Fetches one logo as a stream: resolves as soon as the answer's headers and the image header
   * (for the dimensions) have arrived, with the body as a `ReadableStream` delivering each chunk
   * as it arrives, never buffered whole. Same options, metadata and errors as {@link get}; the
   * signal also cancels the body download.
   *
   * @example
   * ```ts
   * import { LogoClient } from "@logo-lookup/sdk";
   *
   * const client = new LogoClient({ secretKey: "sk_…" });
   * const logo = await client.getStream("github.com", { size: 1200 });
   * using file = await Deno.create("github.png");
   * await logo.stream.pipeTo(file.writable);
   * ```
   */
  async getStream(domain: string, options: LogoOptions = {}): Promise<LogoStream> {
    const { response, metadata, done } = await this.#open(domain, options);
    try {
      const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
      const stated = sizeFromHeaders(response.headers);
      if (stated !== undefined) return { ...metadata, ...stated, stream: body };
      const { size, stream } = await peekImageSize(body);
      if (size === undefined) {
        await stream.cancel();
        throw new TypeError("Cannot read image size: unsupported format");
      }
      return { ...metadata, ...size, stream };
    } finally {
      done();
    }
  }

  /**
   * Sends the request (retrying 429/503) until a 200 whose headers are in; `done` stops the
   * attempt's timeout.
   */
  async #open(
    domain: string,
    options: LogoOptions,
  ): Promise<{
    response: Response;
    metadata: Omit<LogoMetadata, "width" | "height">;
    done: () => void;
  }> {
    validateOptions(options);
    const requested = checkDomain(domain);
    const url = logoUrl(this.#baseUrl, requested, options);
    const { signal } = options;
    signal?.throwIfAborted();
    for (let attempt = 0;; attempt++) {
      const timeout = new AbortController();
      const timer = Number.isFinite(this.#timeout)
        ? setTimeout(() => {
          timeout.abort(
            new DOMException(`Request timed out after ${this.#timeout} ms`, "TimeoutError"),
          );
        }, this.#timeout)
        : undefined;
      const done = () => clearTimeout(timer);
      try {
        const response = await this.#fetch(url, {
          method: "GET",
          headers: { authorization: `Bearer ${this.#secretKey}` },
          redirect: "manual",
          signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
        });
        if (response.status === 200) {
          const metadata = readHeaders(response.headers, requested);
          if (options.fallbackToParent === false && metadata.servedDomain !== requested) {
            await response.body?.cancel();
            throw new NotFoundError("Logo not found");
          }
          return { response, metadata, done };
        }
        const text = await response.text();
        done();
        const error = errorFor(response.status, response.headers, text, Date.now());
        if (!RETRYABLE_STATUSES.has(response.status) || attempt >= this.#maxRetries) throw error;
        const retryAfter = "retryAfter" in error
          ? error.retryAfter as number | undefined
          : undefined;
        const wait = retryDelayMs(retryAfter, attempt);
        if (wait > this.#maxRetryWait) throw error;
        await this.#sleep(wait, signal);
        signal?.throwIfAborted();
      } catch (error) {
        done();
        throw error;
      }
    }
  }
}
