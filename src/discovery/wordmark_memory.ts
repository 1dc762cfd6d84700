/**
 * What discovery remembers about a domain's wordmark: `["discovery", "wordmark", domain]` →
 * {@link WordmarkEntry} (see `store/keyspace.ts`). Either the wordmark it stored — its record
 * hash tells it from one an operator put there since, which is not discovery's to refresh — or
 * that its last search found none, and until when that holds.
 *
 * The icon's side is `found_memory.ts` and `failure_memory.ts`; a wordmark has one key for both,
 * since finding none is not a failure (the icon answers `type=logo`).
 *
 * @module
 */
import { DISCOVERY_WORDMARK_PREFIX, discoveryWordmarkKey } from "../store/keyspace.ts";
import { stillDiscovered, type StoredRecord } from "./found_memory.ts";

/** The wordmark a discovery stored. */
export interface StoredWordmarkEntry {
  /** When it was last looked for (epoch ms). */
  at: number;
  /** Its URL (an inline `<svg>`: the page's URL with `#inline-svg-N`). */
  source: string;
  /** The store's record hash at the time: a different one means an operator replaced it. */
  hash: string;
}

/** A search that found no wordmark. */
export interface NoWordmarkEntry {
  /** When (epoch ms). */
  at: number;
  /** Until when (epoch ms) that is the answer: no search for the wordmark alone before. */
  until: number;
}

/** `["discovery", "wordmark", domain]`: see the module documentation. */
export type WordmarkEntry = StoredWordmarkEntry | NoWordmarkEntry;

/** Whether `entry` records a stored wordmark (not a search that found none). */
export function isStoredWordmark(entry: WordmarkEntry | null): entry is StoredWordmarkEntry {
  return entry !== null && "hash" in entry;
}

/** The wordmark entry of `domain`, or null. */
export async function readWordmarkEntry(
  kv: Deno.Kv,
  domain: string,
): Promise<WordmarkEntry | null> {
  return (await kv.get<WordmarkEntry>(discoveryWordmarkKey(domain))).value;
}

/** Records what a search of `domain` left for its wordmark. */
export async function recordWordmark(
  kv: Deno.Kv,
  domain: string,
  entry: WordmarkEntry,
): Promise<void> {
  await kv.set(discoveryWordmarkKey(domain), entry);
}

/**
 * Up to `limit` domains whose stored-wordmark entry `isDue` and whose stored wordmark is still the
 * one discovery stored. An entry whose wordmark was removed or replaced by an operator is deleted
 * on the way; entries of searches that found none are left (a request looks again after `until`).
 *
 * @example
 * ```ts
 * import { LogoStore } from "../store/logo_store.ts";
 * import { logosOfType } from "../store/typed_logo_store.ts";
 * const kv = await Deno.openKv(":memory:");
 * const wordmarks = logosOfType(new LogoStore(kv), "logo");
 * const isDue = (entry: StoredWordmarkEntry) => Date.now() - entry.at > 30 * 86_400_000;
 * const due = await dueWordmarkDomains(kv, wordmarks, isDue, 50); // at most 50 domains
 * ```
 */
export async function dueWordmarkDomains(
  kv: Deno.Kv,
  wordmarks: { get(domain: string): Promise<StoredRecord | null> },
  isDue: (entry: StoredWordmarkEntry) => boolean,
  limit: number,
): Promise<string[]> {
  if (limit <= 0) return [];
  return await stillDiscovered<WordmarkEntry>(
    kv,
    DISCOVERY_WORDMARK_PREFIX,
    wordmarks,
    (entry) => isStoredWordmark(entry) && isDue(entry) ? entry.hash : undefined,
    limit,
  );
}
