/**
 * The real application for integration tests, with a fresh in-memory Deno KV (or one you pass) and
 * one API key, in one of two ways:
 *
 * - {@link startTestApp}: no socket. `fetch` builds the `Request` as a client's `fetch` would (the
 *   URL normalised, a `Host` header from it) and hands it straight to `app.handler` — as hono tests
 *   through `app.request()`. Use it when the handler alone decides the answer: statuses, headers,
 *   bodies, caching, options, auth, keys, limits within one process, discovery called on a miss.
 * - {@link startTestServer}: a real socket. The production serving path (`serveHttp` of
 *   `src/server/serve_http.ts`, `Deno.serve`, as `src/main.ts` uses it) on port 0 of
 *   127.0.0.1; `fetch` is the global `fetch`. Use it where the network
 *   matters: raw bytes on a socket (the malformed-request corpus, `Host` headers `fetch` cannot
 *   send), connection limits, SIGTERM and shutdown, a browser (CORS in Chromium), nginx in front,
 *   several processes sharing limits, the SDK against a real server, admin CLI subprocesses.
 *
 * Both return the same {@link TestServer}, so a test moves from one to the other by its first line.
 *
 * @example
 * ```ts
 * import { startTestApp } from "./support/server.ts";
 * await using server = await startTestApp({ limit: 10, window: 60 });
 * await server.addLogo("example.com", png);
 * const response = await server.fetch(server.logoUrl("example.com", { size: "64" }));
 * ```
 * @module
 */
import { type App, type AppDeps, createApp } from "../../src/http/app.ts";
import { normalizeDomain } from "../../src/domain_name.ts";
import { serveHttp } from "../../src/server/serve_http.ts";
import { type ApiKey, KeyStore } from "../../src/store/key_store.ts";
import { type LogoRecord, LogoStore } from "../../src/store/logo_store.ts";
import { type Exchange, readExchange } from "./http.ts";

/** The base URL of a {@link startTestApp} server: nothing listens there. */
export const IN_PROCESS_URL = "http://logo-lookup.test";

/** Options of {@link startTestApp} and {@link startTestServer}. */
export interface TestServerOptions {
  /** Plan of the key (see `src/store/plans.ts`); default the default plan, or `custom` with a limit. */
  plan?: string;
  /** Requests per window of the key (give `window` too); default the plan's. */
  limit?: number;
  /** Window of the key in seconds (give `limit` too). */
  window?: number;
  /** Allowlist entries of the key (`https://app.example.com`, `example.com`, `*.example.com`). */
  allow?: string[];
  /** Whether the key requires attribution (it answers 403 until attribution is recorded). */
  attribution?: boolean;
  /** Epoch-ms clock for the app, stores and limiter; default `Date.now`. */
  clock?: () => number;
  /** Discovery called on a miss. */
  discover?: (domain: string) => Promise<void>;
  /** Use this KV instead of a fresh in-memory one; it is left open by `close`. */
  kv?: Deno.Kv;
  /** Open the KV at this path instead of in memory; closed by `close`. Ignored with `kv`. */
  kvPath?: string;
  /** Further app dependencies (limiter, cache TTLs, log…). */
  app?: Omit<AppDeps, "kv" | "clock" | "discover">;
}

/** A running test server. */
export interface TestServer extends AsyncDisposable {
  /**
   * Base URL, no trailing slash: `http://127.0.0.1:41234` on a socket, {@link IN_PROCESS_URL}
   * without one.
   */
  readonly url: string;
  /** Whether requests go through a real socket ({@link startTestServer}). */
  readonly socket: boolean;
  /**
   * `fetch` for this server: the global `fetch` on a socket, the handler called directly without
   * one. A path (`/healthz`) is resolved against {@link TestServer.url}.
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** {@link TestServer.fetch} with the whole body read. */
  exchange(input: string | URL | Request, init?: RequestInit): Promise<Exchange>;
  /** The KV the server uses. */
  readonly kv: Deno.Kv;
  /** The application behind the server. */
  readonly app: App;
  /** Key store over the same KV. */
  readonly keys: KeyStore;
  /** Logo store over the same KV. */
  readonly logos: LogoStore;
  /** The key created for the test. */
  readonly key: ApiKey;
  /** Its id. */
  readonly keyId: string;
  /** Its publishable token (`pk_…`). */
  readonly publishableKey: string;
  /** Its secret token (`sk_…`). */
  readonly secretKey: string;
  /**
   * Stores `bytes` as the logo of `domain` (normalised first) and makes this server see it at once.
   *
   * @throws {TypeError} for an invalid domain; imagecore's error for bytes it cannot decode.
   */
  addLogo(domain: string, bytes: Uint8Array): Promise<LogoRecord>;
  /** `url/domain?token=pk…&…params`; `token` in `params` overrides (use `null` to omit it). */
  logoUrl(domain: string, params?: Record<string, string | null>): string;
  /** Stops the server, closes the app and (unless it was passed in) the KV. */
  close(): Promise<void>;
}

