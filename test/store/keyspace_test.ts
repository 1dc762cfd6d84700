/**
 * The KV layout is on disk in every existing store: these tests pin it. A change to a key shape
 * in `src/store/keyspace.ts` fails here, and so does a key written by a module that does not go
 * through it.
 */
import assert from "node:assert/strict";
import { recordFound } from "../../src/discovery/found_memory.ts";
import { rememberFailure } from "../../src/discovery/failure_memory.ts";
import { recordWordmark } from "../../src/discovery/wordmark_memory.ts";
import { createRateLimiter } from "../../src/limits/rate_limiter.ts";
import { seedIfEmpty } from "../../src/store/seed.ts";
import {
  API_KEYS_PREFIX,
  apiKeyKey,
  BLOB_MANIFESTS_PREFIX,
  blobChunkKey,
  blobChunksPrefix,
  blobManifestKey,
  DEMO_KEY,
  DISCOVERY_FOUND_PREFIX,
  DISCOVERY_WORDMARK_PREFIX,
  discoveryFoundKey,
  discoveryMissingKey,
  discoveryWordmarkKey,
  IMPORT_KEY,
  INITIALIZED_KEY,
  LOGO_CHANGE_COUNT_KEY,
  LOGO_CHANGE_LOG_PREFIX,
  logoChangeKey,
  logoKey,
  logoRecordKey,
  logoRecordsPrefix,
  LOGOS_PREFIX,
  PREFIX,
  publishableIndexKey,
  rateLimitKey,
  secretIndexKey,
  wordmarkKey,
  WORDMARKS_PREFIX,
} from "../../src/store/keyspace.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { type LogoRecord, LogoStore } from "../../src/store/logo_store.ts";
import { wideSvg } from "../support/wordmarks.ts";
import { writeMarker } from "../../src/store/archive_import.ts";

const HASH = "ab".repeat(32);

Deno.test("keyspace: every key shape is the literal on-disk layout", () => {
  assert.deepEqual(apiKeyKey("id1"), ["keys", "id1"]);
  assert.deepEqual(API_KEYS_PREFIX, ["keys"]);
  assert.deepEqual(publishableIndexKey(HASH), ["key_by_pk", HASH]);
  assert.deepEqual(secretIndexKey(HASH), ["key_by_sk", HASH]);
  assert.deepEqual(logoKey("example.com"), ["logos", "example.com"]);
  assert.deepEqual(LOGOS_PREFIX, ["logos"]);
  assert.deepEqual(wordmarkKey("example.com"), ["wordmarks", "example.com"]);
  assert.deepEqual(WORDMARKS_PREFIX, ["wordmarks"]);
  assert.deepEqual(logoRecordKey("icon", "example.com"), ["logos", "example.com"]);
  assert.deepEqual(logoRecordKey("logo", "example.com"), ["wordmarks", "example.com"]);
  assert.deepEqual(logoRecordsPrefix("icon"), ["logos"]);
  assert.deepEqual(logoRecordsPrefix("logo"), ["wordmarks"]);
  assert.deepEqual(blobManifestKey(HASH), ["blobs", HASH]);
  assert.deepEqual(BLOB_MANIFESTS_PREFIX, ["blobs"]);
  assert.deepEqual(blobChunksPrefix(HASH), ["blob_chunks", HASH]);
  assert.deepEqual(blobChunkKey(HASH, 3), ["blob_chunks", HASH, 3]);
  assert.deepEqual(rateLimitKey("key1", 60, 29_000_000), ["rate_limit", "key1", 60, 29_000_000]);
  assert.deepEqual(discoveryFoundKey("acme.test"), ["discovery", "found", "acme.test"]);
  assert.deepEqual(DISCOVERY_FOUND_PREFIX, ["discovery", "found"]);
  assert.deepEqual(discoveryMissingKey("acme.test"), ["discovery", "missing", "acme.test"]);
  assert.deepEqual(discoveryWordmarkKey("acme.test"), ["discovery", "wordmark", "acme.test"]);
  assert.deepEqual(DISCOVERY_WORDMARK_PREFIX, ["discovery", "wordmark"]);
  assert.deepEqual(DEMO_KEY, ["meta", "demo"]);
  assert.deepEqual(INITIALIZED_KEY, ["meta", "initialized"]);
  assert.deepEqual(IMPORT_KEY, ["meta", "import"]);
  assert.deepEqual(LOGO_CHANGE_COUNT_KEY, ["changes", "logos"]);
  assert.deepEqual(LOGO_CHANGE_LOG_PREFIX, ["changes", "log"]);
  assert.deepEqual(logoChangeKey(1_750_000_000_000, "acme.test"), [
    "changes",
    "log",
    1_750_000_000_000,
    "acme.test",
  ]);
  assert.deepEqual({ ...PREFIX }, {
    apiKey: "keys",
    publishableIndex: "key_by_pk",
    secretIndex: "key_by_sk",
    logo: "logos",
    wordmark: "wordmarks",
    blobManifest: "blobs",
    blobChunk: "blob_chunks",
    rateLimit: "rate_limit",
    discovery: "discovery",
    meta: "meta",
    changes: "changes",
  });
});

