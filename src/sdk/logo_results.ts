/**
 * What a `LogoClient` returns: a logo's bytes ({@link LogoResult}) or stream ({@link LogoStream})
 * with its metadata, and the outcomes and options of a batch ({@link LogoBatchResult},
 * {@link GetManyOptions}).
 *
 * @module
 */
import type { LogoOptions } from "./options.ts";
import type { LogoMetadata } from "./response.ts";

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
