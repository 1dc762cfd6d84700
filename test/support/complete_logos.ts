/**
 * A check the store and admin tests share: every visible logo record is whole — each of its
 * renditions reads back (from the record or its blob) and matches its hash.
 *
 * @example
 * ```ts
 * import { assertAllComplete } from "./complete_logos.ts";
 * const records = await assertAllComplete(await Deno.openKv(":memory:")); // [] for an empty store
 * ```
 * @module
 */
import assert from "node:assert/strict";
import { type LogoRecord, LogoStore } from "../../src/store/logo_store.ts";
import { sha256Hex } from "../../src/store/sha256.ts";

/** Asserts every record's renditions read back complete and hash-match; returns the records. */
export async function assertAllComplete(kv: Deno.Kv): Promise<LogoRecord[]> {
  const logos = new LogoStore(kv);
  const records = await Array.fromAsync(logos.list());
  for (const record of records) {
    for (const [name, rendition] of Object.entries(record.renditions)) {
      const bytes = await logos.readRendition(rendition);
      assert.ok(bytes !== null, `${record.domain}: ${name} is complete`);
      assert.equal(await sha256Hex(bytes), rendition.hash, `${record.domain}: ${name} hash`);
    }
  }
  return records;
}
