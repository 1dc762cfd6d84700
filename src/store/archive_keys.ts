/**
 * The keys of a backup archive, checked before an import writes anything (`archive_import.ts`,
 * pass 1) and again as it writes them (pass 2): each against the store (`key_restore.ts`: a token
 * that belongs to another key, live or revoked, is refused, so a token the store revoked never
 * authenticates again), and against the archive's other keys (no two keys share a token: one of
 * them could not be restored, and were it the revoked one, the token would authenticate under the
 * other).
 *
 * @example
 * ```ts
 * import { ArchiveKeys } from "./archive_keys.ts";
 * import type { ApiKey } from "./key_store.ts";
 * const kv = await Deno.openKv(":memory:");
 * declare const key: ApiKey;
 * const keys = await ArchiveKeys.of(kv);
 * await keys.plan(key, 2, { replace: false }); // "added", or an ArchiveError naming line 2
 * ```
 * @module
 */
import { ArchiveError } from "./archive_records.ts";
import {
  KeyRestoreRefused,
  planKeyRestore,
  readRevokedTokens,
  restoreKey,
  type RevokedTokens,
} from "./key_restore.ts";
import type { ApiKey } from "./key_store.ts";
import type { RestoreOutcome } from "./logo_restore.ts";

/** The keys of one pass of an import. */
export class ArchiveKeys {
  readonly #kv: Deno.Kv;
  readonly #revoked: RevokedTokens;
  /** Publishable token or secret-token hash → id, of the archive's keys so far. */
  readonly #tokens = new Map<string, string>();

  private constructor(kv: Deno.Kv, revoked: RevokedTokens) {
    this.#kv = kv;
    this.#revoked = revoked;
  }

  /** Reads the store's revoked tokens, once for the whole archive. */
  static async of(kv: Deno.Kv): Promise<ArchiveKeys> {
    return new ArchiveKeys(kv, await readRevokedTokens(kv));
  }

  /**
   * What restoring `key`, read on `line`, would do (`planKeyRestore` of `key_restore.ts`): pass 1.
   *
   * @throws {ArchiveError} "Cannot import archive: line 3 (key key_…): its publishable token …",
   *   when a token of `key` is another key's, in the store or in the archive.
   */
  plan(key: ApiKey, line: number, options: { replace: boolean }): Promise<RestoreOutcome> {
    return this.#checked(key, line, () => planKeyRestore(this.#kv, key, this.#with(options)));
  }

  /**
   * Restores `key`, read on `line` (`restoreKey` of `key_restore.ts`): pass 2, which checks again,
   * as the file could have changed since pass 1.
   *
   * @throws {ArchiveError} as {@link plan} does.
   */
  restore(key: ApiKey, line: number, options: { replace: boolean }): Promise<RestoreOutcome> {
    return this.#checked(key, line, () => restoreKey(this.#kv, key, this.#with(options)));
  }

  #with(options: { replace: boolean }) {
    return { replace: options.replace, revoked: this.#revoked };
  }

  async #checked(
    key: ApiKey,
    line: number,
    run: () => Promise<RestoreOutcome>,
  ): Promise<RestoreOutcome> {
    const at = `line ${line} (key ${key.id})`;
    const pairs = [["publishable", key.publishableKey], ["secret", key.secretKeyHash]] as const;
    for (const [name, token] of pairs) {
      const other = this.#tokens.get(token);
      if (other !== undefined) {
        throw new ArchiveError(
          `${at}: its ${name} token is also key ${other}'s in the archive`,
          "import",
        );
      }
      this.#tokens.set(token, key.id);
    }
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof KeyRestoreRefused)) throw error;
      throw new ArchiveError(`${at}: ${error.reason}`, "import");
    }
  }
}
