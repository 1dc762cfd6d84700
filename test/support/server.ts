/**
 * The real application over a real socket for integration tests: the production serving path
 * (`serveConnections` of `src/server/serve_connections.ts`, Node's HTTP server, as `src/main.ts` uses it)
 * on port 0 of 127.0.0.1, with the default timeouts, a fresh in-memory Deno KV (or one you pass),
 * and one API key.
 *
 * @example
 * ```ts
 * import { startTestServer } from "./support/server.ts";
 * await using server = await startTestServer({ limit: 10, window: 60 });
 * await server.addLogo("example.com", png);
 * const response = await fetch(server.logoUrl("example.com", { size: "64" }));
 * ```
 * @module
 */
import { type App, type AppDeps, createApp } from "../../src/http/app.ts";
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  MAX_DEFAULT_CONNECTIONS,
} from "../../src/server/connection_limits.ts";
import { normalizeDomain } from "../../src/domain.ts";
import { serveConnections } from "../../src/server/serve_connections.ts";
import { type ApiKey, KeyStore } from "../../src/store/key_store.ts";
import { type LogoRecord, LogoStore } from "../../src/store/logo_store.ts";

/** Options of {@link startTestServer}. */
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
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  /** The KV the server uses. */
  readonly kv: Deno.Kv;
  /** The application behind the socket. */
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

/** Starts the application on a free port with a fresh KV and one key. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
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
  const limits = {
    maxConnections: MAX_DEFAULT_CONNECTIONS,
    headersTimeoutMs: DEFAULT_HEADERS_TIMEOUT_MS,
    idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
  };
  const server = await serveConnections({ hostname: "127.0.0.1", port: 0, limits }, app.handler);
  const url = `http://127.0.0.1:${server.addr.port}`;
  let closed: Promise<void> | undefined;

  async function close(): Promise<void> {
    await server.shutdown();
    await app.close();
    if (ownKv) kv.close();
  }

  return {
    url,
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
