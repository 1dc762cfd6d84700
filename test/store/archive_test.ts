/**
 * Backup archives (`src/store/archive_*.ts`): a round trip restores keys that authenticate with
 * their original tokens and logos that serve the same bytes; a truncated, corrupt or foreign file
 * or a conflict is refused with the store unchanged; existing equal data is left, different data
 * replaced only on request.
 */
import assert from "node:assert/strict";
import { ArchiveError } from "../../src/store/archive_format.ts";
import { importArchive, ImportConflict } from "../../src/store/archive_import.ts";
import { writeArchive } from "../../src/store/archive_writer.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { IMPORT_KEY, INITIALIZED_KEY, publishableIndexKey } from "../../src/store/keyspace.ts";
import { sha256Hex } from "../../src/store/sha256.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { startTestApp } from "../support/server.ts";
import { flatImage } from "../support/images.ts";
import {
  archiveOf,
  concat,
  DOMAINS,
  dump,
  fillStore,
  gunzip,
  gzip,
  type IssuedKey,
  opener,
} from "../support/archives.ts";

async function withStores(
  fn: (source: Deno.Kv, target: Deno.Kv, issued: IssuedKey[]) => Promise<void>,
): Promise<void> {
  const source = await Deno.openKv(":memory:");
  const target = await Deno.openKv(":memory:");
  try {
    await fn(source, target, await fillStore(source));
  } finally {
    source.close();
    target.close();
  }
}

/** The status and bytes of `GET /{domain}` for `token` (or a Bearer secret key) in `kv`. */
async function served(kv: Deno.Kv, domain: string, auth: { pk?: string; sk?: string }) {
  await using server = await startTestApp({ kv });
  const url = `${server.url}/${domain}` + (auth.pk ? `?token=${auth.pk}` : "");
  const headers: Record<string, string> = auth.sk ? { authorization: `Bearer ${auth.sk}` } : {};
  const { status, bytes: body } = await server.exchange(url, { headers });
  return { status, body };
}

Deno.test("archive: a round trip restores keys that authenticate with their tokens and the same logos", async () => {
  await withStores(async (source, target, issued) => {
    const archive = await archiveOf(source);
    const result = await importArchive(target, opener(archive), { replace: false });
    assert.deepEqual(result.keys, { added: 3, replaced: 0, unchanged: 0 });
    assert.deepEqual(result.logos, { added: 3, replaced: 0, unchanged: 0 });

    const keys = new KeyStore(target);
    for (const key of issued) {
      const byPk = await keys.byPublishableKey(key.publishableKey);
      const bySk = await keys.bySecretKey(key.secretKey);
      assert.equal(byPk?.id, key.revoked ? undefined : key.id, `pk of ${key.id}`);
      assert.equal(bySk?.id, key.revoked ? undefined : key.id, `sk of ${key.id}`);
      assert.deepEqual(await keys.get(key.id), await new KeyStore(source).get(key.id));
    }
    const from = new LogoStore(source);
    const to = new LogoStore(target);
    for (const domain of DOMAINS) {
      const record = await to.get(domain);
      assert.deepEqual(record, await from.get(domain));
      for (const rendition of Object.values(record!.renditions)) {
        assert.deepEqual(await to.readRendition(rendition), await from.readRendition(rendition));
      }
    }
    // Served: the same bytes for the open key's pk and for the secret key, from either store.
    for (const domain of DOMAINS) {
      for (const auth of [{ pk: issued[0].publishableKey }, { sk: issued[0].secretKey }]) {
        const before = await served(source, domain, auth);
        const after = await served(target, domain, auth);
        assert.equal(after.status, 200, `${domain} ${JSON.stringify(auth)}`);
        assert.deepEqual(after.body, before.body);
      }
    }
    assert.equal((await served(target, DOMAINS[0], { pk: issued[2].publishableKey })).status, 401);
    assert.equal((await target.get(IMPORT_KEY)).versionstamp, null, "marker cleared");
    assert.notEqual((await target.get(INITIALIZED_KEY)).versionstamp, null, "store marked");
  });
});

