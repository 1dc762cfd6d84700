/**
 * The wordmark side of a discovery (`discover.ts`): when to look for a domain's wordmark, and what
 * a search's find does to the store — the icon's rules (`skip_or_refresh.ts`), for wordmarks:
 *
 * - a stored wordmark discovery did not store (an operator's: `logo add --type logo`, `logo
 *   import --type logo`) is never replaced: `operator` (`force` replaces it, as for an icon);
 * - a discovered wordmark is looked for again once older than `refreshAfterMs` (30 days), by the
 *   refresh sweep or the next discovery of the domain; a find replaces it (`stored`), the same bytes
 *   are `unchanged` (nothing written), and when the site shows none any more it is `kept`;
 * - a search that found none is remembered (`wordmark_memory.ts`): `none`, then `known-missing`
 *   for `refreshAfterMs`, or for `negativeTtlMs` (a day) when the home page could not be read;
 * - a search cut short by shutdown remembers nothing.
 *
 * Nothing here fails or changes the icon's outcome: a KV or store failure is logged and answered
 * `error`.
 *
 * @module
 */
import type { LogoSink } from "./logo_sink.ts";
import type { SearchResult } from "./search_site.ts";
import {
  dueWordmarkDomains,
  isStoredWordmark,
  readWordmarkEntry,
  recordWordmark,
  type StoredWordmarkEntry,
  type WordmarkEntry,
} from "./wordmark_memory.ts";

/**
 * What became of a domain's wordmark in one discovery:
 * - `stored`: one was found and stored (new, or different from the stored one);
 * - `unchanged`: the one found is the one already stored;
 * - `kept`: the discovered wordmark stored was kept (the site shows none now);
 * - `operator`: an operator's wordmark is stored; discovery leaves it;
 * - `fresh`: a wordmark discovered less than the refresh age ago is stored; not looked for;
 * - `known-missing`: none was found recently (or the site is failing); not looked for;
 * - `none`: the site was searched and shows no wordmark; remembered until `retryAt`;
 * - `error`: reading or storing it failed (logged); the icon's outcome is not affected.
 */
export type WordmarkStatus =
  | "stored"
  | "unchanged"
  | "kept"
  | "operator"
  | "fresh"
  | "known-missing"
  | "none"
  | "error";

/** The wordmark part of a `DiscoveryOutcome`. */
export interface WordmarkOutcome {
  /** See {@link WordmarkStatus}. */
  status: WordmarkStatus;
  /** The stored wordmark's source: the one found (`stored`, `unchanged`) or the one kept. */
  source?: string;
  /** With `none` and `known-missing`: when discovery looks for it again (epoch ms). */
  retryAt?: number;
  /** With `error`: what failed. */
  reason?: string;
}

/** What is known of a domain's wordmark before searching, and whether to search for it. */
export interface WordmarkPlan {
  /** The stored wordmark's record, or null. */
  record: { hash: string; source: string } | null;
  /** The entry of the wordmark discovery stored, when it is still the one stored; else null. */
  discovered: StoredWordmarkEntry | null;
  /** Why not to search for it (the outcome to answer), or undefined to search. */
  skip?: WordmarkOutcome;
}

/** What {@link wordmarkKeeper} needs. */
export interface WordmarkKeeperOptions {
  /** Where `wordmark_memory.ts` keeps its entries. */
  kv: Deno.Kv;
  /** Where wordmarks are stored: `logosOfType(logos, "logo")`. */
  wordmarks: LogoSink;
  /** Epoch-ms clock. */
  clock: () => number;
  /** Age after which a discovered wordmark, or a search that found none, is looked at again. */
  refreshAfterMs: number;
  /** How long "none found" holds when the home page could not be read. */
  negativeTtlMs: number;
  /** Where failures are reported. */
  log: (message: string) => void;
  /** Aborted at shutdown: a search cut short remembers nothing. */
  signal?: AbortSignal;
}

/** The wordmark steps of a discovery; see the module documentation. */
export interface WordmarkKeeper {
  /** Reads what is known of `domain`'s wordmark; never rejects (a failure plans `error`). */
  plan(domain: string, force: boolean): Promise<WordmarkPlan>;
  /** Applies a search's find to the store and the memory; never rejects. */
  keep(
    domain: string,
    plan: WordmarkPlan,
    found: SearchResult,
    force: boolean,
  ): Promise<WordmarkOutcome>;
  /** Up to `limit` domains whose discovered wordmark is due to be looked for again. */
  due(limit: number): Promise<string[]>;
}

