/**
 * Fetching for discovery: a site's home page and the URLs it declares, every connection through
 * {@link safeFetch} with one byte cap, and `data:` URLs decoded locally (no connection made).
 *
 * The home page is tried at `https://DOMAIN/`, then `http://DOMAIN/`, following redirects to the
 * site's canonical host, and a `<meta http-equiv="refresh">` like a redirect (`meta_refresh.ts`).
 * `http://` is tried only when `https://` did not answer (no server, refused, reset, DNS): never
 * after a TLS handshake that failed (an untrusted certificate, another name's), which is an answer
 * that the site cannot be read safely, not a site without https. On an `https://` page, `http://`
 * icon and manifest URLs are fetched as `https://` ({@link upgraded}), as browsers upgrade mixed
 * content; `safeFetch` refuses redirects from https to http.
 *
 * @module
 */
import { type ConnectToMap, NO_CONNECT_TO } from "./connect_to.ts";
import { isNetworkFailure } from "./failure_memory.ts";
import {
  DEFAULT_MAX_BYTES,
  type Resolver,
  safeFetch,
  SafeFetchError,
  type SafeResponse,
} from "./safe_fetch.ts";
import { NotAnImage } from "./measure_image.ts";
import { MAX_REFRESHES, refreshTarget } from "./meta_refresh.ts";

/** `Accept` of a home page request. */
export const HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";
/** `Accept` of an icon request. */
export const IMAGE_ACCEPT = "image/svg+xml,image/png,image/*;q=0.9,*/*;q=0.5";
/** `Accept` of a web app manifest request. */
export const MANIFEST_ACCEPT = "application/manifest+json,application/json";

/** How discovery connects; all optional, see `DiscoveryConfig`. */
export interface FetchOptions {
  /** `LOGO_CONNECT_TO` overrides. */
  connectTo?: ConnectToMap;
  /** Name resolution; default `Deno.resolveDns`. */
  resolve?: Resolver;
  /** PEM certificates trusted instead of the default roots (see `extra_ca.ts` for `DENO_CERT`). */
  caCerts?: string[];
  /** Byte cap per response; default 5 MiB. */
  maxBytes?: number;
}

/** A fetched body: a {@link SafeResponse}, or the decoded bytes of a `data:` URL. */
export type Fetched = Pick<SafeResponse, "url" | "status" | "headers" | "body">;

/** What {@link SiteFetcher.homePage} found. */
export interface HomePage {
  /** The page, when one answered with a 2xx status. */
  page?: SafeResponse;
  /** The final URL of a site that answered with an error status (its root is still usable). */
  reachable?: string;
  /** Why each attempt failed. */
  errors: string[];
  /** Whether an attempt failed at network level (DNS, connection, TLS, timeout). */
  networkFailure: boolean;
}

/** Fetches for one discovery configuration. */
export interface SiteFetcher {
  /**
   * The home page, https first, then http unless https failed its TLS handshake. A site that
   * answers with an error status (bots are often refused) is still reachable: its root is
   * returned so the conventional icons can be tried.
   */
  homePage(domain: string, signal: AbortSignal): Promise<HomePage>;
  /** `url` (http, https or data) with a 2xx status. @throws {Error} otherwise. */
  get(url: string, signal: AbortSignal, accept: string): Promise<Fetched>;
}

/**
 * Creates the fetcher.
 *
 * @example
 * ```ts
 * const fetcher = createSiteFetcher({ maxBytes: 1024 * 1024 });
 * const { page, errors } = await fetcher.homePage("acme.test", AbortSignal.timeout(10_000));
 * ```
 */
export function createSiteFetcher(options: FetchOptions = {}): SiteFetcher {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;

  function fetchUrl(url: string, signal: AbortSignal, accept: string) {
    return safeFetch(url, {
      connectTo: options.connectTo ?? NO_CONNECT_TO,
      resolve: options.resolve,
      caCerts: options.caCerts,
      maxBytes,
      signal,
      accept,
    });
  }

  async function readDataUrl(url: string): Promise<Fetched> {
    // A data: URL is decoded locally by the built-in fetch; no connection is made.
    const response = await fetch(url);
    const body = new Uint8Array(await response.arrayBuffer());
    if (body.length > maxBytes) throw new Error(`data: URL exceeds ${maxBytes} bytes`);
    return { url, status: 200, headers: response.headers, body };
  }

  async function get(url: string, signal: AbortSignal, accept: string): Promise<Fetched> {
    if (url.startsWith("data:")) return await readDataUrl(url);
    const response = await fetchUrl(url, signal, accept);
    if (response.status < 200 || response.status >= 300) {
      throw new Error(`HTTP ${response.status} from ${response.url}`);
    }
    return response;
  }

  /** The page a `<meta http-equiv=refresh>` leads to (bounded); `page` itself otherwise. */
  async function followRefresh(page: SafeResponse, signal: AbortSignal): Promise<SafeResponse> {
    for (let i = 0; i < MAX_REFRESHES; i++) {
      const type = page.headers.get("content-type") ?? "";
      if (type !== "" && !/html/i.test(type)) break;
      const target = refreshTarget(decodeText(page.body, type), page.url);
      if (target === undefined) break;
      try {
        const next = await fetchUrl(target, signal, HTML_ACCEPT);
        if (next.status < 200 || next.status >= 300) break;
        page = next;
      } catch {
        break; // The page that pointed on is still the home page.
      }
    }
    return page;
  }

  async function homePage(domain: string, signal: AbortSignal): Promise<HomePage> {
    const errors: string[] = [];
    let reachable: string | undefined;
    let networkFailure = false;
    for (const scheme of ["https", "http"]) {
      try {
        const response = await fetchUrl(`${scheme}://${domain}/`, signal, HTML_ACCEPT);
        if (response.status >= 200 && response.status < 300) {
          return { page: await followRefresh(response, signal), errors, networkFailure };
        }
        errors.push(`HTTP ${response.status} from ${response.url}`);
        reachable ??= response.url;
      } catch (error) {
        // Both schemes fail the same way when the name does not resolve: said once.
        const reason = failureReason(error);
        if (!errors.includes(reason)) errors.push(reason);
        networkFailure ||= isNetworkFailure(error);
        if (signal.aborted) break;
        if (error instanceof SafeFetchError && error.code === "tls") {
          // Reading the site in clear instead would hand what it says to whoever broke its TLS.
          errors.push(`http://${domain}/ not read after a TLS failure`);
          break;
        }
      }
    }
    return { page: undefined, reachable, errors, networkFailure };
  }

  return { homePage, get };
}

/**
 * On an https page, an http URL is fetched over https, as browsers upgrade mixed content.
 *
 * @example
 * ```ts
 * upgraded("http://a.test/i.png", "https://a.test/"); // "https://a.test/i.png"
 * ```
 */
export function upgraded(url: string, pageUrl: string): string {
  if (!pageUrl.startsWith("https:") || !url.startsWith("http:")) return url;
  return `https:${url.slice("http:".length)}`;
}

/** Why a fetch or a measurement failed, in one line. */
export function failureReason(error: unknown): string {
  if (error instanceof SafeFetchError || error instanceof NotAnImage) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Decodes a fetched text body with the `charset` of `contentType` (UTF-8 when absent or unknown).
 *
 * @example
 * ```ts
 * decodeText(new TextEncoder().encode("<html>"), "text/html; charset=utf-8"); // "<html>"
 * ```
 */
export function decodeText(bytes: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}
