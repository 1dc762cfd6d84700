/**
 * Backup archives' images (issue 30, defect 5): an import checks them as strictly as `logo add`
 * makes them — decoded by imagecore, at the size the record says, in the renditions and sizes of
 * the recipe — and one bad image refuses the whole archive, naming its line and logo, with the
 * store unchanged.
 */
import assert from "node:assert/strict";
import { transform } from "../../imagecore/mod.ts";
import { ArchiveError } from "../../src/store/archive_format.ts";
import { outputSize } from "../../src/store/archive_images.ts";
import { importArchive } from "../../src/store/archive_import.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import {
  archiveLines,
  archiveOf,
  DOMAINS,
  dump,
  fillStore,
  opener,
  sealArchive,
  withRendition,
} from "../support/archives.ts";
import { flatImage, pngHeaderOnly } from "../support/images.ts";

/** The lines of the archive of a {@link fillStore} store, and the line of `DOMAINS[1]`. */
async function filledArchive(): Promise<{ lines: string[]; at: number }> {
  const source = await Deno.openKv(":memory:");
  try {
    await fillStore(source);
    const lines = await archiveLines(await archiveOf(source));
    return { lines, at: lines.findIndex((l) => l.includes(`"domain":"${DOMAINS[1]}"`)) };
  } finally {
    source.close();
  }
}

/** Imports the archive of `lines` into an empty store expecting `message`; nothing written. */
async function assertRefused(lines: string[], message: RegExp): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await assert.rejects(importArchive(kv, opener(await sealArchive(lines)), { replace: false }), (
      error,
    ) => {
      assert.ok(error instanceof ArchiveError, String(error));
      assert.match(error.message, message);
      return true;
    });
    assert.deepEqual(await dump(kv), [], "the whole archive refused: nothing written");
  } finally {
    kv.close();
  }
}

Deno.test("archive: an image with a PNG header and no pixels is refused, naming its line and logo", async () => {
  const { lines, at } = await filledArchive();
  const { width, height } = JSON.parse(lines[at]).record.renditions.source;
  lines[at] = await withRendition(lines[at], "source", pngHeaderOnly(width, height));
  await assertRefused(
    lines,
    new RegExp(
      `^Cannot import archive: line ${at + 1} \\(logo blue\\.example\\.com\\): the source image ` +
        `is not a valid PNG \\(Cannot decode image: .+\\)$`,
    ),
  );
});

Deno.test("archive: renditions not of the sizes and names logo add makes are refused", async () => {
  const { lines, at } = await filledArchive();
  const record = JSON.parse(lines[at]).record;
  assert.deepEqual(record.renditions.source, { ...record.renditions.source, width: 300 });
  // A valid PNG of the size its record says, but not the 128-px default the server sends as is.
  const big = flatImage(300, 120, [0, 0, 0, 255]);
  await assertRefused(
    lines.with(at, await withRendition(lines[at], "default", big, { width: 300, height: 120 })),
    /line 6 \(logo blue\.example\.com\): the default image is 300×120, but logo add makes it 128×51 from the 300×120 source image/,
  );
  const extra = JSON.parse(lines[at]);
  extra.record.renditions.huge = extra.record.renditions.source;
  await assertRefused(
    lines.with(at, JSON.stringify(extra)),
    /line 6 \(logo blue\.example\.com\): rendition "huge" is not one logo add makes/,
  );
  const upscaled = JSON.parse(lines[at]);
  upscaled.record.width = 200;
  await assertRefused(
    lines.with(at, JSON.stringify(upscaled)),
    /the source image is 300×120, but logo add makes it at most 200 px wide/,
  );
});

Deno.test("archive: a recipe-1 record with its mid rendition is imported", async () => {
  const { lines, at } = await filledArchive();
  const logo = JSON.parse(lines[at]);
  const source = Uint8Array.fromBase64(logo.blobs[logo.record.renditions.source.hash]);
  const mid = transform(source, { width: 256 });
  logo.record.pipeline = 1;
  logo.record.renditions.mid = logo.record.renditions.default;
  const withMid = await withRendition(JSON.stringify(logo), "mid", mid.bytes, {
    width: mid.width,
    height: mid.height,
  });
  const kv = await Deno.openKv(":memory:");
  try {
    const archive = await sealArchive(lines.with(at, withMid));
    await importArchive(kv, opener(archive), { replace: false });
    const record = await new LogoStore(kv).get(DOMAINS[1]);
    assert.deepEqual(record?.renditions.mid?.width, 256);
  } finally {
    kv.close();
  }
});

Deno.test("archive: an image changed between the passes is not written", async () => {
  const { lines, at } = await filledArchive();
  const good = await sealArchive(lines);
  const { width, height } = JSON.parse(lines[at]).record.renditions.source;
  lines[at] = await withRendition(lines[at], "source", pngHeaderOnly(width, height));
  const crafted = await sealArchive(lines);
  let opened = 0;
  const open = () => Promise.resolve(ReadableStream.from([opened++ === 0 ? good : crafted]));
  const kv = await Deno.openKv(":memory:");
  try {
    await assert.rejects(
      importArchive(kv, open, { replace: false }),
      /Cannot read archive: the file changed during the import; import it again/,
    );
    assert.equal(await new LogoStore(kv).get(DOMAINS[1]), null);
  } finally {
    kv.close();
  }
});

Deno.test("archive: outputSize is imagecore's geometry", () => {
  assert.deepEqual(outputSize(300, 200, 100), { width: 100, height: 67 });
  assert.deepEqual(outputSize(100, 1000, 700), { width: 409, height: 4090 });
  assert.deepEqual(outputSize(120, 1200, 1200), { width: 409, height: 4090 });
  assert.deepEqual(outputSize(1, 9000, 128), { width: 1, height: 4096 });
  for (const [w, h, asked] of [[300, 120, 128], [1200, 7, 128], [64, 64, 128], [3, 7000, 64]]) {
    const png = flatImage(w, h, [1, 2, 3, 255]);
    const made = transform(png, { width: asked });
    assert.deepEqual(outputSize(w, h, asked), { width: made.width, height: made.height });
  }
});