/**
 * Creates the wordmark steps over a store and its memory.
 *
 * @example
 * ```ts
 * import { LogoStore } from "../store/logo_store.ts";
 * import { logosOfType } from "../store/typed_logo_store.ts";
 * const kv = await Deno.openKv(":memory:");
 * const keeper = wordmarkKeeper({
 *   kv,
 *   wordmarks: logosOfType(new LogoStore(kv), "logo"),
 *   clock: Date.now,
 *   refreshAfterMs: 30 * 86_400_000,
 *   negativeTtlMs: 86_400_000,
 *   log: console.error,
 * });
 * const plan = await keeper.plan("acme.test", false);
 * plan.skip; // undefined: never looked for, so the next discovery searches for it
 * ```
 */
export function wordmarkKeeper(options: WordmarkKeeperOptions): WordmarkKeeper {
  const { kv, wordmarks, clock, refreshAfterMs, log } = options;
  const failed = (domain: string, doing: string, error: unknown): WordmarkOutcome => {
    const reason = error instanceof Error ? error.message : String(error);
    log(`${doing} the wordmark of ${domain} failed: ${reason}`);
    return { status: "error", reason };
  };

  async function plan(domain: string, force: boolean): Promise<WordmarkPlan> {
    let record: WordmarkPlan["record"];
    let entry: WordmarkEntry | null;
    try {
      [record, entry] = await Promise.all([wordmarks.get(domain), readWordmarkEntry(kv, domain)]);
    } catch (error) {
      return { record: null, discovered: null, skip: failed(domain, "Reading", error) };
    }
    const discovered = record !== null && isStoredWordmark(entry) && entry.hash === record.hash
      ? entry
      : null;
    if (force) return { record, discovered };
    const now = clock();
    let skip: WordmarkOutcome | undefined;
    if (record !== null && discovered === null) {
      skip = { status: "operator", source: record.source };
    } else if (discovered !== null && now - discovered.at < refreshAfterMs) {
      skip = { status: "fresh", source: discovered.source };
    } else if (record === null && entry !== null && !isStoredWordmark(entry) && entry.until > now) {
      skip = { status: "known-missing", retryAt: entry.until };
    }
    return { record, discovered, ...(skip ? { skip } : {}) };
  }

  async function keep(
    domain: string,
    plan: WordmarkPlan,
    found: SearchResult,
    force: boolean,
  ): Promise<WordmarkOutcome> {
    const { record, discovered } = plan;
    if (plan.skip?.status === "error") return plan.skip;
    if (record !== null && discovered === null && !force) {
      return { status: "operator", source: record.source };
    }
    const now = clock();
    const wordmark = found.wordmark;
    try {
      if (wordmark !== undefined) {
        const { bytes } = wordmark;
        // A `data:` URL is no source to show (it may be long): the page it was inline in is.
        const source = wordmark.source.startsWith("data:")
          ? `${found.page ?? domain} (inline data: wordmark)`
          : wordmark.source;
        const { record: stored, changed } = await wordmarks.put(domain, bytes, { source });
        await recordWordmark(kv, domain, { at: now, source, hash: stored.hash });
        return { status: changed ? "stored" : "unchanged", source };
      }
      if (discovered !== null) {
        await recordWordmark(kv, domain, { ...discovered, at: now });
        return { status: "kept", source: discovered.source };
      }
      if (record !== null) return { status: "kept", source: record.source }; // force, none found
      // Cut short by shutdown: not a verdict on the site, so nothing is remembered.
      if (options.signal?.aborted) return { status: "none" };
      const until = now + (found.page === undefined ? options.negativeTtlMs : refreshAfterMs);
      await recordWordmark(kv, domain, { at: now, until });
      return { status: "none", retryAt: until };
    } catch (error) {
      return failed(domain, "Storing", error);
    }
  }

  return {
    plan,
    keep,
    due: (limit) =>
      dueWordmarkDomains(kv, wordmarks, (entry) => clock() - entry.at >= refreshAfterMs, limit),
  };
}
