/**
 * API keys in Deno KV. A key is a pair of tokens — a publishable `pk_…` for `<img>` URLs and a
 * secret `sk_…` for the server SDK — with a rate limit, an optional origin allowlist and an
 * optional attribution requirement.
 *
 * The secret key is returned once, by {@link KeyStore.create}, and stored only as its SHA-256.
 * Tokens are looked up through an index keyed by the token's SHA-256, then compared with the
 * stored value in constant time, so lookup timing says nothing useful about a guessed token.
 *
 * KV layout (see `keyspace.ts`): `["keys", id]` → {@link ApiKey}; `["key_by_pk", sha256(pk)]` →
 * id; `["key_by_sk", sha256(sk)]` → id. Revoking a key deletes both index entries in the same atomic
 * commit that marks it revoked, so a revoked key never authenticates again.
 *
 * @example
 * ```ts
 * import { KeyStore } from "./key_store.ts";
 * const keys = new KeyStore(await Deno.openKv(":memory:"));
 * const { key, secretKey } = await keys.create({ plan: "pro", allow: ["*.example.com"] });
 * (await keys.byPublishableKey(key.publishableKey))?.id === key.id; // true
 * (await keys.bySecretKey(secretKey))?.id === key.id; // true
 * ```
 * @module
 */
import { CUSTOM_PLAN, DEFAULT_PLAN, LIMIT_BOUNDS, resolvePlan, WINDOW_BOUNDS } from "./plans.ts";
import { normalizeAllowEntry } from "./allow_entry.ts";
import { API_KEYS_PREFIX, apiKeyKey, publishableIndexKey, secretIndexKey } from "./keyspace.ts";
import {
  constantTimeEqual,
  generateToken,
  isPublishableKey,
  isSecretKey,
  randomBase62,
} from "./key_token.ts";
import { sha256Hex } from "./sha256.ts";

/** A stored API key. Never holds the secret key itself. */
export interface ApiKey {
  /** Stable identifier used by the admin CLI and the rate limiter (`key_` + 16 base62). */
  id: string;
  /** The publishable token (`pk_…`), sent as `?token=` in image URLs. */
  publishableKey: string;
  /** Hex SHA-256 of the secret token (`sk_…`); the secret itself is never stored. */
  secretKeyHash: string;
  /** Plan name the limit came from (`free`, `pro`, …) or `custom`. */
  plan: string;
  /** Requests allowed per window. */
  limit: number;
  /** Window length in seconds. */
  window: number;
  /** Normalised allowlist: `https://app.example.com`, `example.com`, `*.example.com`. Empty: any. */
  allow: string[];
  /** Whether the key must show attribution: it answers 403 until attribution is recorded. */
  attribution: boolean;
  /** Page where the key's user shows attribution, once recorded. */
  attributionUrl?: string;
  /** When attribution was recorded (epoch ms). */
  attributionRecordedAt?: number;
  /** Whether the key was revoked (revoked keys are kept for the record but never authenticate). */
  revoked: boolean;
  /** When it was revoked (epoch ms). */
  revokedAt?: number;
  /** When it was created (epoch ms). */
  createdAt: number;
}

/** Options of {@link KeyStore.create}. */
export interface CreateKeyOptions {
  /** Plan name from `src/store/plans.ts`; default `free`, or `custom` when limit and window are given. */
  plan?: string;
  /** Requests per window, overriding the plan's (give `window` with it). */
  limit?: number;
  /** Window in seconds, overriding the plan's (give `limit` with it). */
  window?: number;
  /** Allowlist entries in any accepted form; normalised before storing. */
  allow?: string[];
  /** Require attribution before the key serves images. */
  attribution?: boolean;
}

/** Options of the {@link KeyStore} constructor. */
export interface KeyStoreOptions {
  /** Epoch-ms clock for `createdAt` and friends; default `Date.now`. */
  clock?: () => number;
}

/**
 * Validates and normalises key options without touching KV: the plan exists, an explicit limit and
 * window come together and are whole numbers in bounds, every allowlist entry is valid.
 *
 * @throws {RangeError} with a message a CLI user can act on.
 */
export function resolveKeyOptions(
  options: CreateKeyOptions = {},
): Pick<ApiKey, "plan" | "limit" | "window" | "allow" | "attribution"> {
  const explicit = options.limit !== undefined || options.window !== undefined;
  if (explicit && (options.limit === undefined || options.window === undefined)) {
    throw new RangeError("--limit and --window must be given together");
  }
  let plan: string;
  let limit: number;
  let window: number;
  if (explicit) {
    if (options.plan !== undefined) resolvePlan(options.plan);
    plan = options.plan ?? CUSTOM_PLAN;
    limit = checkBounded("limit", options.limit!, LIMIT_BOUNDS);
    window = checkBounded("window", options.window!, WINDOW_BOUNDS);
  } else {
    plan = options.plan ?? DEFAULT_PLAN;
    ({ limit, window } = resolvePlan(plan));
  }
  const allow = [...new Set((options.allow ?? []).map(normalizeAllowEntry))];
  return { plan, limit, window, allow, attribution: options.attribution === true };
}

function checkBounded(name: string, value: number, bounds: { min: number; max: number }): number {
  if (!Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
    throw new RangeError(
      `Invalid ${name}: expected a whole number from ${bounds.min} to ${bounds.max}`,
    );
  }
  return value;
}

/**
 * Checks an attribution URL: an absolute `http(s)` URL without user info.
 *
 * @throws {RangeError} otherwise.
 */
export function normalizeAttributionUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new RangeError(`Invalid attribution URL "${input}": expected an absolute https:// URL`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) {
    throw new RangeError(`Invalid attribution URL "${input}": expected an absolute https:// URL`);
  }
  return url.href;
}

