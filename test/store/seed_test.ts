import assert from "node:assert/strict";
import { seedIfEmpty } from "../../src/store/seed.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { sha256Hex } from "../../src/store/sha256.ts";

async function withKv(fn: (kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

Deno.test("seedIfEmpty creates a live demo key and complete demo logos on an empty store", async () => {
  await withKv(async (kv) => {
    const demo = await seedIfEmpty(kv);
    assert.ok(demo !== null);
    assert.equal(demo.created, true);
    assert.match(demo.publishableKey, /^pk_[0-9A-Za-z]{24}$/);
    assert.equal(demo.path, `/${demo.domains[0]}?token=${demo.publishableKey}`);
    const key = await new KeyStore(kv).byPublishableKey(demo.publishableKey);
    assert.equal(key?.id, demo.keyId);
    assert.deepEqual(key?.allow, [], "the demo key works from any page");
    const logos = new LogoStore(kv);
    assert.ok(demo.domains.length >= 2);
    for (const domain of demo.domains) {
      const record = await logos.get(domain);
      assert.ok(record !== null, domain);
      assert.equal(record.source, "demo");
      const bytes = await logos.readRendition(record.renditions.default);
      assert.ok(bytes !== null);
      assert.equal(await sha256Hex(bytes), record.renditions.default.hash);
      assert.equal(record.renditions.default.width, 128);
    }
  });
});

Deno.test("seedIfEmpty makes a different random key in every store", async () => {
  const keys = new Set<string>();
  for (let i = 0; i < 2; i++) {
    await withKv(async (kv) => {
      keys.add((await seedIfEmpty(kv))!.publishableKey);
    });
  }
  assert.equal(keys.size, 2);
});

Deno.test("seedIfEmpty on a seeded store creates nothing and returns the same demo", async () => {
  await withKv(async (kv) => {
    const first = await seedIfEmpty(kv);
    const second = await seedIfEmpty(kv);
    assert.equal(second?.created, false);
    assert.equal(second?.publishableKey, first?.publishableKey);
    assert.equal((await new KeyStore(kv).list()).length, 1);
  });
});

Deno.test("seedIfEmpty leaves a store with the operator's own keys alone", async () => {
  await withKv(async (kv) => {
    await new KeyStore(kv).create();
    assert.equal(await seedIfEmpty(kv), null);
    assert.equal(await new LogoStore(kv).isEmpty(), true);
    assert.equal((await new KeyStore(kv).list()).length, 1);
  });
});

Deno.test("seedIfEmpty returns null once the demo key is revoked", async () => {
  await withKv(async (kv) => {
    const demo = await seedIfEmpty(kv);
    await new KeyStore(kv).revoke(demo!.keyId);
    assert.equal(await seedIfEmpty(kv), null);
  });
});

Deno.test("seedIfEmpty run twice at once leaves exactly one live demo key", async () => {
  await withKv(async (kv) => {
    const [a, b] = await Promise.all([seedIfEmpty(kv), seedIfEmpty(kv)]);
    assert.equal(a?.publishableKey, b?.publishableKey);
    const live = (await new KeyStore(kv).list()).filter((k) => !k.revoked);
    assert.equal(live.length, 1);
    assert.equal(live[0].publishableKey, a?.publishableKey);
  });
});
