/**
 * Server SDK of Logo Lookup: fetch company logos by domain with a secret key — one at a time
 * (`get`, up to 1200 px), in bulk with bounded concurrency (`getMany`), or as a stream
 * (`getStream`). Errors are one class per HTTP status under {@link LogoError}; 429 and 503 are
 * retried after `Retry-After`; every call takes an `AbortSignal`.
 *
 * @example
 * ```ts
 * import { LogoClient, NotFoundError } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({
 *   secretKey: Deno.env.get("LOGO_SECRET_KEY")!,
 *   baseUrl: "https://logos.example.com",
 * });
 * try {
 *   const logo = await client.get("github.com", { size: 512 });
 *   console.log(logo.contentType, logo.width, logo.height, logo.rateLimit?.remaining);
 * } catch (error) {
 *   if (error instanceof NotFoundError) console.log("no logo");
 *   else throw error;
 * }
 * ```
 *
 * @module
 */

export {
  DEFAULT_BASE_URL,
  type FetchLike,
  type GetManyOptions,
  type LogoBatchResult,
  LogoClient,
  type LogoClientOptions,
  type LogoResult,
  type LogoStream,
  type SleepLike,
} from "./client.ts";
export {
  BadRequestError,
  ForbiddenError,
  LogoError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnauthorizedError,
} from "./errors.ts";
export {
  type LogoFallback,
  type LogoFormat,
  type LogoOptions,
  type LogoTheme,
  type LogoType,
  MAX_SIZE,
} from "./options.ts";
export type { FallbackMark, LogoMetadata, RateLimitState } from "./response.ts";
