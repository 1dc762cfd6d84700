/**
 * Backup archives and revoked keys (issue 30, defect 3): a token the store has revoked never
 * authenticates again, whatever an archive says — not under a new key id, not from an older backup
 * of the key, not with `replace` —, and a key revoked in the archive is imported revoked.
 */
import assert from "node:assert/strict";
import { ArchiveError, headerLine } from "../../src/store/archive_format.ts";
import { importArchive, ImportConflict } from "../../src/store/archive_import.ts";
import { type ApiKey, KeyStore } from "../../src/store/key_store.ts";
import { generateToken } from "../../src/store/key_token.ts";
import { sha256Hex } from "../../src/store/sha256.ts";
import { dump, fillStore, type IssuedKey, opener, sealArchive } from "../support/archives.ts";

/** An archive of `keys` alone. */
function archiveOfKeys(...keys: ApiKey[]): Promise<Uint8Array<ArrayBuffer>> {
  return sealArchive([headerLine(0), ...keys.map((key) => JSON.stringify({ type: "key", key }))]);
}

/** `key` as it was before it was revoked. */
function live(key: ApiKey): ApiKey {
  const { revokedAt: _, ...rest } = key;
  return { ...rest, revoked: false };
}

/** The ids `issued`'s publishable and secret tokens authenticate as in `kv` (`null`: refused). */
async function authenticates(kv: Deno.Kv, issued: IssuedKey): Promise<(string | null)[]> {
  const keys = new KeyStore(kv);
  return [
    (await keys.byPublishableKey(issued.publishableKey))?.id ?? null,
    (await keys.bySecretKey(issued.secretKey))?.id ?? null,
  ];
}

async function withStore(fn: (kv: Deno.Kv, issued: IssuedKey[]) => Promise<void>) {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv, await fillStore(kv));
  } finally {
    kv.close();
  }
}

/** Imports `archive` expecting an {@link ArchiveError} matching `message`; the store unchanged. */
async function assertRefused(
  kv: Deno.Kv,
  archive: Uint8Array<ArrayBuffer>,
  replace: boolean,
  message: RegExp,
) {
  const before = await dump(kv);
  await assert.rejects(importArchive(kv, opener(archive), { replace }), (error) => {
    assert.ok(error instanceof ArchiveError, String(error));
    assert.match(error.message, message);
    return true;
  });
  assert.deepEqual(await dump(kv), before);
}

Deno.test("archive: a new key id with a revoked key's token is refused, with --replace too", async () => {
  await withStore(async (kv, issued) => {
    const revoked = (await new KeyStore(kv).get(issued[2].id))!;
    const id = "key_RevivedRevived01";
    const both = { ...live(revoked), id };
    const pkOnly = { ...both, secretKeyHash: await sha256Hex(generateToken("sk_")) };
    const skOnly = { ...both, publishableKey: generateToken("pk_") };
    // Revoked in the archive too: the token was revoked here, it belongs to that key alone.
    const stillRevoked = { ...revoked, id };
    for (const replace of [false, true]) {
      for (const [key, token] of [[both, "publishable"], [pkOnly, "publishable"]] as const) {
        await assertRefused(
          kv,
          await archiveOfKeys(key),
          replace,
          new RegExp(
            `^Cannot import archive: line 2 \\(key ${id}\\): its ${token} token was revoked ` +
              `\\(key ${revoked.id}\\); a token the store revoked never authenticates again$`,
          ),
        );
      }
      await assertRefused(kv, await archiveOfKeys(skOnly), replace, /its secret token was revoked/);
      await assertRefused(kv, await archiveOfKeys(stillRevoked), replace, /token was revoked/);
    }
    assert.deepEqual(await authenticates(kv, issued[2]), [null, null]);
  });
});

Deno.test("archive: an older backup of a key revoked since leaves it revoked, with --replace too", async () => {
  await withStore(async (kv, issued) => {
    const keys = new KeyStore(kv);
    const revoked = (await keys.get(issued[2].id))!;
    // Equal but for the revocation: nothing to replace, the revocation stands.
    const equal = await importArchive(kv, opener(await archiveOfKeys(live(revoked))), {
      replace: false,
    });
    assert.deepEqual(equal.keys, { added: 0, replaced: 0, unchanged: 1 });
    assert.deepEqual(await keys.get(revoked.id), revoked);
    // Different otherwise: a conflict, and replaced with --replace, revoked as it was.
    const older = { ...live(revoked), plan: "pro", limit: 10_000 };
    await assert.rejects(
      importArchive(kv, opener(await archiveOfKeys(older)), { replace: false }),
      ImportConflict,
    );
    const replaced = await importArchive(kv, opener(await archiveOfKeys(older)), { replace: true });
    assert.deepEqual(replaced.keys, { added: 0, replaced: 1, unchanged: 0 });
    assert.deepEqual(await keys.get(revoked.id), { ...revoked, plan: "pro", limit: 10_000 });
    assert.deepEqual(await authenticates(kv, issued[2]), [null, null]);
    // Other tokens under the revoked key's id would make the store forget the revoked ones.
    await assertRefused(
      kv,
      await archiveOfKeys({ ...older, publishableKey: generateToken("pk_") }),
      true,
      /line 2 \(key key_\w+\): it is revoked in the store and the archive gives it other tokens/,
    );
  });
});

Deno.test("archive: a key revoked in the archive is imported revoked, over a live one with --replace", async () => {
  await withStore(async (kv, issued) => {
    const keys = new KeyStore(kv);
    const key = (await keys.get(issued[0].id))!;
    const revoked = { ...key, revoked: true, revokedAt: key.createdAt + 1 };
    await assert.rejects(
      importArchive(kv, opener(await archiveOfKeys(revoked)), { replace: false }),
      ImportConflict,
    );
    assert.deepEqual(await authenticates(kv, issued[0]), [key.id, key.id]);
    await importArchive(kv, opener(await archiveOfKeys(revoked)), { replace: true });
    assert.deepEqual(await keys.get(key.id), revoked);
    assert.deepEqual(await authenticates(kv, issued[0]), [null, null]);

    // Into another store: revoked there, and remembered there as revoked.
    const other = await Deno.openKv(":memory:");
    try {
      await importArchive(other, opener(await archiveOfKeys(revoked)), { replace: false });
      assert.deepEqual(await authenticates(other, issued[0]), [null, null]);
      await assertRefused(
        other,
        await archiveOfKeys({ ...key, id: "key_RevivedRevived02" }),
        true,
        /its publishable token was revoked/,
      );
    } finally {
      other.close();
    }
  });
});

Deno.test("archive: two keys of an archive with one token are refused, naming the second", async () => {
  await withStore(async (kv, issued) => {
    const key = (await new KeyStore(kv).get(issued[0].id))!;
    const target = await Deno.openKv(":memory:");
    try {
      // Were the revoked one written, the token would still authenticate under the live one.
      const archive = await archiveOfKeys(
        { ...key, revoked: true, revokedAt: 1 },
        { ...key, id: "key_RevivedRevived03" },
      );
      await assertRefused(
        target,
        archive,
        true,
        /^Cannot import archive: line 3 \(key key_RevivedRevived03\): its publishable token is also key key_\w+'s in the archive$/,
      );
    } finally {
      target.close();
    }
  });
});
