/**
 * Where Logo Lookup keeps its data: the one Deno KV that `deno task start` and `deno task admin`
 * share, named by the `LOGO_KV` environment variable.
 *
 * - unset: `./data/logo-lookup.kv` (the `data/` directory is created);
 * - a path: that SQLite file (its directory is created);
 * - `https://…`: a remote KV (Deno Deploy KV Connect), authenticated by `DENO_KV_ACCESS_TOKEN`;
 * - `:memory:`: a throwaway in-memory store.
 *
 * @example
 * ```ts
 * import { kvLocation, openKv } from "./open_kv.ts";
 * const kv = await openKv(kvLocation(Deno.env.get("LOGO_KV")));
 * ```
 * @module
 */
import { dirname } from "node:path";

/** Default location of the KV file, relative to the working directory. */
export const DEFAULT_KV_PATH = "./data/logo-lookup.kv";

/** The KV location to open: `LOGO_KV`'s value when set and not blank, else the default path. */
export function kvLocation(value: string | undefined): string {
  const trimmed = value?.trim();
  return trimmed ? trimmed : DEFAULT_KV_PATH;
}

/** Whether `location` names a remote KV rather than a local file. */
export function isRemoteKv(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/**
 * Opens the KV at `location` (see {@link kvLocation}), creating the directory of a local file.
 *
 * @throws {Error} "Cannot open KV at …: reason" when Deno cannot open it.
 */
export async function openKv(location: string): Promise<Deno.Kv> {
  if (location !== ":memory:" && !isRemoteKv(location)) {
    await Deno.mkdir(dirname(location), { recursive: true });
  }
  try {
    return await Deno.openKv(location);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot open KV at ${location}: ${reason}`);
  }
}