Deno.test("archive: holds no secret token, only its hash", async () => {
  await withStores(async (source, _target, issued) => {
    const text = await gunzip(await archiveOf(source));
    for (const key of issued) assert.equal(text.includes(key.secretKey), false);
    assert.equal(text.includes('"secretKeyHash"'), true);
  });
});

Deno.test("archive: importing it again changes nothing", async () => {
  await withStores(async (source, target) => {
    const archive = await archiveOf(source);
    await importArchive(target, opener(archive), { replace: false });
    const before = await dump(target);
    const again = await importArchive(target, opener(archive), { replace: false });
    assert.deepEqual(again.logos, { added: 0, replaced: 0, unchanged: 3 });
    assert.deepEqual(again.keys, { added: 0, replaced: 0, unchanged: 3 });
    assert.deepEqual(await dump(target), before);
  });
});

/** Imports `archive` into `target` expecting `error`, and checks the store did not change. */
async function assertRefused(
  target: Deno.Kv,
  archive: Uint8Array<ArrayBuffer>,
  error: RegExp,
  kind: typeof ArchiveError | typeof ImportConflict = ArchiveError,
): Promise<void> {
  const before = await dump(target);
  await assert.rejects(importArchive(target, opener(archive), { replace: false }), (e) => {
    assert.ok(e instanceof kind, String(e));
    assert.match((e as Error).message, error);
    return true;
  });
  assert.deepEqual(await dump(target), before);
}

Deno.test("archive: a truncated file is refused and the store is unchanged", async () => {
  await withStores(async (source, target) => {
    await new LogoStore(target).put("kept.test", flatImage(32, 32, [0, 0, 0, 255]), {
      source: "file:k.png",
    });
    const archive = await archiveOf(source);
    // Cut in the gzip data, and cut cleanly before the end line (a valid gzip of fewer lines).
    await assertRefused(target, archive.slice(0, archive.length >> 1), /not gzip data or is cut/);
    const lines = (await gunzip(archive)).trimEnd().split("\n");
    await assertRefused(
      target,
      await gzip(lines.slice(0, -1).join("\n") + "\n"),
      /truncated: it ends after line 7, with no end line/,
    );
    await assertRefused(target, new Uint8Array(0), /empty|not gzip/);
  });
});

Deno.test("archive: a corrupt file is refused and the store is unchanged", async () => {
  await withStores(async (source, target) => {
    const archive = await archiveOf(source);
    const flipped = archive.slice();
    flipped[flipped.length >> 1] ^= 0xff;
    await assertRefused(target, flipped, /not gzip data|corrupt|not JSON|line \d/);

    const lines = (await gunzip(archive)).trimEnd().split("\n");
    const logoAt = lines.findIndex((l) => l.includes('"type":"logo"'));
    const logo = JSON.parse(lines[logoAt]);
    // An image changed: its SHA-256 no longer matches.
    const [hash, data] = Object.entries(logo.blobs as Record<string, string>)[0];
    const bytes = Uint8Array.fromBase64(data);
    bytes[bytes.length - 1] ^= 1;
    const changedImage = structuredClone(logo);
    changedImage.blobs[hash] = bytes.toBase64();
    const withImage = lines.with(logoAt, JSON.stringify(changedImage));
    await assertRefused(target, await gzip(withImage.join("\n")), /does not match its SHA-256/);
    // A valid but edited field: the trailer's checksum catches it.
    const edited = lines.with(
      logoAt,
      JSON.stringify({ ...logo, record: { ...logo.record, source: "x" } }),
    );
    await assertRefused(target, await gzip(edited.join("\n")), /checksum does not match/);
    // A bad field is named.
    const badKey = lines.map((l) => l.replace(/"limit":\d+/, '"limit":-1'));
    await assertRefused(target, await gzip(badKey.join("\n")), /line 2: key\.limit is not a whole/);
  });
});

Deno.test("archive: a foreign file is refused", async () => {
  const target = await Deno.openKv(":memory:");
  try {
    await assertRefused(target, flatImage(8, 8, [1, 2, 3, 255]).slice(), /not gzip data/);
    await assertRefused(target, await gzip("hello\n"), /line 1 is not JSON/);
    await assertRefused(target, await gzip('{"type":"other"}\n'), /not a Logo Lookup archive/);
    await assertRefused(
      target,
      await gzip('{"type":"logo-lookup-archive","version":9,"createdAt":1}\n'),
      /archive version 9 is not supported/,
    );
    assert.deepEqual(await dump(target), [], "not even a marker");
  } finally {
    target.close();
  }
});