/**
 * Builds the application with a fresh KV and one key, and answers through its handler with no
 * socket (see the module doc for when a socket is needed instead).
 */
export function startTestApp(options: TestServerOptions = {}): Promise<TestServer> {
  return start(options, false);
}

/** Starts the application on a free port of 127.0.0.1 with a fresh KV and one key. */
export function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  return start(options, true);
}

/**
 * Calls `app.handler` as the socket path would: the request as a client's `fetch` sends it (with a
 * `Host` header); the answer as it arrives over the wire (a `Content-Length`, no body for `HEAD`),
 * or a `500` if the handler throws.
 */
async function handle(app: App, input: string | URL | Request, init?: RequestInit) {
  const request = new Request(input, init);
  const headers = new Headers(request.headers);
  if (!headers.has("host")) headers.set("host", new URL(request.url).host);
  let response: Response;
  try {
    response = await app.handler(new Request(request, { headers }));
  } catch {
    return new Response("Internal server error", {
      status: 500,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  if (response.body === null) return response;
  const responseHeaders = new Headers(response.headers);
  if (request.method === "HEAD") {
    await response.body.cancel();
    return new Response(null, { status: response.status, headers: responseHeaders });
  }
  // Node's `end(bytes)` (`writeResponse`) sends a `Content-Length` the handler may leave out.
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!responseHeaders.has("content-length")) {
    responseHeaders.set("content-length", String(bytes.byteLength));
  }
  return new Response(bytes, { status: response.status, headers: responseHeaders });
}

async function start(options: TestServerOptions, socket: boolean): Promise<TestServer> {
  const ownKv = options.kv === undefined;
  const kv = options.kv ?? await Deno.openKv(options.kvPath ?? ":memory:");
  const clock = options.clock ?? Date.now;
  const keys = new KeyStore(kv, { clock });
  const logos = new LogoStore(kv, { clock });
  const { key, secretKey } = await keys.create({
    plan: options.plan,
    limit: options.limit,
    window: options.window,
    allow: options.allow,
    attribution: options.attribution,
  });
  const app = createApp({ ...options.app, kv, clock, discover: options.discover });
  const server = socket
    ? await serveHttp({ hostname: "127.0.0.1", port: 0 }, app.handler)
    : undefined;
  const url = server === undefined ? IN_PROCESS_URL : `http://127.0.0.1:${server.addr.port}`;
  const resolve = (input: string | URL | Request) =>
    typeof input === "string" && input.startsWith("/") ? `${url}${input}` : input;
  const fetchHere = (input: string | URL | Request, init?: RequestInit) =>
    socket ? fetch(resolve(input), init) : handle(app, resolve(input), init);
  let closed: Promise<void> | undefined;

  async function close(): Promise<void> {
    await server?.shutdown();
    await app.close();
    if (ownKv) kv.close();
  }

  return {
    url,
    socket,
    fetch: fetchHere,
    async exchange(input, init) {
      return readExchange(await fetchHere(input, init));
    },
    kv,
    app,
    keys,
    logos,
    key,
    keyId: key.id,
    publishableKey: key.publishableKey,
    secretKey,
    async addLogo(domain, bytes) {
      const normalized = normalizeDomain(domain);
      if (normalized === undefined) {
        throw new TypeError(`Cannot add logo: invalid domain ${domain}`);
      }
      const { record } = await logos.put(normalized, bytes, { source: "test" });
      app.forgetLogo(normalized);
      return record;
    },
    logoUrl(domain, params = {}) {
      const search = new URLSearchParams();
      const all: Record<string, string | null> = { token: key.publishableKey, ...params };
      for (const [name, value] of Object.entries(all)) if (value !== null) search.set(name, value);
      const query = search.toString();
      return `${url}/${domain}${query === "" ? "" : `?${query}`}`;
    },
    close() {
      closed ??= close();
      return closed;
    },
    [Symbol.asyncDispose]() {
      closed ??= close();
      return closed;
    },
  };
}
