/**
 * Where Logo Lookup keeps its data: the one Deno KV that `deno task start` and `deno task admin`
 * share, named by the `LOGO_KV` environment variable.
 *
 * - unset: `./data/logo-lookup.kv` (the `data/` directory is created);
 * - a path: that SQLite file (its directory is created);
 * - `https://…`: a remote KV (Deno Deploy KV Connect), authenticated by `DENO_KV_ACCESS_TOKEN`;
 * - `:memory:`: a throwaway in-memory store.
 *
 * `deno task start` creates a missing store file (the newcomer's first run); the admin CLI opens
 * with `{ createFile: false }` and so refuses to make a new, empty store where a server expects an
 * existing one, unless it is run with `--init`. Neither creates a store file next to SQLite's
 * `-wal`/`-shm` files of a deleted one.
 *
 * @example
 * ```ts
 * import { kvLocation, openKv } from "./open_kv.ts";
 * const kv = await openKv(kvLocation("/srv/logo-lookup/logo.kv"));
 * ```
 * @module
 */
import { dirname } from "node:path";
import { whileLocked } from "./store_locked.ts";

/** Default location of the KV file, relative to the working directory. */
export const DEFAULT_KV_PATH = "./data/logo-lookup.kv";

/**
 * `LOGO_KV=platform`: the runtime's own KV, `Deno.openKv()` with no path — on Deno Deploy the
 * application's KV database, shared by all its instances.
 */
export const PLATFORM_KV = "platform";

/**
 * The KV location to open: `LOGO_KV`'s value when set and not blank; else {@link PLATFORM_KV} when
 * `deploymentId` is set (`DENO_DEPLOYMENT_ID`, which Deno Deploy sets), else the default path.
 *
 * @example
 * ```ts
 * import { kvLocation } from "./open_kv.ts";
 * kvLocation(undefined); // "./data/logo-lookup.kv"
 * kvLocation(undefined, "abc123"); // "platform"
 * kvLocation("/srv/logo.kv", "abc123"); // "/srv/logo.kv"
 * ```
 */
export function kvLocation(value: string | undefined, deploymentId?: string): string {
  const trimmed = value?.trim();
  if (trimmed) return trimmed;
  return deploymentId?.trim() ? PLATFORM_KV : DEFAULT_KV_PATH;
}

