/**
 * Writes an API key exactly as a backup archive holds it: its record, and — unless it is revoked —
 * its two token indexes (`key_store.ts`), in one atomic commit, so a key is never half restored.
 * The key keeps its id, its publishable token and the hash of its secret token, so the tokens
 * given out before the backup authenticate after the restore.
 *
 * A token the store has revoked never authenticates again, whatever the archive says. Revoking
 * deletes a key's token indexes but keeps its record (`revoked: true`, with both tokens), so the
 * records of revoked keys are the store's memory of revoked tokens ({@link readRevokedTokens}):
 * - a key whose token is a revoked key's under another id is refused ({@link KeyRestoreRefused}),
 *   with or without `replace`, as a token of another live key is;
 * - a key the store holds revoked stays revoked: the archive's copy of it (an older backup, taken
 *   before the revocation) is taken as revoked, and is refused if it gives the key other tokens;
 * - a key revoked in the archive is written revoked, without token indexes (with `replace`, over
 *   the store's live copy too).
 *
 * @example
 * ```ts
 * import { KeyStore } from "./key_store.ts";
 * import { restoreKey } from "./key_restore.ts";
 * const from = await Deno.openKv(":memory:");
 * const to = await Deno.openKv(":memory:");
 * const { key } = await new KeyStore(from).create({});
 * await restoreKey(to, key, { replace: false }); // "added"
 * ```
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import type { ApiKey } from "./key_store.ts";
import { API_KEYS_PREFIX, apiKeyKey, publishableIndexKey, secretIndexKey } from "./keyspace.ts";
import type { RestoreOutcome } from "./logo_restore.ts";
import { sha256Hex } from "./sha256.ts";

/** Options of {@link restoreKey} and {@link planKeyRestore}. */
export interface RestoreKeyOptions {
  /** Replace a different key stored under the same id; else leave it and answer `conflict`. */
  replace: boolean;
  /**
   * The store's revoked tokens, read once for many keys ({@link readRevokedTokens}); default read
   * on each call.
   */
  revoked?: RevokedTokens;
}

/** The tokens of the store's revoked keys: publishable token or secret-token hash → key id. */
export type RevokedTokens = ReadonlyMap<string, string>;

/** A key that cannot be restored: `reason` says why, without the key's id. */
export class KeyRestoreRefused extends Error {
  /** The key's id. */
  readonly id: string;
  /** Why, e.g. "its publishable token belongs to key key_… in the store". */
  readonly reason: string;
  /** Creates the error for key `id`. */
  constructor(id: string, reason: string) {
    super(`Cannot restore key ${id}: ${reason}`);
    this.name = "KeyRestoreRefused";
    this.id = id;
    this.reason = reason;
  }
}

/** Commits retried on contention before giving up. */
const MAX_ATTEMPTS = 32;

/** Reads the tokens of every revoked key in `kv` (one pass over the key records). */
export async function readRevokedTokens(kv: Deno.Kv): Promise<RevokedTokens> {
  const tokens = new Map<string, string>();
  for await (const { value } of kv.list<ApiKey>({ prefix: API_KEYS_PREFIX })) {
    if (!value.revoked) continue;
    tokens.set(value.publishableKey, value.id);
    tokens.set(value.secretKeyHash, value.id);
  }
  return tokens;
}

/**
 * What restoring `key` would do to the store now, without writing: `added`, `replaced`,
 * `unchanged` or `conflict` (a different key has this id and `replace` is off).
 *
 * @throws {KeyRestoreRefused} when one of its tokens is another key's in the store, live or
 *   revoked, or when it would give a revoked key other tokens.
 */
export async function planKeyRestore(
  kv: Deno.Kv,
  key: ApiKey,
  options: RestoreKeyOptions,
): Promise<RestoreOutcome> {
  const old = (await kv.get<ApiKey>(apiKeyKey(key.id))).value;
  const wanted = staysRevoked(key, old);
  if (old !== null && isDeepStrictEqual(old, wanted)) return "unchanged";
  await checkTokensFree(kv, wanted, options.revoked ?? await readRevokedTokens(kv));
  if (old === null) return "added";
  return options.replace ? "replaced" : "conflict";
}