Deno.test("keyspace: shared prefixes cannot be mutated by a caller", () => {
  for (
    const prefix of [
      API_KEYS_PREFIX,
      LOGOS_PREFIX,
      WORDMARKS_PREFIX,
      DEMO_KEY,
      INITIALIZED_KEY,
      IMPORT_KEY,
      LOGO_CHANGE_COUNT_KEY,
      LOGO_CHANGE_LOG_PREFIX,
    ]
  ) {
    assert.throws(() => (prefix as unknown[]).push("x"), TypeError);
  }
});

const isString = (part: unknown) => typeof part === "string" && part !== "";
const isHash = (part: unknown) => typeof part === "string" && /^[0-9a-f]{64}$/.test(part);
const isIndex = (part: unknown) => typeof part === "number" && Number.isInteger(part) && part >= 0;

/**
 * The layout of the module doc's table, by the key as the table writes it, checked literally
 * (not built from keyspace.ts).
 */
const LAYOUT: Record<string, (key: Deno.KvKey) => boolean> = {
  '["keys", id]': (k) => k.length === 2 && k[0] === "keys" && isString(k[1]),
  '["key_by_pk", sha256(pk)]': (k) => k.length === 2 && k[0] === "key_by_pk" && isHash(k[1]),
  '["key_by_sk", sha256(sk)]': (k) => k.length === 2 && k[0] === "key_by_sk" && isHash(k[1]),
  '["logos", domain]': (k) => k.length === 2 && k[0] === "logos" && isString(k[1]),
  '["wordmarks", domain]': (k) => k.length === 2 && k[0] === "wordmarks" && isString(k[1]),
  '["blobs", sha256]': (k) => k.length === 2 && k[0] === "blobs" && isHash(k[1]),
  '["blob_chunks", sha256, i]': (k) =>
    k.length === 3 && k[0] === "blob_chunks" && isHash(k[1]) && isIndex(k[2]),
  '["rate_limit", keyId, windowSeconds, windowIndex]': (k) =>
    k.length === 4 && k[0] === "rate_limit" && isString(k[1]) && isIndex(k[2]) && isIndex(k[3]),
  '["discovery", "found", domain]': (k) =>
    k.length === 3 && k[0] === "discovery" && k[1] === "found" && isString(k[2]),
  '["discovery", "missing", domain]': (k) =>
    k.length === 3 && k[0] === "discovery" && k[1] === "missing" && isString(k[2]),
  '["discovery", "wordmark", domain]': (k) =>
    k.length === 3 && k[0] === "discovery" && k[1] === "wordmark" && isString(k[2]),
  '["changes", "logos"]': (k) => k.length === 2 && k[0] === "changes" && k[1] === "logos",
  '["changes", "log", ms, domain]': (k) =>
    k.length === 4 && k[0] === "changes" && k[1] === "log" && isIndex(k[2]) && isString(k[3]),
  '["meta", "demo"]': (k) => k.length === 2 && k[0] === "meta" && k[1] === "demo",
  '["meta", "initialized"]': (k) => k.length === 2 && k[0] === "meta" && k[1] === "initialized",
  '["meta", "import"]': (k) => k.length === 2 && k[0] === "meta" && k[1] === "import",
};

