/**
 * Backup archives and wordmarks: an archive carries each logo's type (`logoType`), and a round trip
 * restores icons and wordmarks each to its own record, serving the same bytes; a version-1 archive
 * (no `logoType`) still imports, as icons; a line's type is checked (an unknown one refused, a
 * wordmark's wide vector source refused as an icon's).
 */
import assert from "node:assert/strict";
import { ArchiveError } from "../../src/store/archive_format.ts";
import { importArchive } from "../../src/store/archive_import.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { flatImage } from "../support/images.ts";
import { archiveLines, archiveOf, dump, opener, sealArchive } from "../support/archives.ts";
import { widePng, wideSvg } from "../support/wordmarks.ts";

async function withStores(fn: (source: Deno.Kv, target: Deno.Kv) => Promise<void>) {
  const source = await Deno.openKv(":memory:");
  const target = await Deno.openKv(":memory:");
  try {
    const logos = new LogoStore(source);
    await logos.put("acme.test", flatImage(64, 64, [200, 30, 30, 255]), { source: "file:a.png" });
    await logos.put("acme.test", wideSvg(200, 50), { source: "file:a.svg", type: "logo" });
    // A wordmark alone, sharing nothing; and a domain whose icon and wordmark are the same bytes.
    await logos.put("wide.test", widePng(900, 300), {
      source: "https://wide.test/w",
      type: "logo",
    });
    await logos.put("same.test", widePng(400, 100), { source: "x" });
    await logos.put("same.test", widePng(400, 100), { source: "x", type: "logo" });
    await fn(source, target);
  } finally {
    source.close();
    target.close();
  }
}

Deno.test("archive: icons and wordmarks round-trip, each line saying its type", async () => {
  await withStores(async (source, target) => {
    const archive = await archiveOf(source);
    const lines = (await archiveLines(archive)).map((line) => JSON.parse(line));
    assert.equal(lines[0].version, 2);
    const logoLines = lines.filter((l) => l.type === "logo");
    assert.deepEqual(logoLines.map((l) => [l.record.domain, l.logoType]), [
      ["acme.test", "icon"],
      ["same.test", "icon"],
      ["acme.test", "logo"],
      ["same.test", "logo"],
      ["wide.test", "logo"],
    ]);
    assert.equal(lines.at(-1).logos, 5, "the trailer counts both types");

    const result = await importArchive(target, opener(archive), { replace: false });
    assert.deepEqual(result.logos, { added: 5, replaced: 0, unchanged: 0 });
    const records = async (kv: Deno.Kv) =>
      (await dump(kv)).filter(([key]) => key[0] === "logos" || key[0] === "wordmarks");
    assert.deepEqual(await records(target), await records(source));
    const logos = new LogoStore(target);
    const wide = (await logos.get("acme.test", "logo"))!;
    assert.equal(wide.renditions.source.width, 1200);
    assert.notEqual(await logos.readRendition(wide.renditions.source), null);
    const blobs = async (kv: Deno.Kv) =>
      (await dump(kv)).filter(([key]) => key[0] === "blobs").map(([key, value]) => [key, value]);
    assert.deepEqual(await blobs(target), await blobs(source), "shared images counted as before");

    // Again: everything is unchanged.
    const again = await importArchive(target, opener(archive), { replace: false });
    assert.deepEqual(again.logos, { added: 0, replaced: 0, unchanged: 5 });
  });
});

Deno.test("archive: a version-1 archive, without logoType, imports its logos as icons", async () => {
  await withStores(async (source, target) => {
    const lines = (await archiveLines(await archiveOf(source))).map((line) => JSON.parse(line));
    const v1 = lines
      .filter((l) => l.type !== "logo" || l.logoType === "icon")
      .map((l) => {
        if (l.type === "logo-lookup-archive") return { ...l, version: 1 };
        const { logoType: _, ...rest } = l;
        return rest;
      });
    assert.ok(v1.every((l) => !("logoType" in l)));
    const result = await importArchive(
      target,
      opener(await sealArchive(v1.map((l) => JSON.stringify(l)))),
      { replace: false },
    );
    assert.deepEqual(result.logos, { added: 2, replaced: 0, unchanged: 0 });
    const logos = new LogoStore(target);
    assert.deepEqual(
      (await Array.fromAsync(logos.list())).map((r) => r.domain),
      ["acme.test", "same.test"],
    );
    assert.deepEqual(await Array.fromAsync(logos.list("logo")), []);
  });
});

Deno.test("archive: a line's type is checked before anything is written", async () => {
  await withStores(async (source, target) => {
    const lines = await archiveLines(await archiveOf(source));
    const edit = async (change: (logo: Record<string, unknown>) => void) => {
      const edited = lines.flatMap((line) => {
        const value = JSON.parse(line);
        if (value.type !== "logo" || value.record.domain !== "acme.test") return [line];
        // acme.test's icon line left out, so its wordmark line is the domain's one logo line.
        if (value.logoType === "icon") return [];
        change(value);
        return [JSON.stringify(value)];
      });
      return opener(await sealArchive(edited));
    };
    assert.deepEqual(
      (await importArchive(target, await edit(() => {}), { replace: true })).logos.added,
      4,
      "the edit alone is a sound archive",
    );
    await new LogoStore(target).remove("acme.test", "logo");
    const before = await dump(target);
    await assert.rejects(
      importArchive(target, await edit((l) => (l.logoType = "symbol")), { replace: false }),
      (e: unknown) =>
        e instanceof ArchiveError && /logoType "symbol" must be icon or logo/.test(e.message),
    );
    // The SVG wordmark's 1200-px source is not what logo add makes for an icon of that SVG.
    await assert.rejects(
      importArchive(target, await edit((l) => (l.logoType = "icon")), { replace: false }),
      (e: unknown) => e instanceof ArchiveError && /at most 200 px wide/.test(e.message),
    );
    assert.deepEqual(await dump(target), before, "nothing written");
  });
});
