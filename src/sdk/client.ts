/**
 * `LogoClient`: the server-side client of Logo Lookup. It authenticates with a secret key sent
 * only in the `Authorization` header, validates and normalises domains and options with the
 * server's rules before sending, retries 429 and 503 after `Retry-After`, and offers a single
 * fetch (`get`), a batch (`getMany`) and a stream (`getStream`).
 *
 * @module
 */

import { settleBounded } from "./batch.ts";
import {
  type ClientSettings,
  DEFAULT_BASE_URL,
  type FetchLike,
  type LogoClientOptions,
  resolveClientOptions,
  type SleepLike,
} from "./client_options.ts";
import { NotFoundError } from "./errors.ts";
import type { GetManyOptions, LogoBatchResult, LogoResult, LogoStream } from "./logo_results.ts";
import { checkDomain, type LogoOptions, logoUrl, validateOptions } from "./options.ts";
import {
  errorFor,
  imageSizeOf,
  type LogoMetadata,
  readHeaders,
  sizeFromHeaders,
} from "./response.ts";
import { RETRYABLE_STATUSES, retryDelayMs } from "./retry.ts";
import { peekImageSize } from "./stream.ts";

export {
  DEFAULT_BASE_URL,
  type FetchLike,
  type GetManyOptions,
  type LogoBatchResult,
  type LogoClientOptions,
  type LogoResult,
  type LogoStream,
  type SleepLike,
};

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
  #settings: ClientSettings;

  /**
   * Creates a client. Throws a `TypeError` for a key that does not start with `sk_` (publishable
   * `pk_` keys belong in browser URLs, not here) and for a base URL that is not http(s).
   */
  constructor(options: LogoClientOptions) {
    this.#settings = resolveClientOptions(options);
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
    const settings = this.#settings;
    validateOptions(options);
    const requested = checkDomain(domain);
    const url = logoUrl(settings.baseUrl, requested, options);
    const { signal } = options;
    signal?.throwIfAborted();
    for (let attempt = 0;; attempt++) {
      const timeout = new AbortController();
      const timer = Number.isFinite(settings.timeout)
        ? setTimeout(() => {
          timeout.abort(
            new DOMException(`Request timed out after ${settings.timeout} ms`, "TimeoutError"),
          );
        }, settings.timeout)
        : undefined;
      const done = () => clearTimeout(timer);
      try {
        const response = await settings.fetch(url, {
          method: "GET",
          headers: { authorization: `Bearer ${settings.secretKey}` },
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
        if (!RETRYABLE_STATUSES.has(response.status) || attempt >= settings.maxRetries) throw error;
        const retryAfter = "retryAfter" in error
          ? error.retryAfter as number | undefined
          : undefined;
        const wait = retryDelayMs(retryAfter, attempt);
        if (wait > settings.maxRetryWait) throw error;
        await settings.sleep(wait, signal);
        signal?.throwIfAborted();
      } catch (error) {
        done();
        throw error;
      }
    }
  }
}