Deno.test("keyspace: a store filled by the real modules holds exactly the layout's shapes", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const now = 1_750_000_000_000;
    const clock = () => now;
    // Keys, logos, blobs, chunks and both meta records, as on a first start.
    assert.notEqual(await seedIfEmpty(kv, { clock, log: () => {} }), null);
    const keys = new KeyStore(kv, { clock });
    const { key } = await keys.create({ plan: "pro" });
    const limiter = createRateLimiter({ kv, clock, instanceId: "test" });
    assert.equal((await limiter.take(key.id, 100, 60)).allowed, true);
    await limiter.close();
    await rememberFailure(kv, "gone.test", "no-icon", now, "answered; no icon declared");
    await recordFound(kv, "acme.test", {
      at: now,
      score: 1,
      source: "https://acme.test/i.svg",
      hash: HASH,
    });
    await recordWordmark(kv, "acme.test", { at: now, until: now + 1 });
    // A wordmark beside the seeded icons.
    await new LogoStore(kv, { clock }).put("example.com", wideSvg(200, 50), {
      source: "test",
      type: "logo",
    });
    // The marker of an archive import under way.
    await writeMarker(kv, { sha256: HASH, startedAt: now, keys: 1, logos: 0 });

    const seen = new Set<string>();
    const records = [
      ...await Array.fromAsync(kv.list<LogoRecord>({ prefix: LOGOS_PREFIX })),
      ...await Array.fromAsync(kv.list<LogoRecord>({ prefix: WORDMARKS_PREFIX })),
    ];
    for (const entry of records) {
      // The value of `["logos", domain]`: the record, with the default rendition's bytes inside.
      const { data, ...rendition } = entry.value.renditions.default;
      assert.ok(data instanceof Uint8Array && data.length === rendition.bytes, "default inside");
      for (const [name, other] of Object.entries(entry.value.renditions)) {
        if (name !== "default") assert.equal(other.data, undefined, `${name} is a blob`);
      }
    }
    for await (const entry of kv.list({ prefix: [] })) {
      const shapes = Object.entries(LAYOUT).filter(([, matches]) => matches(entry.key));
      assert.equal(shapes.length, 1, `key ${JSON.stringify(entry.key)} is not in the layout`);
      seen.add(shapes[0][0]);
    }
    assert.deepEqual([...seen].sort(), Object.keys(LAYOUT).sort());
  } finally {
    kv.close();
  }
});

Deno.test("keyspace: the module doc's table names every key shape", async () => {
  const source = await Deno.readTextFile(new URL("../../src/store/keyspace.ts", import.meta.url));
  const table = source.split("\n").filter((line) => line.startsWith(" * | `["));
  for (const shape of Object.keys(LAYOUT)) {
    assert.ok(table.some((row) => row.startsWith(` * | \`${shape}\` |`)), `no row for ${shape}`);
  }
  assert.equal(table.length, Object.keys(LAYOUT).length);
});

Deno.test("keyspace: no other module writes a key literal of the layout", async () => {
  const literal = new RegExp(
    String.raw`\[\s*"(${Object.values(PREFIX).join("|")})"\s*[,\]]`,
  );
  const offenders: string[] = [];
  const root = new URL("../../src/", import.meta.url);
  async function scan(dir: URL): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await scan(url);
      else if (entry.name.endsWith(".ts") && !url.pathname.endsWith("/store/keyspace.ts")) {
        const lines = (await Deno.readTextFile(url)).split("\n");
        lines.forEach((line, i) => {
          // Doc comments may show a key; code must build it through keyspace.ts.
          if (!/^\s*(\/?\*|\/\/)/.test(line) && literal.test(line)) {
            offenders.push(`${url.pathname.slice(root.pathname.length)}:${i + 1}: ${line.trim()}`);
          }
        });
      }
    }
  }
  await scan(root);
  assert.deepEqual(offenders, []);
});
