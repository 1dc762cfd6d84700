/**
 * Step 7 of the request path, respond: the image (200), the revalidation answer (304) and every
 * error, with the headers the spec and our behaviour decisions call for.
 *
 * - 200: exact `Content-Type`, `Content-Length`, `Cache-Control` of its audience
 *   (`cache_policy.ts`: `public, max-age=86400, s-maxage=…` for an open publishable key,
 *   `private, max-age=86400` for a secret or allowlisted one), strong `ETag`,
 *   `X-RateLimit-Limit/Remaining/Reset`, `X-Logo-Domain`, `X-Logo-Width`/`X-Logo-Height` (the
 *   image's dimensions in px, so a client need not parse the image), `X-Content-Type-Options:
 *   nosniff`, CORS; `X-Logo-Fallback` listing what was substituted (`monogram`, `png`). An SVG
 *   (`format=svg`) also gets {@link SVG_CONTENT_SECURITY_POLICY}.
 *   `HEAD` sends the same headers and no body.
 * - 304: the same caching, rate-limit and CORS headers as the 200 it revalidates, no body.
 * - Errors: the plain-text body of the `HttpError`, its extra headers, an explicit
 *   `Cache-Control` (a 404 lives 60 s for its audience, everything else is `no-store`), CORS, and
 *   the rate-limit headers when the request was counted. Anything that is not an `HttpError` is
 *   logged and answered 500 `Internal server error`, without details.
 *
 * @example
 * ```ts
 * import { respondError } from "./respond.ts";
 * import { HttpError } from "../http_error.ts";
 * respondError(new HttpError(404, "Logo not found"), { method: "GET" }).status; // 404
 * ```
 * @module
 */
import {
  type CacheAudience,
  type CachePolicy,
  DEFAULT_CACHE_POLICY,
  NO_STORE,
} from "./cache_policy.ts";
import { corsHeaders } from "./cors.ts";
import type { Log } from "../safe_log.ts";
import { HttpError } from "../http_error.ts";
import type { RateLimitDecision } from "../limits/rate_limiter.ts";
import { type Answer, answerLength } from "./render_variant.ts";
import { CONTENT_TYPES, fallbackHeader, type FallbackMark } from "../sdk/logo_options.ts";

/**
 * The `Content-Security-Policy` of every SVG answer, for when it is opened as a document (a tab,
 * an `<iframe>`, an `<object>`; as an `<img>` a browser runs nothing and loads nothing anyway):
 * `default-src 'none'` lets it fetch nothing — no script, style sheet, font, image or
 * connection; `style-src 'unsafe-inline'` keeps the `style` attributes the sanitiser writes
 * (blend modes, isolation) working; `sandbox` without `allow-scripts` forbids scripts outright
 * and gives the document an opaque origin, so even a script that escaped the sanitiser could not
 * run or reach this origin's cookies or storage.
 */
export const SVG_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** What a response needs to know about the request besides its result. */
export interface ResponseContext {
  /** `GET` or `HEAD` (anything else is answered like `GET`). */
  readonly method: string;
  /** The origin to reflect in CORS (a key with an allowlist), or `null`/absent for any origin. */
  readonly allowedOrigin?: string | null;
  /** The rate-limit decision, once the request was counted. */
  readonly quota?: RateLimitDecision;
  /** The domain whose logo is served, once resolved. */
  readonly servedDomain?: string;
  /**
   * Which caches may keep a 200/304/404 (`audienceOf` in `cache_policy.ts`); default `private`,
   * so an answer whose credential is unknown is never shared.
   */
  readonly audience?: CacheAudience;
  /** The `Cache-Control` values; default {@link DEFAULT_CACHE_POLICY}. */
  readonly cachePolicy?: CachePolicy;
  /**
   * Set when the image stands in for the one asked (`icon` for a missing wordmark, `monogram` for
   * a missing logo, `png` for an SVG asked of an image with none, in that order): sent as
   * `X-Logo-Fallback` (comma-separated). With `icon` or `monogram` the answer gets the fallbacks'
   * shorter `Cache-Control` (an hour: the real image may be added later); `png` alone keeps the
   * image's, being the lasting answer for that image.
   */
  readonly fallback?: readonly FallbackMark[];
}

/** Most prepared 200 responses kept per variant (per served domain, CORS origin and caching). */
const TEMPLATES_PER_VARIANT = 16;

/** A variant's body, held once, and its prepared 200 responses by key. */
interface Prepared {
  /** A `Response` with the variant's bytes and no headers: the one copy every template shares. */
  readonly body: Response;
  /** Prepared responses by cache policy, served domain and CORS origin. */
  readonly byKey: Map<string, Response>;
}

