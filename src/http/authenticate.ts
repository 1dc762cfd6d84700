/**
 * Step 2 of the request path, authenticate: finds the API key behind a request — a publishable
 * key in `?token=`, or a secret key in `Authorization: Bearer` — or throws 401
 * `Missing or invalid token`.
 *
 * A secret key in the query string is refused outright (it would end up in logs, browser history
 * and proxies); this module never logs a token. Lookups are cached in memory for at most
 * `ttlMs` (default 5 s), so a revoked key stops working on every instance within that time while
 * the hot path does no KV read; the cache holds at most `maxEntries` tokens, unknown ones included.
 *
 * @example
 * ```ts
 * import { createAuthenticator } from "./authenticate.ts";
 * import { KeyStore } from "../store/key_store.ts";
 * const authenticate = createAuthenticator({ keys: new KeyStore(await Deno.openKv(":memory:")) });
 * await authenticate({ token: "pk_…", authorization: null }); // throws HttpError 401
 * ```
 * @module
 */
import { HttpError } from "../http_error.ts";
import { guardKv } from "../kv_unavailable.ts";
import { bearerToken } from "./request_options.ts";
import type { ApiKey, KeyStore } from "../store/key_store.ts";
import { constantTimeEqual, isPublishableKey, isSecretKey } from "../store/key_token.ts";
import { sha256Hex } from "../store/sha256.ts";
import { type CacheCounts, TtlCache } from "../ttl_cache.ts";

/** How a request authenticated. */
export type CredentialKind = "publishable" | "secret";

/** The outcome of authentication: the key and which of its tokens was presented. */
export interface Credential {
  /** The live (not revoked) key. */
  readonly key: ApiKey;
  /** `publishable` for `?token=pk_…`, `secret` for `Authorization: Bearer sk_…`. */
  readonly kind: CredentialKind;
}

/** The two lookups authentication needs from the key store. */
export type KeyLookup = Pick<KeyStore, "byPublishableKey" | "bySecretKey">;

/** Options of {@link createAuthenticator}. */
export interface AuthenticatorOptions {
  /** Where keys live. */
  keys: KeyLookup;
  /** Epoch-ms clock; default `Date.now`. */
  clock?: () => number;
  /** How long a lookup (found or not) is reused; default {@link KEY_CACHE_TTL_MS}. */
  ttlMs?: number;
  /** Most tokens cached at once; default {@link KEY_CACHE_MAX_ENTRIES}. */
  maxEntries?: number;
  /** Where KV failures are reported; default `console.error`. Never receives a token. */
  log?: (message: string, error?: unknown) => void;
  /** Counts the key cache's hits and misses (for metrics); optional. */
  counts?: CacheCounts;
}

/** What authentication reads from a request. */
export interface AuthenticationInput {
  /** The `token` query parameter, or `null`. */
  readonly token: string | null;
  /** The `Authorization` header, or `null`. */
  readonly authorization: string | null;
}

/** Authenticates one request; see {@link createAuthenticator}. */
export type Authenticate = (input: AuthenticationInput) => Promise<Credential>;

/** Longest a key lookup is reused: a revoked key stops working everywhere within this time. */
export const KEY_CACHE_TTL_MS = 5_000;
/** Most tokens the key cache holds; the oldest entry goes first. */
export const KEY_CACHE_MAX_ENTRIES = 10_000;

/** The one 401 (spec text). */
export function invalidToken(): HttpError {
  return new HttpError(401, "Missing or invalid token");
}

/**
 * Creates the authenticate step.
 *
 * Rules: an `Authorization` header, when present, must be `Bearer sk_…` of a live key; otherwise
 * `token` must be the `pk_…` of a live key. A `token` starting with `sk_` is refused even with a
 * valid header. Missing, malformed, unknown or revoked: 401. KV failure: 503.
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticate {
  const { keys } = options;
  const log = options.log ?? console.error;
  const cacheOptions = {
    ttlMs: options.ttlMs ?? KEY_CACHE_TTL_MS,
    maxEntries: options.maxEntries ?? KEY_CACHE_MAX_ENTRIES,
    clock: options.clock,
    counts: options.counts,
  };
  // Two caches, so the hot path builds no composite key: by pk token, and by sk token's hash
  // (the secret itself is not kept).
  const byPublishable = new TtlCache<ApiKey | null>({
    ...cacheOptions,
    load: (token) => guardKv(() => keys.byPublishableKey(token), { log }),
  });
  const bySecretHash = new TtlCache<ApiKey | null>(cacheOptions);

  return async function authenticate(input: AuthenticationInput): Promise<Credential> {
    const queryToken = input.token;
    // Refused before anything else, whatever else the request carries.
    if (queryToken !== null && queryToken.startsWith("sk_")) throw invalidToken();

    if (input.authorization !== null) {
      const token = bearerToken(input.authorization);
      if (token === undefined || !isSecretKey(token)) throw invalidToken();
      const hash = await sha256Hex(token);
      const key = await bySecretHash.get(
        hash,
        () => guardKv(() => keys.bySecretKey(token), { log }),
      );
      if (key === null || key.revoked || !constantTimeEqual(key.secretKeyHash, hash)) {
        throw invalidToken();
      }
      return { key, kind: "secret" };
    }

    if (queryToken === null || !isPublishableKey(queryToken)) throw invalidToken();
    const key = await byPublishable.get(queryToken);
    if (key === null || key.revoked || !constantTimeEqual(key.publishableKey, queryToken)) {
      throw invalidToken();
    }
    return { key, kind: "publishable" };
  };
}
