/**
 * A domain's wordmark (`type: "logo"`) in the logo store, beside its icon: its own record at
 * `["wordmarks", domain]` with its own source and renditions, the icon untouched; blobs shared and
 * counted across both; change marks on every write; a vector source stored wide enough for any
 * request, a raster one never upscaled.
 */
import assert from "node:assert/strict";
import { probe } from "../../imagecore/mod.ts";
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { blobManifestKey, LOGO_CHANGE_LOG_PREFIX, logoKey } from "../../src/store/keyspace.ts";
import { IN_PROCESS } from "../../src/store/logo_ingest.ts";
import { type LogoRecord, LogoStore, type LogoType } from "../../src/store/logo_store.ts";
import { sha256Hex } from "../../src/store/sha256.ts";
import { vectorSourceWidth } from "../../src/store/wordmark_ingest.ts";
import { logosOfType, type TypedLogoStore } from "../../src/store/typed_logo_store.ts";
import type { LogoSink } from "../../src/discovery/discover.ts";
import { flatImage } from "../support/images.ts";
import { widePng, wideSvg } from "../support/wordmarks.ts";

const NOW = 1_700_000_000_000;
const ICON = flatImage(200, 200, [200, 30, 30, 255]);

async function withStore(
  fn: (logos: LogoStore, kv: Deno.Kv, jobs: string[]) => Promise<void>,
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const jobs: string[] = [];
  // Counts imagecore jobs, so a skipped put is seen to run none.
  const imaging: ImageWork = {
    probe: (input) => (jobs.push("probe"), IN_PROCESS.probe(input)),
    transform: (input, options) => (jobs.push("transform"), IN_PROCESS.transform(input, options)),
    renditions: (
      input,
      options,
    ) => (jobs.push("renditions"), IN_PROCESS.renditions(input, options)),
  };
  try {
    let now = NOW;
    await fn(new LogoStore(kv, { clock: () => now++, imaging }), kv, jobs);
  } finally {
    kv.close();
  }
}

async function domainsOf(logos: LogoStore, type: LogoType): Promise<string[]> {
  return (await Array.fromAsync(logos.list(type))).map((record) => record.domain);
}

async function refsOf(kv: Deno.Kv, hash: string): Promise<number | null> {
  return (await kv.get<{ refs: number }>(blobManifestKey(hash))).value?.refs ?? null;
}

Deno.test("wordmark: stored beside the icon, each with its own source; the icon untouched", async () => {
  await withStore(async (logos, kv) => {
    const { record: icon } = await logos.put("acme.test", ICON, { source: "file:icon.png" });
    const svg = wideSvg(200, 50);
    const { record: wide, changed } = await logos.put("acme.test", svg, {
      source: "file:wordmark.svg",
      type: "logo",
    });
    assert.equal(changed, true);
    assert.deepEqual(
      [wide.domain, wide.type, wide.width, wide.height, wide.source, wide.hash],
      ["acme.test", "image/svg+xml", 200, 50, "file:wordmark.svg", await sha256Hex(svg)],
    );
    assert.deepEqual(await logos.get("acme.test"), icon, "the icon as it was");
    assert.deepEqual(await logos.get("acme.test", "icon"), icon);
    assert.deepEqual(await logos.get("acme.test", "logo"), wide);
    assert.deepEqual((await kv.get(logoKey("acme.test"))).value, icon, "icons stay at [logos, d]");
    assert.deepEqual(await domainsOf(logos, "icon"), ["acme.test"]);
    assert.deepEqual(await domainsOf(logos, "logo"), ["acme.test"]);
    // The default rendition is inside the record, as for an icon: one KV read serves it.
    assert.ok(wide.renditions.default.data instanceof Uint8Array);
    assert.deepEqual([wide.renditions.default.width, wide.renditions.default.height], [128, 32]);
  });
});

Deno.test("wordmark: an SVG is stored 1200 px wide, a raster at its width up to 1200, never upscaled", async () => {
  await withStore(async (logos) => {
    const sourceOf = async (domain: string, bytes: Uint8Array) => {
      const { record } = await logos.put(domain, bytes, { source: "test", type: "logo" });
      const source = record.renditions.source;
      const stored = probe((await logos.readRendition(source))!);
      assert.deepEqual([stored.format, stored.width, stored.height], [
        "png",
        source.width,
        source.height,
      ]);
      return [source.width, source.height];
    };
    assert.deepEqual(await sourceOf("svg.test", wideSvg(200, 50)), [1200, 300]);
    assert.deepEqual(await sourceOf("small.test", widePng(300, 75)), [300, 75], "not upscaled");
    assert.deepEqual(await sourceOf("big.test", widePng(1600, 400)), [1200, 300]);
    // A tall SVG: as wide as fits 4096 px of height.
    assert.equal(vectorSourceWidth(100, 800), 512);
    assert.deepEqual(await sourceOf("tall.test", wideSvg(100, 800)), [512, 4096]);
    // An icon SVG keeps the icon recipe: its declared width.
    const { record } = await logos.put("svg.test", wideSvg(200, 50), { source: "test" });
    assert.equal(record.renditions.source.width, 200);
  });
});