Deno.test("archive: different existing data is refused without --replace, replaced with it", async () => {
  await withStores(async (source, target, issued) => {
    const archive = await archiveOf(source);
    await importArchive(target, opener(archive), { replace: false });
    const logos = new LogoStore(target);
    await logos.put(DOMAINS[1], flatImage(40, 40, [0, 200, 0, 255]), { source: "file:new.png" });
    // (A key revoked since is not "different": it stays revoked, test/store/archive_revocation_test.ts.)
    await new KeyStore(target).recordAttribution(issued[0].id, "https://example.com/elsewhere");
    await assertRefused(target, archive, /1 keys and 1 logos .*differ.*--replace/, ImportConflict);

    const result = await importArchive(target, opener(archive), { replace: true });
    assert.deepEqual(result.logos, { added: 0, replaced: 1, unchanged: 2 });
    assert.deepEqual(result.keys, { added: 0, replaced: 1, unchanged: 2 });
    assert.deepEqual(await logos.get(DOMAINS[1]), await new LogoStore(source).get(DOMAINS[1]));
    const key = await new KeyStore(target).byPublishableKey(issued[0].publishableKey);
    assert.deepEqual(key, await new KeyStore(source).get(issued[0].id));
    assert.equal(await logos.sweep(), 0, "the replaced logo's images were collected at once");
  });
});

Deno.test("archive: a token that belongs to another key in the store is refused", async () => {
  await withStores(async (source, target) => {
    const archive = await archiveOf(source);
    const lines = (await gunzip(archive)).trimEnd().split("\n");
    const key = JSON.parse(lines[1]).key;
    // The same publishable token under another id: a restore would hand it to two keys.
    await target.set(
      publishableIndexKey(await sha256Hex(key.publishableKey)),
      "key_OtherOtherOther1",
    );
    const before = await dump(target);
    await assert.rejects(
      importArchive(target, opener(archive), { replace: true }),
      /its publishable token belongs to key key_OtherOtherOther1/,
    );
    assert.deepEqual(await dump(target), before);
  });
});

/** `kv`, running `action` on the real store just before the first read of an image's chunks. */
function beforeFirstImageRead(kv: Deno.Kv, action: () => Promise<void>): Deno.Kv {
  let fired = false;
  return new Proxy(kv, {
    get(target, property) {
      if (property === "list") {
        return (selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
          const prefix = "prefix" in selector ? selector.prefix : [];
          if (fired || prefix[0] !== "blob_chunks") return target.list(selector, options);
          fired = true;
          return (async function* () {
            await action();
            yield* target.list(selector, options);
          })();
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("archive: a logo changed or removed during the export is exported whole or not at all", async () => {
  await withStores(async (source, target) => {
    const logos = new LogoStore(source);
    const changed = flatImage(90, 45, [10, 160, 60, 255]);
    // acme.test and wide.example.org share their images: change one, remove the other, and the
    // images the export was about to read are collected.
    const during = beforeFirstImageRead(source, async () => {
      await logos.put(DOMAINS[0], changed, { source: "file:changed.png" });
      await logos.remove(DOMAINS[2]);
    });
    const chunks: Uint8Array[] = [];
    const summary = await writeArchive(
      during,
      new WritableStream({ write: (c) => void chunks.push(c) }),
    );
    assert.equal(summary.logos, 2);
    await importArchive(target, opener(concat(chunks)), { replace: false });
    const restored = new LogoStore(target);
    assert.deepEqual(await restored.get(DOMAINS[0]), await logos.get(DOMAINS[0]), "the new record");
    assert.equal(await restored.get(DOMAINS[2]), null);
    const record = (await restored.get(DOMAINS[0]))!;
    for (const rendition of Object.values(record.renditions)) {
      assert.deepEqual(
        await restored.readRendition(rendition),
        await logos.readRendition(rendition),
      );
    }
  });
});