/**
 * Prepared 200 responses per variant, without the per-request rate-limit headers. Building a
 * `Response` validates every header value and dominated the hot path; cloning a prepared one and
 * appending three short headers costs a fraction of it. They go with their variant.
 *
 * Deno's `Response` constructor copies a `Uint8Array` body, while `clone()` shares it: every
 * template of a variant is a clone of its one `body`, so a cached variant costs its bytes twice
 * (which the variant cache counts: `copies: 2` in `app.ts`), not once more per template.
 *
 * A variant is prepared on its second 200, not its first ({@link ANSWERED_ONCE} until then):
 * most renders of uncommon sizes and themes are asked for once, and preparing them filled the
 * serving isolate's old generation with responses nobody reused (two `Response`s, a `Map` and a
 * copy of the bytes each), whose collections delayed cache hits (bench/results/2026-11-27-render-pool.md,
 * **Sixth quiet run**). A default answer kept on its record (`stored_answer.ts`, from the record's
 * first answer) is its body `Response` already: its first 200 is a clone of that body with the
 * headers (no copy), and its templates are made at its second, as any variant's.
 *
 * The state is a property of the variant object under this module's symbol, not an entry of a
 * `WeakMap` keyed by the variant: V8 marks a `WeakMap`'s entries (ephemerons) in the final,
 * stop-the-world pause of a full collection, which with tens of thousands of cached variants was
 * most of that pause (`--trace-gc-nvp`: `mark.ephemeron.marking`; bench/results/2026-11-27-store-lookup.md). A frozen variant is
 * never prepared.
 */
const PREPARED = Symbol("prepared 200 responses");

/** A variant as this module sees it: with the state it keeps on it. */
type Preparable = Answer & { [PREPARED]?: Prepared | typeof ANSWERED_ONCE };

/** A variant's state ({@link PREPARED}) after its first 200 (a plain `Response`, not kept). */
const ANSWERED_ONCE = "answered once";

function commonHeaders(context: ResponseContext, cacheControl: string): [string, string][] {
  const headers: [string, string][] = [];
  for (const pair of corsHeaders(context.allowedOrigin ?? null)) {
    headers.push(pair as [string, string]);
  }
  headers.push(["cache-control", cacheControl], ["x-content-type-options", "nosniff"]);
  if (context.servedDomain !== undefined) headers.push(["x-logo-domain", context.servedDomain]);
  const fallback = fallbackHeader(context.fallback ?? []);
  if (fallback !== undefined) headers.push(["x-logo-fallback", fallback]);
  return headers;
}

function rateLimitHeaders(headers: [string, string][], quota: RateLimitDecision | undefined) {
  if (quota === undefined) return;
  headers.push(
    ["x-ratelimit-limit", String(quota.limit)],
    ["x-ratelimit-remaining", String(quota.remaining)],
    ["x-ratelimit-reset", String(quota.reset)],
  );
}

function imageCacheControl(context: ResponseContext): string {
  const policy = context.cachePolicy ?? DEFAULT_CACHE_POLICY;
  const audience = context.audience ?? "private";
  // An hour when the real image may come later (a wordmark, a logo); `png` alone is lasting.
  const temporary = (context.fallback ?? []).some((mark) => mark !== "png");
  return temporary ? policy.monogram(audience) : policy.image(audience);
}

function imageHeaders(
  variant: Answer,
  context: ResponseContext,
  cacheControl: string,
): [string, string][] {
  const headers = commonHeaders(context, cacheControl);
  headers.push(
    ["content-type", variant.contentType],
    ["etag", variant.etag],
    ["x-logo-width", String(variant.width)],
    ["x-logo-height", String(variant.height)],
  );
  if (variant.contentType === CONTENT_TYPES.svg) {
    headers.push(["content-security-policy", SVG_CONTENT_SECURITY_POLICY]);
  }
  // A GET's Content-Length is set by Deno.serve from the body; a HEAD has no body to count.
  if (context.method === "HEAD") {
    headers.push(["content-length", String(answerLength(variant))]);
  }
  return headers;
}