Deno.test("wordmark: the same bytes again write nothing and run no imagecore job", async () => {
  await withStore(async (logos, _kv, jobs) => {
    await logos.put("acme.test", wideSvg(200, 50), { source: "a", type: "logo" });
    assert.ok(jobs.length > 0);
    jobs.length = 0;
    const again = await logos.put("acme.test", wideSvg(200, 50), { source: "b", type: "logo" });
    assert.equal(again.changed, false);
    assert.equal(again.record.source, "a");
    assert.deepEqual(jobs, []);
  });
});

Deno.test("wordmark: removing one type keeps the other; shared images are counted per record", async () => {
  await withStore(async (logos, kv) => {
    // The same raster as icon and wordmark: the same renditions, stored once, referenced twice.
    const png = widePng(400, 100);
    const { record: icon } = await logos.put("acme.test", png, { source: "test" });
    const { record: wide } = await logos.put("acme.test", png, { source: "test", type: "logo" });
    const source = wide.renditions.source.hash;
    assert.equal(icon.renditions.source.hash, source);
    assert.equal(await refsOf(kv, source), 2);

    assert.equal(await logos.remove("acme.test", "logo"), true);
    assert.equal(await logos.get("acme.test", "logo"), null);
    assert.deepEqual(await logos.get("acme.test"), icon);
    assert.equal(await refsOf(kv, source), 1);
    assert.notEqual(await logos.readRendition(icon.renditions.source), null);
    assert.equal(await logos.remove("acme.test", "logo"), false, "nothing left to remove");
    assert.equal(await logos.isEmpty(), false);

    await logos.put("acme.test", png, { source: "test", type: "logo" });
    assert.equal(await logos.remove("acme.test"), true, "the icon");
    assert.equal(await logos.isEmpty(), false, "a wordmark alone is data");
    assert.equal(await logos.remove("acme.test", "logo"), true);
    assert.equal(await refsOf(kv, source), null, "collected with its last record");
    assert.equal(await logos.isEmpty(), true);
  });
});

Deno.test("wordmark: every write is marked in the change log under its domain", async () => {
  await withStore(async (logos, kv) => {
    const marked = async () =>
      (await Array.fromAsync(kv.list({ prefix: LOGO_CHANGE_LOG_PREFIX }))).map((e) => e.key[3]);
    await logos.put("acme.test", wideSvg(200, 50), { source: "test", type: "logo" });
    assert.deepEqual(await marked(), ["acme.test"]);
    await logos.rerender("acme.test", { type: "logo", all: true });
    assert.equal((await marked()).length, 2);
    await logos.remove("acme.test", "logo");
    assert.deepEqual(await marked(), ["acme.test", "acme.test", "acme.test"]);
  });
});

Deno.test("wordmark: rerender works from the stored wide source and keeps its width", async () => {
  await withStore(async (logos) => {
    const { record } = await logos.put("acme.test", wideSvg(200, 50), {
      source: "test",
      type: "logo",
    });
    assert.equal(await logos.rerender("acme.test", { type: "logo" }), "current");
    assert.equal(await logos.rerender("acme.test", { type: "logo", all: true }), "rerendered");
    const after = (await logos.get("acme.test", "logo")) as LogoRecord;
    assert.equal(after.renditions.source.width, 1200);
    assert.equal(after.renditions.source.hash, record.renditions.source.hash, "kept as stored");
    assert.equal(after.hash, record.hash);
    assert.equal(await logos.rerender("acme.test", { type: "icon" }), "missing", "no icon");
  });
});

Deno.test("wordmark: an unknown type is refused before anything is written", async () => {
  await withStore(async (logos) => {
    await assert.rejects(
      logos.put("acme.test", ICON, { source: "test", type: "symbol" as LogoType }),
      TypeError,
    );
    await assert.rejects(Array.fromAsync(logos.list("symbol" as LogoType)), TypeError);
    await assert.rejects(logos.get("acme.test", "symbol" as LogoType), TypeError);
    assert.equal(await logos.isEmpty(), true);
  });
});

Deno.test("wordmark: logosOfType gives the wordmarks with the icon store's call shapes", async () => {
  await withStore(async (logos) => {
    // Discovery's store interface takes it as it is: its wordmark path is its icon path.
    const wordmarks: LogoSink & TypedLogoStore = logosOfType(logos, "logo");
    assert.equal(wordmarks.type, "logo");
    const { record } = await wordmarks.put("acme.test", wideSvg(200, 50), {
      source: "https://acme.test/logo.svg",
    });
    assert.deepEqual(await wordmarks.get("acme.test"), record);
    assert.deepEqual(await logos.get("acme.test", "logo"), record);
    assert.equal(await logos.get("acme.test"), null, "not an icon");
    assert.equal(await logosOfType(logos, "icon").get("acme.test"), null);
    assert.equal(await wordmarks.remove("acme.test"), true);
    assert.equal(await logos.get("acme.test", "logo"), null);
    assert.throws(() => logosOfType(logos, "symbol" as LogoType), TypeError);
  });
});
