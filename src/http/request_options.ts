/**
 * Step 1 of the request path, parse: turns a `GET`/`HEAD /{domain}?…` request into a
 * {@link LogoRequest} — the normalised domain, the rendering options and the credentials as sent —
 * or throws the `HttpError` 400 that says what is wrong. Values are never clamped or guessed.
 *
 * @example
 * ```ts
 * import { createRequestParser } from "./request_options.ts";
 * const parseRequest = createRequestParser();
 * const request = parseRequest(new Request("http://localhost/Example.com?token=pk_x&size=64"));
 * request.domain;       // "example.com"
 * request.options.size; // 64
 * ```
 * @module
 */
import { normalizeDomain } from "../domain_name.ts";
import { HttpError } from "../http_error.ts";
import {
  DEFAULT_FALLBACK,
  DEFAULT_TYPE,
  FALLBACK_RULE,
  isLogoFallback,
  isLogoType,
  type LogoFallback,
  type LogoType,
  MAX_PUBLISHABLE_SIZE,
  MAX_SECRET_SIZE,
  TYPE_RULE,
} from "../sdk/logo_options.ts";
import {
  DEFAULT_SPEC,
  parseSpec,
  RENDER_OPTIONS,
  RENDER_SPEC,
  type RenderSpec,
} from "../../imagecore/render_spec.ts";
import { invalidTarget, requestTarget } from "./request_target.ts";

/**
 * Options of one request, validated: the render spec's (`imagecore/render_spec.ts`), the type and
 * the fallback.
 */
export interface LogoOptions extends RenderSpec {
  /** What answers when no logo is found: `404` (default) or a `monogram` tile. */
  readonly fallback: LogoFallback;
  /** Which image: the `icon` (default) or the wordmark (`logo`, the icon when there is none). */
  readonly type: LogoType;
}

/** A parsed request: what the later steps need and nothing else. */
export interface LogoRequest {
  /** `GET` or `HEAD`. */
  readonly method: "GET" | "HEAD";
  /** The normalised domain asked for (see `normalizeDomain`). */
  readonly domain: string;
  /** Validated rendering options. */
  readonly options: LogoOptions;
  /** The `token` query parameter as sent, or `null`. */
  readonly token: string | null;
  /** The `Authorization` header as sent, or `null`. */
  readonly authorization: string | null;
  /** The `Origin` header, or `null`. */
  readonly origin: string | null;
  /** The `Referer` header, or `null`. */
  readonly referer: string | null;
  /** The `If-None-Match` header, or `null`. */
  readonly ifNoneMatch: string | null;
}

/** The default options: the icon as a 128-px PNG, no greyscale, no theme, `404` when none. */
export const DEFAULT_OPTIONS: LogoOptions = Object.freeze({
  ...DEFAULT_SPEC,
  fallback: DEFAULT_FALLBACK,
  type: DEFAULT_TYPE,
});

/** Query parameters the endpoint reads; each may appear at most once. Others are ignored. */
const KNOWN_PARAMETERS: readonly string[] = ["token", ...RENDER_OPTIONS, "fallback", "type"];

/** The 400 for a path that is not a valid domain (spec text). */
export function invalidDomain(): HttpError {
  return new HttpError(400, "Invalid domain format");
}

/** The part of a parsed request that depends on its URL alone. */
interface ParsedTarget {
  readonly domain: string;
  readonly options: LogoOptions;
  readonly token: string | null;
}

/**
 * Most request targets {@link createRequestParser} remembers, so a catalogue of tens of thousands
 * of logos, each asked at one size, is parsed once (a smaller memo missed most requests at 30,000
 * logos: `deno task bench:lookup`, bench/results/2026-11-27-store-lookup.md).
 */
export const PARSE_MEMO_MAX_ENTRIES = 50_000;
/** Longest request target {@link createRequestParser} remembers, in characters. */
export const PARSE_MEMO_MAX_URL_LENGTH = 512;

/**
 * A fixed authority to resolve a request target against, so the WHATWG URL parser reads only the
 * target's path and query (a target `//evil.example/x` stays a path here).
 */
const TARGET_BASE = "http://target.invalid";

/**
 * Creates the parse step for `GET` and `HEAD /{domain}` requests. The domain and options come from
 * the request target alone (see `request_target.ts`), never from the `Host` header. It remembers
 * the targets (up to 512 characters) of the last `maxEntries` valid requests without an
 * `Authorization` header, so a page's repeated `<img>` URL is parsed once and then costs a map
 * lookup. Invalid targets and secret keys are never remembered.
 *
 * The returned function throws `HttpError` 404 `Not found` for `/` and paths that are not a domain,
 * 400 `Invalid domain format` for a path that is not a valid domain (a protocol, a path, a port, an
 * IP…), and 400 with the reason for a bad query value.
 */
