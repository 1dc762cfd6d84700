/**
 * Writes an API key exactly as a backup archive holds it: its record, and — unless it is revoked —
 * its two token indexes (`key_store.ts`), in one atomic commit, so a key is never half restored.
 * The key keeps its id, its publishable token and the hash of its secret token, so the tokens
 * given out before the backup authenticate after the restore.
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
import { apiKeyKey, publishableIndexKey, secretIndexKey } from "./keyspace.ts";
import type { RestoreOutcome } from "./logo_restore.ts";
import { sha256Hex } from "./sha256.ts";

/** Options of {@link restoreKey}. */
export interface RestoreKeyOptions {
  /** Replace a different key stored under the same id; else leave it and answer `conflict`. */
  replace: boolean;
}

/** Commits retried on contention before giving up. */
const MAX_ATTEMPTS = 32;

/**
 * What restoring `key` would do to the store now, without writing: `added`, `replaced`,
 * `unchanged` or `conflict` (a different key has this id and `replace` is off).
 *
 * @throws {Error} when one of its tokens already belongs to another key in the store.
 */
export async function planKeyRestore(
  kv: Deno.Kv,
  key: ApiKey,
  options: RestoreKeyOptions,
): Promise<RestoreOutcome> {
  const old = (await kv.get<ApiKey>(apiKeyKey(key.id))).value;
  if (old !== null && isDeepStrictEqual(old, key)) return "unchanged";
  await checkTokensFree(kv, key);
  if (old === null) return "added";
  return options.replace ? "replaced" : "conflict";
}

/** Stores `key` (see the module documentation); a key equal to the stored one writes nothing. */
export async function restoreKey(
  kv: Deno.Kv,
  key: ApiKey,
  options: RestoreKeyOptions,
): Promise<RestoreOutcome> {
  const pkIndex = publishableIndexKey(await sha256Hex(key.publishableKey));
  const skIndex = secretIndexKey(key.secretKeyHash);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await kv.get<ApiKey>(apiKeyKey(key.id));
    const old = entry.value;
    if (old !== null && isDeepStrictEqual(old, key)) return "unchanged";
    if (old !== null && !options.replace) return "conflict";
    const [pk, sk] = await checkTokensFree(kv, key);
    const op = kv.atomic().check(entry).check(pk).check(sk).set(entry.key, key);
    if (old !== null) {
      op.delete(publishableIndexKey(await sha256Hex(old.publishableKey)));
      op.delete(secretIndexKey(old.secretKeyHash));
    }
    if (!key.revoked) op.set(pkIndex, key.id).set(skIndex, key.id);
    if ((await op.commit()).ok) return old === null ? "added" : "replaced";
  }
  throw new Error(`Cannot restore key ${key.id}: too many concurrent changes, try again`);
}

/**
 * The index entries of `key`'s tokens, after checking that neither belongs to another key.
 *
 * @throws {Error} "Cannot restore key …: its publishable token belongs to key …".
 */
async function checkTokensFree(
  kv: Deno.Kv,
  key: ApiKey,
): Promise<[Deno.KvEntryMaybe<string>, Deno.KvEntryMaybe<string>]> {
  const [pk, sk] = await kv.getMany<[string, string]>([
    publishableIndexKey(await sha256Hex(key.publishableKey)),
    secretIndexKey(key.secretKeyHash),
  ]);
  for (const [entry, name] of [[pk, "publishable"], [sk, "secret"]] as const) {
    if (entry.value !== null && entry.value !== key.id) {
      throw new Error(
        `Cannot restore key ${key.id}: its ${name} token belongs to key ${entry.value} in the store`,
      );
    }
  }
  return [pk, sk];
}
