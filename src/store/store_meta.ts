/**
 * The store's records about itself, under `["meta", …]` (the whole KV layout, these keys
 * included, is declared in `keyspace.ts`).
 *
 * - `["meta", "demo"]` (`DEMO_KEY`): the demo key and domains `seed.ts` created, so later
 *   starts print the same URL.
 * - `["meta", "initialized"]` ({@link INITIALIZED_KEY}): {@link InitializedMarker}, written the
 *   first time the store is seen holding data (keys or logos) — by the seeder, by the admin CLI
 *   after a command (`key create`, `logo add`/`import`…) and by `deno task start` on a store that
 *   has data. It is never removed: a store that has it has held data once, so an empty store with
 *   it is one whose data was deleted, and the server does not seed demo data into it.
 *
 * @example
 * ```ts
 * import { hasHeldData, recordIfHoldsData } from "./store_meta.ts";
 * const kv = await Deno.openKv(":memory:");
 * await recordIfHoldsData(kv); // false: an empty store is not marked
 * await hasHeldData(kv);       // false
 * kv.close();
 * ```
 * @module
 */
import { INITIALIZED_KEY } from "./keyspace.ts";
import { KeyStore } from "./key_store.ts";
import { LogoStore } from "./logo_store.ts";

/** The value at {@link INITIALIZED_KEY}. */
export interface InitializedMarker {
  /** Epoch ms when the store was first seen holding data. */
  at: number;
  /** Who recorded it: `"seed"`, `"admin"` or `"server"`. */
  by: string;
}

/** Whether the store has held data at some point ({@link INITIALIZED_KEY} is present). */
export async function hasHeldData(kv: Deno.Kv): Promise<boolean> {
  return (await kv.get(INITIALIZED_KEY)).versionstamp !== null;
}

/** Whether the store holds any key (revoked ones included) or any logo now. */
export async function holdsData(kv: Deno.Kv): Promise<boolean> {
  return !(await new KeyStore(kv).isEmpty()) || !(await new LogoStore(kv).isEmpty());
}

/** The marker to write, for {@link recordIfHoldsData} and atomic writers such as the seeder. */
export function initializedMarker(by: string, clock: () => number = Date.now): InitializedMarker {
  return { at: clock(), by };
}

/** Options of {@link recordIfHoldsData}. */
export interface RecordOptions {
  /** Who records it (see {@link InitializedMarker.by}); default `"server"`. */
  by?: string;
  /** Epoch-ms clock; default `Date.now`. */
  clock?: () => number;
}

/**
 * Writes {@link INITIALIZED_KEY} if the store holds data and has no marker yet (an existing
 * marker, and its timestamp, are kept). Resolves to whether the store is marked afterwards.
 */
export async function recordIfHoldsData(
  kv: Deno.Kv,
  options: RecordOptions = {},
): Promise<boolean> {
  if (await hasHeldData(kv)) return true;
  if (!(await holdsData(kv))) return false;
  await kv.atomic()
    .check({ key: INITIALIZED_KEY, versionstamp: null })
    .set(INITIALIZED_KEY, initializedMarker(options.by ?? "server", options.clock))
    .commit(); // a failed check means another process marked it at the same moment: fine
  return true;
}