export function createRequestParser(
  maxEntries: number = PARSE_MEMO_MAX_ENTRIES,
): (request: Request) => LogoRequest {
  const memo = new Map<string, ParsedTarget>();
  return function parseRequestMemo(request: Request): LogoRequest {
    const target = requestTarget(request.url);
    const authorization = request.headers.get("authorization");
    if (authorization !== null) {
      const maxSize = isSecretBearer(authorization) ? MAX_SECRET_SIZE : MAX_PUBLISHABLE_SIZE;
      return withHeaders(request, authorization, parseTarget(target, maxSize));
    }
    let parsed = memo.get(target);
    if (parsed === undefined) {
      parsed = parseTarget(target, MAX_PUBLISHABLE_SIZE);
      // Long targets are not kept (memory stays bounded), nor secret keys sent by mistake.
      if (target.length <= PARSE_MEMO_MAX_URL_LENGTH && !parsed.token?.startsWith("sk_")) {
        if (memo.size >= maxEntries) memo.delete(memo.keys().next().value!);
        memo.set(target, parsed);
      }
    }
    return withHeaders(request, null, parsed);
  };
}

/** Parses a request target (`/example.com?size=64`, always starting with `/`). */
function parseTarget(target: string, maxSize: number): ParsedTarget {
  let url: URL;
  try {
    url = new URL(TARGET_BASE + target);
  } catch {
    throw invalidTarget();
  }
  const domain = parseDomainPath(url.pathname);
  const params = url.searchParams;
  for (const name of KNOWN_PARAMETERS) {
    if (params.getAll(name).length > 1) {
      throw new HttpError(400, `Invalid ${name}: given more than once`);
    }
  }
  return { domain, options: parseOptions(params, maxSize), token: params.get("token") };
}

function withHeaders(
  request: Request,
  authorization: string | null,
  target: ParsedTarget,
): LogoRequest {
  const headers = request.headers;
  return {
    method: request.method === "HEAD" ? "HEAD" : "GET",
    domain: target.domain,
    options: target.options,
    token: target.token,
    authorization,
    origin: headers.get("origin"),
    referer: headers.get("referer"),
    ifNoneMatch: headers.get("if-none-match"),
  };
}

/**
 * Reads the domain from a URL path (`/example.com`), percent-decoded and normalised.
 *
 * A one-segment path is a domain or a 400. A longer path is a domain with a path, a protocol
 * (`/https://…`) or a protocol-relative URL (`//…`) — all 400 `Invalid domain format`, as the spec
 * says — unless its first segment is not a domain at all (`/api/v1`), which is a path we do not
 * serve: 404 `Not found`. So is `/`.
 *
 * @throws {HttpError} 404 `Not found` or 400 `Invalid domain format`.
 */
export function parseDomainPath(pathname: string): string {
  if (pathname === "/" || pathname === "") throw notFound();
  const segments = pathname.slice(1).split("/");
  if (segments.length > 1) {
    const first = decodeSegment(segments[0]);
    const looksLikeAUrl = first === "" || first.endsWith(":");
    if (looksLikeAUrl || normalizeDomain(first) !== undefined) throw invalidDomain();
    throw notFound();
  }
  const domain = normalizeDomain(decodeSegment(segments[0]));
  if (domain === undefined) throw invalidDomain();
  return domain;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalidDomain();
  }
}

function notFound(): HttpError {
  return new HttpError(404, "Not found");
}

/**
 * Validates the render spec's options (`size`, `greyscale`, `theme`, `format`), `fallback` and
 * `type`; `maxSize` is 800, or 1200 with a secret key.
 *
 * @throws {HttpError} 400 naming the first bad parameter and what it accepts.
 */
export function parseOptions(
  params: URLSearchParams,
  maxSize: number = MAX_PUBLISHABLE_SIZE,
): LogoOptions {
  const fallbackValue = params.get("fallback");
  const typeValue = params.get("type");
  if (
    fallbackValue === null && typeValue === null &&
    RENDER_OPTIONS.every((name) => params.get(name) === null)
  ) {
    return DEFAULT_OPTIONS;
  }
  const spec = parseSpec((name) => params.get(name), maxSize);
  if (typeof spec === "string") {
    throw new HttpError(400, `Invalid ${spec}: ${RENDER_SPEC[spec].rule(maxSize)}`);
  }
  return {
    ...spec,
    fallback: fallbackValue === null ? DEFAULT_FALLBACK : parseFallback(fallbackValue),
    type: typeValue === null ? DEFAULT_TYPE : parseType(typeValue),
  };
}

function parseType(value: string): LogoType {
  const type = value.toLowerCase();
  if (!isLogoType(type)) throw new HttpError(400, `Invalid type: ${TYPE_RULE}`);
  return type;
}

function parseFallback(value: string): LogoFallback {
  const fallback = value.toLowerCase();
  if (!isLogoFallback(fallback)) throw new HttpError(400, `Invalid fallback: ${FALLBACK_RULE}`);
  return fallback;
}

/** Whether an `Authorization` header value presents a secret key (`Bearer sk_…`). */
export function isSecretBearer(authorization: string | null): boolean {
  return bearerToken(authorization)?.startsWith("sk_") ?? false;
}

/** The token of an `Authorization: Bearer <token>` header value, or `undefined`. */
export function bearerToken(authorization: string | null): string | undefined {
  if (authorization === null) return undefined;
  const value = authorization.trim();
  const space = value.indexOf(" ");
  if (space < 0 || value.slice(0, space).toLowerCase() !== "bearer") return undefined;
  const token = value.slice(space + 1).trim();
  return token.length > 0 ? token : undefined;
}