/** Whether `location` names a remote KV rather than a local file. */
export function isRemoteKv(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** Whether `location` names a local store file (not `:memory:`, the platform's KV or a remote KV). */
export function isKvFile(location: string): boolean {
  return location !== ":memory:" && location !== PLATFORM_KV && !isRemoteKv(location);
}

/** Options of {@link openKv}. */
export interface OpenKvOptions {
  /**
   * Whether a local store file that does not exist is created (with its directory); default
   * `true`. With `false` a missing file is refused and nothing is created. `:memory:` and remote
   * KVs are unaffected.
   */
  createFile?: boolean;
}

/**
 * Opens the KV at `location` (see {@link kvLocation}), creating the directory of a local file.
 *
 * @throws {Error} a message naming `LOGO_KV` (and `DENO_KV_ACCESS_TOKEN` for a remote KV), what
 * is wrong and what to do, e.g. "Cannot open the store at LOGO_KV=/dev/null/x.kv: /dev/null is
 * not a directory. Set LOGO_KV to a file path in a writable directory." With `createFile: false`
 * and no file at `location`: "Cannot open the store at LOGO_KV=…: no store file exists there. Run
 * again with --init to create a new, empty store." Whatever the options, no store file but its
 * `-wal` or `-shm` file: "Cannot open the store at LOGO_KV=…: no store file exists there, but
 * ….kv-wal and ….kv-shm do (…). Stop the servers using it and move those files away before
 * creating a store."
 */
export async function openKv(location: string, options: OpenKvOptions = {}): Promise<Deno.Kv> {
  const setting = `LOGO_KV=${location}`;
  if (isKvFile(location)) {
    if (!(await storeFileExists(location))) {
      const leftovers = await leftoverFiles(location);
      // SQLite writes the store file before its side files: if it is there now, another
      // process is creating the store at this moment, and these are its files.
      if (leftovers.length > 0 && !(await storeFileExists(location))) {
        throw new Error(
          `Cannot open the store at ${setting}: no store file exists there, but ` +
            `${leftovers.join(" and ")} do (left by a store file deleted while a server had it ` +
            "open?). Stop the servers using it and move those files away before creating a store.",
        );
      }
      if (options.createFile === false) {
        throw new Error(
          `Cannot open the store at ${setting}: no store file exists there. Run again with ` +
            "--init to create a new, empty store.",
        );
      }
    }
    const directory = dirname(location);
    try {
      await Deno.mkdir(directory, { recursive: true });
    } catch (error) {
      throw new Error(`Cannot open the store at ${setting}: ${directoryProblem(directory, error)}`);
    }
  }
  try {
    if (!isKvFile(location)) {
      return await (location === PLATFORM_KV ? Deno.openKv() : Deno.openKv(location));
    }
    return await whileLocked(async () => {
      const kv = await Deno.openKv(location);
      try {
        // A write transaction that changes nothing: it waits out another process creating the
        // same new store (SQLite's switch to WAL takes the file for itself for a moment).
        await kv.atomic().check({ key: OPEN_PROBE_KEY, versionstamp: null }).commit();
        return kv;
      } catch (error) {
        kv.close();
        throw error;
      }
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot open the store at ${setting}: ${openProblem(location, reason)}`);
  }
}

/**
 * SQLite's companions of the store file `path` that exist (`-wal`, `-shm`, `-journal`). Without
 * the store file they belong to a deleted store still open in some process; SQLite would mix them
 * into a new store at the path ("disk I/O error", or worse).
 */
async function leftoverFiles(path: string): Promise<string[]> {
  const found: string[] = [];
  for (const suffix of ["-wal", "-shm", "-journal"]) {
    if (await storeFileExists(path + suffix)) found.push(path + suffix);
  }
  return found;
}

/**
 * Whether anything exists at the store file path `path`. Only "not found" counts as absent: any
 * other failure (no permission…) is left for `Deno.openKv` to report with its own message.
 */
export async function storeFileExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    return true;
  }
}

const FIX_PATH = "Set LOGO_KV to a file path in a writable directory";

/** Why `directory` could not be created, and what to do. */
function directoryProblem(directory: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof Deno.errors.AlreadyExists) {
    return `${directory} is not a directory. ${FIX_PATH}.`;
  }
  if (
    error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied ||
    error instanceof Deno.errors.NotFound
  ) {
    // Deno refuses to create anything under /proc, /dev or /sys ("NotCapable"): not a
    // permission the operator should widen, so the flag it suggests is not repeated.
    return `the directory ${directory} does not exist and cannot be created. ${FIX_PATH}, ` +
      "or create the directory.";
  }
  return `the directory ${directory} cannot be created (${reason}). ${FIX_PATH}.`;
}

/** Why Deno could not open `location`, and what to do. */
function openProblem(location: string, reason: string): string {
  if (isRemoteKv(location)) {
    if (/DENO_KV_ACCESS_TOKEN/.test(reason)) {
      return "DENO_KV_ACCESS_TOKEN is not set. Set it to the access token of the KV server.";
    }
    if (/401|403|unauthori[sz]ed|forbidden/i.test(reason)) {
      return `the KV server refused DENO_KV_ACCESS_TOKEN (${reason}). Set the server's token.`;
    }
    return `the KV server does not answer (${reason}). Check that it is running and that ` +
      "LOGO_KV is its URL.";
  }
  if (/not a database/i.test(reason)) {
    return `${location} is not a Deno KV file. Set LOGO_KV to a new or existing store file.`;
  }
  if (/unable to open database file/i.test(reason)) {
    return `${location} cannot be opened as a file (a directory, or not writable?). ` +
      `${FIX_PATH}.`;
  }
  return `${reason}. ${FIX_PATH}.`;
}

/** A key that is never written: {@link openKv}'s probe checks that it is absent. */
const OPEN_PROBE_KEY: Deno.KvKey = ["__open_probe"];
