/**
 * What discovery remembers about a logo it found: `["discovery", "found", domain]` →
 * {@link FoundEntry} (see `store/keyspace.ts`). The entry's `hash` tells a logo discovery stored
 * from one an operator put there since: only the first is discovery's to refresh.
 *
 * The "no logo found" side lives in `failure_memory.ts`; {@link recordFound} clears it.
 *
 * @module
 */
import {
  DISCOVERY_FOUND_PREFIX,
  discoveryFoundKey,
  discoveryMissingKey,
} from "../store/keyspace.ts";

/** `["discovery", "found", domain]`: the last discovery that found the stored logo. */
export interface FoundEntry {
  /** When (epoch ms). */
  at: number;
  /** Rank score of the stored logo (see `rank.ts`). */
  score: number;
  /** Its URL. */
  source: string;
  /** The store's record hash at the time: a different one means an operator replaced it. */
  hash: string;
}

/** The part of a stored logo record found entries are checked against. */
export interface StoredRecord {
  /** The record's hash. */
  hash: string;
}

/** The found entry of `domain`, or null. */
export async function readFound(kv: Deno.Kv, domain: string): Promise<FoundEntry | null> {
  return (await kv.get<FoundEntry>(discoveryFoundKey(domain))).value;
}

/** Marks `found` as checked again at `now` (the stored logo was kept). */
export async function touchFound(
  kv: Deno.Kv,
  domain: string,
  found: FoundEntry,
  now: number,
): Promise<void> {
  await kv.set(discoveryFoundKey(domain), { ...found, at: now });
}

/** Records a stored find, and forgets any remembered failure of `domain`, in one commit. */
export async function recordFound(kv: Deno.Kv, domain: string, entry: FoundEntry): Promise<void> {
  await kv.atomic()
    .set(discoveryFoundKey(domain), entry)
    .delete(discoveryMissingKey(domain))
    .commit();
}

/**
 * Up to `limit` domains whose found entry `isDue` and whose stored logo is still the one
 * discovery found. An entry whose logo was removed or replaced by an operator is deleted on the
 * way: it is no longer discovery's to refresh.
 *
 * @example
 * ```ts
 * import { LogoStore } from "../store/logo_store.ts";
 * const kv = await Deno.openKv(":memory:");
 * const isDue = (found: FoundEntry) => Date.now() - found.at > 30 * 86_400_000;
 * const due = await dueDomains(kv, new LogoStore(kv), isDue, 50); // at most 50 domains
 * ```
 */
export function dueDomains(
  kv: Deno.Kv,
  store: { get(domain: string): Promise<StoredRecord | null> },
  isDue: (found: FoundEntry) => boolean,
  limit: number,
): Promise<string[]> {
  return stillDiscovered<FoundEntry>(
    kv,
    DISCOVERY_FOUND_PREFIX,
    store,
    (found) => isDue(found) ? found.hash : undefined,
    limit,
  );
}

/**
 * The sweep's walk of one discovery memory (`[…, kind, domain]` keys under `prefix`), shared by
 * icons ({@link dueDomains}) and wordmarks (`wordmark_memory.ts`): up to `limit` domains whose
 * entry is due — `dueHash` gives the hash discovery stored, or `undefined` when not due — and
 * whose record in `store` still has that hash. An entry whose record was removed or replaced by
 * an operator is deleted on the way.
 */
export async function stillDiscovered<T>(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  store: { get(domain: string): Promise<StoredRecord | null> },
  dueHash: (value: T) => string | undefined,
  limit: number,
): Promise<string[]> {
  const due: string[] = [];
  for await (const entry of kv.list<T>({ prefix })) {
    const hash = dueHash(entry.value);
    if (hash === undefined) continue;
    const domain = entry.key[2] as string;
    const record = await store.get(domain);
    if (record === null || record.hash !== hash) {
      // Removed or replaced by an operator since: no longer discovery's to refresh.
      await kv.atomic().check(entry).delete(entry.key).commit();
      continue;
    }
    due.push(domain);
    if (due.length >= limit) break;
  }
  return due;
}