/** The 200 answer: the image, or for `HEAD` its headers alone. */
export function respondImage(variant: Answer, context: ResponseContext): Response {
  const cacheControl = imageCacheControl(context);
  const head = context.method === "HEAD";
  const slot = variant as Preparable;
  let prepared = slot[PREPARED];
  if (head || prepared === undefined) {
    // A HEAD, or a variant's first 200: the headers of a prepared one, built once and not kept.
    if (!head && Object.isExtensible(slot)) slot[PREPARED] = ANSWERED_ONCE;
    const headers = imageHeaders(variant, context, cacheControl);
    rateLimitHeaders(headers, context.quota);
    if (!head && "body" in variant) {
      // A stored answer's body is its one copy: a clone shares it (no template kept yet).
      const response = variant.body.clone();
      for (const [name, value] of headers) response.headers.append(name, value);
      return response;
    }
    const body = head || !("bytes" in variant) ? null : variant.bytes as Uint8Array<ArrayBuffer>;
    return new Response(body, { status: 200, headers });
  }
  if (prepared === undefined || prepared === ANSWERED_ONCE) {
    const body = "body" in variant
      ? variant.body
      : new Response(variant.bytes as Uint8Array<ArrayBuffer>, { status: 200 });
    prepared = { body, byKey: new Map() };
    if (Object.isExtensible(slot)) slot[PREPARED] = prepared;
  }
  const templateKey = `${cacheControl} ${context.servedDomain ?? ""} ${
    context.allowedOrigin ?? "*"
  } ${context.fallback?.join() ?? ""}`;
  let template = prepared.byKey.get(templateKey);
  if (template === undefined) {
    if (prepared.byKey.size >= TEMPLATES_PER_VARIANT) prepared.byKey.clear();
    template = prepared.body.clone(); // shares the body's bytes
    for (const [name, value] of imageHeaders(variant, context, cacheControl)) {
      template.headers.append(name, value);
    }
    prepared.byKey.set(templateKey, template);
  }
  const response = template.clone();
  const quota = context.quota;
  if (quota !== undefined) {
    const headers = response.headers;
    headers.append("x-ratelimit-limit", String(quota.limit));
    headers.append("x-ratelimit-remaining", String(quota.remaining));
    headers.append("x-ratelimit-reset", String(quota.reset));
  }
  return response;
}

/** The 304 answer to a matching `If-None-Match`: the caching headers of a 200, no body. */
export function respondNotModified(etag: string, context: ResponseContext): Response {
  const headers = commonHeaders(context, imageCacheControl(context));
  headers.push(["etag", etag]);
  rateLimitHeaders(headers, context.quota);
  return new Response(null, { status: 304, headers });
}

/**
 * Whether an `If-None-Match` header value matches `etag` (weak comparison, as RFC 9110 asks for
 * `If-None-Match`): `*`, or any listed tag equal to it with or without `W/`.
 */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  for (const candidate of ifNoneMatch.split(",")) {
    const tag = candidate.trim();
    if (tag === "*" || tag === etag || (tag.startsWith("W/") && tag.slice(2) === etag)) {
      return true;
    }
  }
  return false;
}

/** The `Cache-Control` of an error with `status`: a 404 lives briefly, nothing else is kept. */
export function errorCacheControl(status: number, context: ResponseContext): string {
  if (status !== 404) return NO_STORE;
  return (context.cachePolicy ?? DEFAULT_CACHE_POLICY).notFound(context.audience ?? "private");
}

/** UTF-8 length of `text` without encoding it when it is ASCII, as every public message is. */
function utf8Length(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) return new TextEncoder().encode(text).byteLength;
  }
  return text.length;
}

/**
 * The answer to anything thrown on the request path: an `HttpError` becomes its status, plain-text
 * body and headers; anything else is logged and becomes 500 `Internal server error`.
 */
export function respondError(
  error: unknown,
  context: ResponseContext,
  log: Log = console.error,
): Response {
  let httpError: HttpError;
  if (error instanceof HttpError) {
    httpError = error;
  } else {
    log("Internal error on the request path", error);
    httpError = new HttpError(500, "Internal server error");
  }
  // A plain record and a string body: no Headers object or encoded copy per answer, which matters
  // on the 429 path under load (bench/load_bench.ts).
  const common = commonHeaders(
    { ...context, servedDomain: undefined },
    errorCacheControl(httpError.status, context),
  );
  rateLimitHeaders(common, context.quota);
  const headers: Record<string, string> = Object.fromEntries(common);
  for (const [name, value] of Object.entries(httpError.headers)) {
    headers[name.toLowerCase()] = value;
  }
  const body = httpError.publicMessage;
  headers["content-type"] = "text/plain; charset=utf-8";
  headers["content-length"] = String(utf8Length(body));
  return new Response(context.method === "HEAD" ? null : body, {
    status: httpError.status,
    headers,
  });
}

export type { Log };