/**
 * Stores `key` (see the module documentation); a key equal to the stored one writes nothing.
 *
 * @throws {KeyRestoreRefused} as {@link planKeyRestore} does.
 */
export async function restoreKey(
  kv: Deno.Kv,
  key: ApiKey,
  options: RestoreKeyOptions,
): Promise<RestoreOutcome> {
  const revoked = options.revoked ?? await readRevokedTokens(kv);
  const pkIndex = publishableIndexKey(await sha256Hex(key.publishableKey));
  const skIndex = secretIndexKey(key.secretKeyHash);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await kv.get<ApiKey>(apiKeyKey(key.id));
    const old = entry.value;
    const wanted = staysRevoked(key, old);
    if (old !== null && isDeepStrictEqual(old, wanted)) return "unchanged";
    if (old !== null && !options.replace) return "conflict";
    const [pk, sk] = await checkTokensFree(kv, wanted, revoked);
    const op = kv.atomic().check(entry).check(pk).check(sk).set(entry.key, wanted);
    if (old !== null) {
      op.delete(publishableIndexKey(await sha256Hex(old.publishableKey)));
      op.delete(secretIndexKey(old.secretKeyHash));
    }
    if (!wanted.revoked) op.set(pkIndex, key.id).set(skIndex, key.id);
    if ((await op.commit()).ok) return old === null ? "added" : "replaced";
  }
  throw new Error(`Cannot restore key ${key.id}: too many concurrent changes, try again`);
}

/**
 * `key` as it may be stored over `old`: revoked, with `old`'s revocation time, when `old` is
 * revoked — a revocation is never undone.
 *
 * @throws {KeyRestoreRefused} when `old` is revoked and `key` has other tokens: the store would
 *   forget the revoked ones.
 */
function staysRevoked(key: ApiKey, old: ApiKey | null): ApiKey {
  if (old === null || !old.revoked) return key;
  if (key.publishableKey !== old.publishableKey || key.secretKeyHash !== old.secretKeyHash) {
    throw new KeyRestoreRefused(
      key.id,
      "it is revoked in the store and the archive gives it other tokens; a revoked key keeps " +
        "its tokens, so that they never authenticate again",
    );
  }
  if (key.revoked && key.revokedAt === old.revokedAt) return key;
  const { revokedAt: _, ...rest } = key;
  return {
    ...rest,
    revoked: true,
    ...(old.revokedAt === undefined ? {} : { revokedAt: old.revokedAt }),
  };
}

/**
 * The index entries of `key`'s tokens, after checking that neither belongs to another key: live
 * (its index names it) or revoked (`revoked`).
 *
 * @throws {KeyRestoreRefused} "…: its publishable token belongs to key … in the store".
 */
async function checkTokensFree(
  kv: Deno.Kv,
  key: ApiKey,
  revoked: RevokedTokens,
): Promise<[Deno.KvEntryMaybe<string>, Deno.KvEntryMaybe<string>]> {
  const [pk, sk] = await kv.getMany<[string, string]>([
    publishableIndexKey(await sha256Hex(key.publishableKey)),
    secretIndexKey(key.secretKeyHash),
  ]);
  const tokens = [[pk, "publishable", key.publishableKey], [sk, "secret", key.secretKeyHash]];
  for (const [entry, name, token] of tokens as [Deno.KvEntryMaybe<string>, string, string][]) {
    if (entry.value !== null && entry.value !== key.id) {
      throw new KeyRestoreRefused(
        key.id,
        `its ${name} token belongs to key ${entry.value} in the store`,
      );
    }
    const revokedWith = revoked.get(token);
    if (revokedWith !== undefined && revokedWith !== key.id) {
      throw new KeyRestoreRefused(
        key.id,
        `its ${name} token was revoked (key ${revokedWith}); a token the store revoked never ` +
          "authenticates again",
      );
    }
  }
  return [pk, sk];
}
