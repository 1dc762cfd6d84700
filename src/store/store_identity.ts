/**
 * Whether the store file a server opened is still the file at its path. A SQLite file deleted
 * (`rm`) under a running server stays open: the server goes on reading and writing the deleted
 * copy while anything started later — the admin CLI, a restarted server — opens a new, empty file
 * at the same path. The check remembers the file's device and inode when the store is opened and
 * compares them with what is at the path now; readiness (`readiness.ts`) reports a difference.
 *
 * @example
 * ```ts
 * import { storeFileCheck } from "./store_identity.ts";
 * const path = await Deno.makeTempFile();
 * const check = storeFileCheck(path)!; // right after opening the store at `path`
 * check(); // undefined: the same file
 * Deno.removeSync(path);
 * check(); // "Store file /tmp/… was deleted (…); restore it and restart the server"
 * ```
 * @module
 */
import { resolve } from "node:path";
import { isKvFile } from "./open_kv.ts";

/** Reports what is wrong with the store file, or `undefined` while it is the one opened. */
export type StoreCheck = () => string | undefined;

/** Options of {@link storeFileCheck}. */
export interface StoreFileCheckOptions {
  /** How a path is examined; default `Deno.statSync` (needs read permission for the path). */
  stat?: (path: string) => Deno.FileInfo;
}

/**
 * Creates the check for the store at `location`, remembering the device and inode of the file
 * there now: call it right after opening the store. `undefined` for `:memory:` and a remote KV
 * (no file), and where the platform reports no inode (Windows).
 *
 * The returned check says, with the file's absolute path: "Store file … was deleted (this server
 * still serves the deleted copy); restore it and restart the server", "Store file … was replaced
 * (not the file this server opened); restart the server", or "Store file … cannot be examined
 * (…)".
 *
 * @throws {Error} when the file at `location` cannot be examined at all (it was just opened).
 */
export function storeFileCheck(
  location: string,
  options: StoreFileCheckOptions = {},
): StoreCheck | undefined {
  if (!isKvFile(location)) return undefined;
  const stat = options.stat ?? Deno.statSync;
  const path = resolve(location);
  const opened = stat(path);
  if (opened.ino === null || opened.dev === null) return undefined;
  return function checkStoreFile(): string | undefined {
    let now: Deno.FileInfo;
    try {
      now = stat(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        return `Store file ${path} was deleted (this server still serves the deleted copy); ` +
          "restore it and restart the server";
      }
      const reason = error instanceof Error ? error.message : String(error);
      return `Store file ${path} cannot be examined (${reason})`;
    }
    if (now.ino !== opened.ino || now.dev !== opened.dev) {
      return `Store file ${path} was replaced (not the file this server opened); restart the server`;
    }
    return undefined;
  };
}
