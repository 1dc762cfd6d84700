import assert from "node:assert/strict";
import { attributionSatisfied, KeyStore } from "../../src/store/key_store.ts";
import { isPublishableKey, isSecretKey, TOKEN_BODY_LENGTH } from "../../src/store/key_token.ts";
import { sha256Hex } from "../../src/store/sha256.ts";
import { PLANS } from "../../src/store/plans.ts";

async function withKeys(fn: (keys: KeyStore, kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(new KeyStore(kv, { clock: () => 1_700_000_000_000 }), kv);
  } finally {
    kv.close();
  }
}

/** Every value stored under any key, as text, to search for secrets. */
async function dumpKv(kv: Deno.Kv): Promise<string> {
  const parts: string[] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    parts.push(JSON.stringify(entry.key), JSON.stringify(entry.value));
  }
  return parts.join("\n");
}

Deno.test("key create returns pk_/sk_ tokens with 24 random base62 characters", async () => {
  await withKeys(async (keys) => {
    const { key, secretKey } = await keys.create();
    assert.ok(isPublishableKey(key.publishableKey), key.publishableKey);
    assert.ok(isSecretKey(secretKey), secretKey);
    assert.equal(key.publishableKey.length, 3 + TOKEN_BODY_LENGTH);
    const other = await keys.create();
    assert.notEqual(other.key.publishableKey, key.publishableKey);
    assert.notEqual(other.secretKey, secretKey);
    assert.notEqual(other.key.id, key.id);
  });
});

Deno.test("key create defaults to the free plan and takes a named plan's limit", async () => {
  await withKeys(async (keys) => {
    const { key } = await keys.create();
    assert.deepEqual([key.plan, key.limit, key.window], [
      "free",
      PLANS.free.limit,
      PLANS.free.window,
    ]);
    const pro = (await keys.create({ plan: "pro" })).key;
    assert.deepEqual([pro.plan, pro.limit, pro.window], ["pro", PLANS.pro.limit, PLANS.pro.window]);
    const custom = (await keys.create({ limit: 5, window: 10 })).key;
    assert.deepEqual([custom.plan, custom.limit, custom.window], ["custom", 5, 10]);
  });
});

Deno.test("key create refuses an unknown plan, a lone limit and out-of-range numbers", async () => {
  await withKeys(async (keys, kv) => {
    await assert.rejects(keys.create({ plan: "gold" }), /Unknown plan "gold"/);
    await assert.rejects(keys.create({ limit: 5 }), /--limit and --window must be given together/);
    await assert.rejects(keys.create({ limit: 0, window: 60 }), /Invalid limit/);
    await assert.rejects(keys.create({ limit: 1.5, window: 60 }), /Invalid limit/);
    await assert.rejects(keys.create({ limit: 5, window: 0 }), /Invalid window/);
    await assert.rejects(keys.create({ allow: ["ftp://x.example.com"] }), /Invalid allowlist/);
    assert.equal(await dumpKv(kv), "", "nothing written");
  });
});

Deno.test("key store keeps the secret key only as its SHA-256", async () => {
  await withKeys(async (keys, kv) => {
    const { key, secretKey } = await keys.create();
    assert.equal(key.secretKeyHash, await sha256Hex(secretKey));
    const stored = await dumpKv(kv);
    assert.ok(!stored.includes(secretKey), "the secret key is not stored anywhere");
    assert.ok(!stored.includes(secretKey.slice(3)), "not even without its prefix");
  });
});

Deno.test("key store finds a key by either token and by nothing else", async () => {
  await withKeys(async (keys) => {
    const { key, secretKey } = await keys.create({ plan: "starter" });
    assert.equal((await keys.byPublishableKey(key.publishableKey))?.id, key.id);
    assert.equal((await keys.bySecretKey(secretKey))?.id, key.id);
    assert.equal(await keys.byPublishableKey(secretKey), null, "a sk_ is not a pk_");
    assert.equal(await keys.bySecretKey(key.publishableKey), null, "a pk_ is not a sk_");
    const flipped = key.publishableKey.slice(0, -1) +
      (key.publishableKey.endsWith("a") ? "b" : "a");
    assert.equal(await keys.byPublishableKey(flipped), null);
    assert.equal(await keys.byPublishableKey(""), null);
    assert.equal(await keys.byPublishableKey("pk_" + "x".repeat(10_000)), null);
  });
});

Deno.test("key revoke stops both tokens at once, keeps the record, and is idempotent", async () => {
  await withKeys(async (keys) => {
    const { key, secretKey } = await keys.create();
    const kept = await keys.create();
    assert.equal(await keys.revoke(key.id), true);
    assert.equal(await keys.byPublishableKey(key.publishableKey), null);
    assert.equal(await keys.bySecretKey(secretKey), null);
    assert.equal((await keys.byPublishableKey(kept.key.publishableKey))?.id, kept.key.id);
    const listed = await keys.list();
    assert.deepEqual(
      listed.map((k) => [k.id, k.revoked]).sort(),
      [
        [key.id, true],
        [kept.key.id, false],
      ].sort(),
    );
    assert.equal(await keys.revoke(key.id), true);
    assert.equal(await keys.revoke("key_doesnotexist"), false);
  });
});

Deno.test("key create normalises and deduplicates the allowlist", async () => {
  await withKeys(async (keys) => {
    const { key } = await keys.create({
      allow: [
        "HTTPS://App.Example.com/",
        "Example.com",
        "*.Example.org",
        "https://app.example.com",
      ],
    });
    assert.deepEqual(key.allow, ["https://app.example.com", "example.com", "*.example.org"]);
  });
});

Deno.test("attribution is required until recorded, then satisfied", async () => {
  await withKeys(async (keys) => {
    const plain = (await keys.create()).key;
    assert.equal(attributionSatisfied(plain), true);
    const { key } = await keys.create({ attribution: true });
    assert.equal(attributionSatisfied(key), false);
    await assert.rejects(keys.recordAttribution(key.id, "not a url"), /Invalid attribution URL/);
    assert.equal(await keys.recordAttribution(key.id, "https://app.example.com/about"), true);
    const recorded = await keys.byPublishableKey(key.publishableKey);
    assert.equal(recorded?.attributionUrl, "https://app.example.com/about");
    assert.equal(recorded?.attributionRecordedAt, 1_700_000_000_000);
    assert.equal(attributionSatisfied(recorded!), true);
    assert.equal(await keys.recordAttribution("key_nope", "https://example.com/"), false);
  });
});

Deno.test("key store isEmpty tells a fresh store from one with keys", async () => {
  await withKeys(async (keys) => {
    assert.equal(await keys.isEmpty(), true);
    await keys.create();
    assert.equal(await keys.isEmpty(), false);
  });
});