/** API keys in Deno KV; see the module documentation for the layout and guarantees. */
export class KeyStore {
  readonly #kv: Deno.Kv;
  readonly #clock: () => number;

  /** Wraps `kv`; opens nothing and starts nothing. */
  constructor(kv: Deno.Kv, options: KeyStoreOptions = {}) {
    this.#kv = kv;
    this.#clock = options.clock ?? Date.now;
  }

  /**
   * Creates a key. Returns the stored key and the secret token, which is not kept and cannot be
   * shown again.
   *
   * @throws {RangeError} for an unknown plan, a bad limit/window or an invalid allowlist entry.
   */
  async create(options: CreateKeyOptions = {}): Promise<{ key: ApiKey; secretKey: string }> {
    const resolved = resolveKeyOptions(options);
    for (;;) {
      const id = `key_${randomBase62(16)}`;
      const publishableKey = generateToken("pk_");
      const secretKey = generateToken("sk_");
      const [pkHash, secretKeyHash] = await Promise.all([
        sha256Hex(publishableKey),
        sha256Hex(secretKey),
      ]);
      const key: ApiKey = {
        id,
        publishableKey,
        secretKeyHash,
        ...resolved,
        revoked: false,
        createdAt: this.#clock(),
      };
      const result = await this.#kv.atomic()
        .check({ key: apiKeyKey(id), versionstamp: null })
        .check({ key: publishableIndexKey(pkHash), versionstamp: null })
        .check({ key: secretIndexKey(secretKeyHash), versionstamp: null })
        .set(apiKeyKey(id), key)
        .set(publishableIndexKey(pkHash), id)
        .set(secretIndexKey(secretKeyHash), id)
        .commit();
      // A collision of 95+ random bits is practically impossible; retrying keeps it impossible.
      if (result.ok) return { key, secretKey };
    }
  }

  /** The live key whose publishable token is `token`, or `null` (unknown, malformed or revoked). */
  async byPublishableKey(token: string): Promise<ApiKey | null> {
    if (!isPublishableKey(token)) return null;
    const key = await this.#byIndex(publishableIndexKey(await sha256Hex(token)));
    if (key === null || !constantTimeEqual(key.publishableKey, token)) return null;
    return key;
  }

  /** The live key whose secret token is `token`, or `null` (unknown, malformed or revoked). */
  async bySecretKey(token: string): Promise<ApiKey | null> {
    if (!isSecretKey(token)) return null;
    const hash = await sha256Hex(token);
    const key = await this.#byIndex(secretIndexKey(hash));
    if (key === null || !constantTimeEqual(key.secretKeyHash, hash)) return null;
    return key;
  }

  async #byIndex(indexKey: Deno.KvKey): Promise<ApiKey | null> {
    const id = await this.#kv.get<string>(indexKey);
    if (id.value === null) return null;
    const key = await this.get(id.value);
    return key === null || key.revoked ? null : key;
  }

  /** The key with this id, revoked or not, or `null`. */
  async get(id: string): Promise<ApiKey | null> {
    if (typeof id !== "string" || id === "") return null;
    return (await this.#kv.get<ApiKey>(apiKeyKey(id))).value;
  }

  /** Every key, revoked ones included, oldest first. */
  async list(): Promise<ApiKey[]> {
    const keys: ApiKey[] = [];
    for await (const entry of this.#kv.list<ApiKey>({ prefix: API_KEYS_PREFIX })) {
      keys.push(entry.value);
    }
    return keys.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  /**
   * Revokes a key: it stops authenticating at once and for good. Returns `false` when no key has
   * this id; revoking a revoked key is a no-op that returns `true`.
   */
  async revoke(id: string): Promise<boolean> {
    for (;;) {
      const entry = await this.#kv.get<ApiKey>(apiKeyKey(id));
      const key = entry.value;
      if (key === null) return false;
      if (key.revoked) return true;
      const pkHash = await sha256Hex(key.publishableKey);
      const result = await this.#kv.atomic()
        .check(entry)
        .set(apiKeyKey(id), { ...key, revoked: true, revokedAt: this.#clock() })
        .delete(publishableIndexKey(pkHash))
        .delete(secretIndexKey(key.secretKeyHash))
        .commit();
      if (result.ok) return true;
    }
  }

  /**
   * Records the page where a key's user shows attribution; from then on a key created with
   * `attribution: true` serves images. Recording again replaces the URL. Returns `false` when no
   * live key has this id.
   *
   * @throws {RangeError} when `url` is not an absolute http(s) URL.
   */
  async recordAttribution(id: string, url: string): Promise<boolean> {
    const attributionUrl = normalizeAttributionUrl(url);
    for (;;) {
      const entry = await this.#kv.get<ApiKey>(apiKeyKey(id));
      const key = entry.value;
      if (key === null || key.revoked) return false;
      const result = await this.#kv.atomic()
        .check(entry)
        .set(apiKeyKey(id), { ...key, attributionUrl, attributionRecordedAt: this.#clock() })
        .commit();
      if (result.ok) return true;
    }
  }

  /** Whether any key exists, revoked or not. */
  async isEmpty(): Promise<boolean> {
    for await (const _ of this.#kv.list({ prefix: API_KEYS_PREFIX }, { limit: 1 })) return false;
    return true;
  }
}

/**
 * Whether `key` may serve images as far as attribution goes: a key that requires attribution
 * needs it recorded (see {@link KeyStore.recordAttribution}).
 */
export function attributionSatisfied(key: ApiKey): boolean {
  return !key.attribution || key.attributionRecordedAt !== undefined;
}
