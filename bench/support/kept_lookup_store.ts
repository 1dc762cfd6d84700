/**
 * A lookup store kept between runs of `deno task bench:lookup` (`--stores DIR`): building 100,000
 * logos takes minutes and gigabytes, so a run given a directory reuses the store it finds there
 * (`lookup-COUNT-seedSEED.sqlite` and its key in `lookup-COUNT-seedSEED.json`) and builds only what
 * is missing (`lookup_store.ts`). A store whose key file is missing is built again from scratch.
 *
 * @example
 * ```ts
 * import { keptLookupStore } from "./kept_lookup_store.ts";
 * const store = await keptLookupStore("/tmp/lookup-stores", { seed: 7, count: 1000 });
 * console.log(store.path, store.token, store.built); // built: false when reused
 * ```
 * @module
 */
import { join } from "node:path";
import {
  buildLookupStore,
  type BuiltLookupStore,
  type LookupStoreOptions,
} from "./lookup_store.ts";

/** A store ready to serve. */
export interface KeptLookupStore {
  /** The SQLite file. */
  path: string;
  /** A publishable key with a limit no benchmark reaches. */
  token: string;
  /** What building it took, or `undefined` when it was reused. */
  built: BuiltLookupStore | undefined;
}

/** The store of `options.count` logos in `dir`, reused when there, built otherwise. */
export async function keptLookupStore(
  dir: string,
  options: LookupStoreOptions,
): Promise<KeptLookupStore> {
  const name = `lookup-${options.count}-seed${options.seed}`;
  const path = join(dir, `${name}.sqlite`);
  const keyFile = join(dir, `${name}.json`);
  const saved = await Deno.readTextFile(keyFile).then((text) => JSON.parse(text), () => null);
  if (typeof saved?.token === "string") return { path, token: saved.token, built: undefined };
  for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(path + suffix).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  const built = await buildLookupStore(path, options);
  await Deno.writeTextFile(keyFile, JSON.stringify({ token: built.token }));
  return { path, token: built.token, built };
}
