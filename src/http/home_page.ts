/**
 * `GET`/`HEAD /`: the page that says what the service is, with a playground
 * (`home_page_html.ts`). It is answered before the request's own steps, like the probes: never
 * authenticated (a `token` or `Authorization` sent with it is ignored) and never counted against a
 * key. Only the path is matched, exactly `/` (a query is ignored).
 *
 * Headers: `Content-Type: text/html; charset=utf-8`; a strict `Content-Security-Policy`
 * ({@link homePageCsp}) that allows nothing but the page's own inline style and
 * script, by their SHA-256 hashes, images from the service itself and `data:` (the page's icon),
 * and `fetch` from the service itself;
 * `Cache-Control: public, max-age=300` with a strong `ETag` (a `304` to a matching
 * `If-None-Match`), so a new release shows within five minutes; `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: same-origin`, `X-Frame-Options: DENY`, and the CORS headers every answer of
 * the service carries.
 *
 * Hashes rather than nonces: the page is the same bytes for everyone, so its hashes are computed
 * once when the app is built and the answer stays cacheable; a nonce would have to change with
 * every response.
 *
 * @example
 * ```ts
 * import { createHomePage } from "./home_page.ts";
 * const page = createHomePage();
 * const answer = page.answer("GET", "http://localhost/", null);
 * answer?.headers.get("content-type"); // "text/html; charset=utf-8"
 * page.answer("GET", "http://localhost/example.com", null); // undefined: not the page
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import { ANY_ORIGIN } from "./cors.ts";
import { HOME_PAGE_SCRIPT, HOME_PAGE_STYLE, homePageHtml } from "./home_page_html.ts";
import { requestTarget } from "./request_target.ts";
import { etagMatches } from "./respond.ts";

/** The page's path. */
export const HOME_PAGE_PATH = "/";

/** How long a browser or a shared cache may keep the page, in seconds. */
export const HOME_PAGE_MAX_AGE_SECONDS = 300;

/**
 * The Content-Security-Policy of the page, given the hash sources ({@link cspHash}) of its style
 * and script: nothing is allowed by default; the page's own inline style and script by hash;
 * images from the service's origin and `data:` (the page's icon), `fetch` (which reads a failed
 * logo's error text) from the service's origin only; no `<base>`, no form submission, no framing.
 *
 * @example
 * ```ts
 * import { cspHash, homePageCsp } from "./home_page.ts";
 * homePageCsp(cspHash("body{}"), cspHash("1")); // "default-src 'none'; style-src 'sha256-…'; …"
 * ```
 */
export function homePageCsp(styleHash: string, scriptHash: string): string {
  return [
    "default-src 'none'",
    `style-src '${styleHash}'`,
    `script-src '${scriptHash}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The page, ready to serve. */
export interface HomePage {
  /**
   * The answer to a `GET`/`HEAD` request for `url` (as the server builds it) when its path is
   * {@link HOME_PAGE_PATH}; `undefined` for every other path. `ifNoneMatch` is the request's
   * `If-None-Match` header.
   */
  answer(method: string, url: string, ifNoneMatch: string | null): Response | undefined;
  /** The page's bytes. */
  readonly body: Uint8Array;
  /** The page's headers on a `200` (its `304` sends the same without `Content-Type`/`Length`). */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * `sha256-…` of `text`'s UTF-8 bytes, as a CSP hash source (without the quotes).
 *
 * @example
 * ```ts
 * import { cspHash } from "./home_page.ts";
 * cspHash(""); // "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
 * ```
 */
export function cspHash(text: string): string {
  return `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
}

/** Builds the page and its headers once; nothing is opened or read. */
export function createHomePage(): HomePage {
  const body = new TextEncoder().encode(homePageHtml(HOME_PAGE_STYLE, HOME_PAGE_SCRIPT));
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const csp = homePageCsp(cspHash(HOME_PAGE_STYLE), cspHash(HOME_PAGE_SCRIPT));
  const common: Record<string, string> = {
    ...Object.fromEntries(ANY_ORIGIN),
    "cache-control": `public, max-age=${HOME_PAGE_MAX_AGE_SECONDS}`,
    "etag": etag,
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
  };
  const headers = {
    ...common,
    "content-type": "text/html; charset=utf-8",
    "content-length": String(body.byteLength),
  };
  // Prepared once and cloned per request: building a Response validates every header, which
  // costs an order of magnitude more than a clone.
  const page = new Response(body, { status: 200, headers });
  const head = new Response(null, { status: 200, headers });
  const notModified = new Response(null, { status: 304, headers: common });
  return {
    body,
    headers,
    answer(method, url, ifNoneMatch) {
      if (!isHomePage(url)) return undefined;
      if (etagMatches(ifNoneMatch, etag)) return notModified.clone();
      return (method === "HEAD" ? head : page).clone();
    },
  };
}

/** Whether `url`'s path is exactly `/` (a query or fragment may follow). */
function isHomePage(url: string): boolean {
  const target = requestTarget(url);
  if (target.length === 1) return true;
  const second = target.charCodeAt(1);
  return second === 63 /* ? */ || second === 35 /* # */;
}
