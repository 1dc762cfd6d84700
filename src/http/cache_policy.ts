/**
 * Who may keep a copy of an answer, and for how long: the `Cache-Control` of the cacheable answers
 * (200, its 304 and HEAD, and 404) per audience. Every other answer is `no-store`.
 *
 * - **shared**: an open publishable key (no allowlist). The URL, `?token=pk_…` included, decides
 *   the answer, so any cache may serve it to anyone asking for that URL:
 *   `public, max-age=86400, s-maxage=300` (spec: 24 hours for clients). `s-maxage` makes shared
 *   caches (nginx `proxy_cache`, CDNs) revalidate with `If-None-Match` every 5 minutes — a 304 that
 *   checks the key and counts against its rate limit — so a revoked key stops being served by them.
 * - **private**: a secret key (`Authorization: Bearer sk_…`: the URL carries no credential) or a
 *   key with an allowlist (the answer depends on `Origin`/`Referer`, which many CDNs leave out of
 *   their cache key): `private, max-age=86400`. No shared cache stores it; the browser may.
 *
 * A 404 lives 60 s (`max-age=60`), with the same audience; a shared one also gets `s-maxage` when
 * that is shorter. A fallback — a monogram tile (`fallback=monogram`), or the icon answering a
 * `type=logo` request for a domain with no wordmark — lives an hour (`max-age=3600`): the real
 * image may be added or discovered later. See docs/use/caching.md.
 *
 * @example
 * ```ts
 * import { audienceOf, createCachePolicy } from "./cache_policy.ts";
 * const policy = createCachePolicy(300);
 * policy.image(audienceOf("publishable", null)); // "public, max-age=86400, s-maxage=300"
 * policy.image(audienceOf("secret", null));      // "private, max-age=86400"
 * policy.notFound("private");                    // "private, max-age=60"
 * ```
 * @module
 */
import type { CredentialKind } from "./authenticate.ts";

/** Which caches may store an answer: any (`shared`), or only the requester's own (`private`). */
export type CacheAudience = "shared" | "private";

/** How long clients may reuse a logo, in seconds (spec: 86400). */
export const IMAGE_MAX_AGE_SECONDS = 86_400;
/**
 * How long a monogram tile may be reused, in seconds: a logo added or discovered later replaces it
 * within the hour.
 */
export const MONOGRAM_MAX_AGE_SECONDS = 3_600;
/** How long a 404 may be reused, in seconds: a logo added later shows within a minute. */
export const NOT_FOUND_MAX_AGE_SECONDS = 60;
/**
 * How long a shared cache may serve an open key's answer before revalidating it, in seconds: the
 * longest a revoked key (or a newly added allowlist) keeps working through a shared cache.
 */
export const SHARED_CACHE_MAX_AGE_SECONDS = 300;
/** `Cache-Control` of every answer that no cache may keep (errors other than 404). */
export const NO_STORE = "no-store";

/** The `Cache-Control` values of the cacheable answers, per audience. */
export interface CachePolicy {
  /** Of a 200, its 304 and its HEAD. */
  image(audience: CacheAudience): string;
  /** Of a 404. */
  notFound(audience: CacheAudience): string;
  /** Of a fallback's 200 (a monogram tile, an icon for a missing wordmark), its 304 and HEAD. */
  monogram(audience: CacheAudience): string;
}

/**
 * The audience of an answer to a request that authenticated with `kind` and matched
 * `allowedOrigin` (`null`: the key has no allowlist).
 */
export function audienceOf(kind: CredentialKind, allowedOrigin: string | null): CacheAudience {
  return kind === "publishable" && allowedOrigin === null ? "shared" : "private";
}

/**
 * The policy with shared caches revalidating after `sharedMaxAgeSeconds` (a whole number ≥ 1;
 * default {@link SHARED_CACHE_MAX_AGE_SECONDS}). The strings are built once, here.
 *
 * @throws {RangeError} when `sharedMaxAgeSeconds` is not a whole number of at least 1.
 */
export function createCachePolicy(
  sharedMaxAgeSeconds: number = SHARED_CACHE_MAX_AGE_SECONDS,
): CachePolicy {
  if (!Number.isSafeInteger(sharedMaxAgeSeconds) || sharedMaxAgeSeconds < 1) {
    throw new RangeError(
      `Invalid shared cache max-age: must be a whole number of seconds from 1, got ${sharedMaxAgeSeconds}`,
    );
  }
  const sharedImage = `public, max-age=${IMAGE_MAX_AGE_SECONDS}, s-maxage=${sharedMaxAgeSeconds}`;
  const privateImage = `private, max-age=${IMAGE_MAX_AGE_SECONDS}`;
  const sharedNotFound = sharedMaxAgeSeconds < NOT_FOUND_MAX_AGE_SECONDS
    ? `public, max-age=${NOT_FOUND_MAX_AGE_SECONDS}, s-maxage=${sharedMaxAgeSeconds}`
    : `public, max-age=${NOT_FOUND_MAX_AGE_SECONDS}`;
  const privateNotFound = `private, max-age=${NOT_FOUND_MAX_AGE_SECONDS}`;
  const sharedMonogram = `public, max-age=${MONOGRAM_MAX_AGE_SECONDS}, s-maxage=${
    Math.min(sharedMaxAgeSeconds, MONOGRAM_MAX_AGE_SECONDS)
  }`;
  const privateMonogram = `private, max-age=${MONOGRAM_MAX_AGE_SECONDS}`;
  return {
    monogram: (audience) => audience === "shared" ? sharedMonogram : privateMonogram,
    image: (audience) => audience === "shared" ? sharedImage : privateImage,
    notFound: (audience) => audience === "shared" ? sharedNotFound : privateNotFound,
  };
}

/** The policy with the default shared max-age. */
export const DEFAULT_CACHE_POLICY: CachePolicy = createCachePolicy();
