/**
 * The sanitised SVG rendition (`SVG_RENDITION`, recipe 3) through the store's life: made by `put`
 * from an SVG source only, kept (sanitised again) by `logo rerender`, absent from a recipe-2
 * record until a new `put` of the same bytes, and carried by archive export/import — where an
 * archive whose `svg` is not a sanitised document (a script put back in) is refused whole.
 */
import assert from "node:assert/strict";
import { ArchiveError } from "../../src/store/archive_format.ts";
import { importArchive } from "../../src/store/archive_import.ts";
import { PIPELINE_VERSION, SVG_RENDITION } from "../../src/store/logo_ingest.ts";
import { type LogoRecord, LogoStore } from "../../src/store/logo_store.ts";
import { logoKey } from "../../src/store/keyspace.ts";
import { checkSanitizedSvg } from "../../imagecore/mod.ts";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { flatImage } from "../support/images.ts";
import {
  archiveLines,
  archiveOf,
  dump,
  opener,
  sealArchive,
  withRendition,
} from "../support/archives.ts";

const encoder = new TextEncoder();
const SVG = encoder.encode(
  `<svg xmlns="http://www.w3.org/2000/svg" width="90" height="30" onload="alert(1)">` +
    `<rect width="90" height="30" fill="#1e88e5"/><circle cx="15" cy="15" r="10" fill="#fff"/></svg>`,
);

async function withStore(fn: (kv: Deno.Kv, logos: LogoStore) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv, new LogoStore(kv));
  } finally {
    kv.close();
  }
}

Deno.test("svg rendition: put stores one for an SVG source only, at the source's size", async () => {
  await withStore(async (_, logos) => {
    const { record } = await logos.put("svg.example", SVG, { source: "test" });
    assert.equal(record.pipeline, PIPELINE_VERSION);
    const svg = record.renditions[SVG_RENDITION];
    assert.deepEqual([svg.type, svg.width, svg.height], ["image/svg+xml", 90, 30]);
    const bytes = (await logos.readRendition(svg))!;
    assert.equal(checkSanitizedSvg(bytes).width, 90);
    assert.doesNotMatch(new TextDecoder().decode(bytes), /onload/);
    const raster = await logos.put("png.example", flatImage(40, 20, [1, 2, 3, 255]), {
      source: "test",
    });
    assert.equal(raster.record.renditions[SVG_RENDITION], undefined);
  });
});

Deno.test("svg rendition: rerender keeps it, sanitised again; a recipe-2 record gets one from a new put", async () => {
  await withStore(async (kv, logos) => {
    const { record } = await logos.put("svg.example", SVG, { source: "test" });
    assert.equal(await logos.rerender("svg.example", { all: true }), "rerendered");
    const again = (await logos.get("svg.example"))!;
    const svg = again.renditions[SVG_RENDITION];
    assert.ok(svg !== undefined, "kept");
    assert.equal(checkSanitizedSvg((await logos.readRendition(svg))!).height, 30);
    assert.equal(svg.width, record.renditions[SVG_RENDITION].width);

    // A record as recipe 2 made it: no svg rendition.
    const { [SVG_RENDITION]: _, ...older } = again.renditions;
    const recipeTwo: LogoRecord = { ...again, pipeline: 2, renditions: older };
    await kv.set(logoKey("svg.example"), recipeTwo);
    assert.equal(await logos.rerender("svg.example"), "rerendered");
    const rerendered = (await logos.get("svg.example"))!;
    assert.equal(rerendered.renditions[SVG_RENDITION], undefined, "its source PNG has no SVG");
    assert.equal(rerendered.pipeline, PIPELINE_VERSION);
    // The original SVG put again, even now that the record is of the current recipe: re-ingested.
    const put = await logos.put("svg.example", SVG, { source: "test" });
    assert.equal(put.changed, true);
    assert.ok(put.record.renditions[SVG_RENDITION] !== undefined);
  });
});

Deno.test("svg rendition: an archive round trip carries it, byte for byte", async () => {
  await withStore(async (source, logos) => {
    await logos.put("svg.example", SVG, { source: "test" });
    const target = await Deno.openKv(":memory:");
    try {
      const result = await importArchive(target, opener(await archiveOf(source)), {
        replace: false,
      });
      assert.equal(result.logos.added, 1);
      const to = new LogoStore(target);
      const record = (await to.get("svg.example"))!;
      assert.deepEqual(record, await logos.get("svg.example"));
      const svg = record.renditions[SVG_RENDITION];
      assert.deepEqual(await to.readRendition(svg), await logos.readRendition(svg));
    } finally {
      target.close();
    }
  });
});

/** Imports the archive of `lines` into an empty store expecting `message`; nothing written. */
async function assertRefused(lines: string[], message: RegExp): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await assert.rejects(
      importArchive(kv, opener(await sealArchive(lines)), { replace: false }),
      (error) => {
        assert.ok(error instanceof ArchiveError, String(error));
        assert.match(error.message, message);
        return true;
      },
    );
    assert.deepEqual(await dump(kv), [], "nothing written");
  } finally {
    kv.close();
  }
}

Deno.test("svg rendition: an archive whose svg is not a sanitised document is refused", async () => {
  await withStore(async (source, logos) => {
    await logos.put("svg.example", SVG, { source: "test" });
    await logos.put("png.example", flatImage(40, 20, [1, 2, 3, 255]), { source: "test" });
    const lines = await archiveLines(await archiveOf(source));
    const at = lines.findIndex((line) => line.includes(`"domain":"svg.example"`));
    const hostile = (body: string) =>
      encoder.encode(
        `<svg viewBox="0 0 90 30" width="90" height="30" xmlns="http://www.w3.org/2000/svg">${body}</svg>`,
      );
    for (
      const [bytes, message] of [
        [hostile(`<script>alert(1)</script>`), /svg image is not a sanitised SVG.*<script>/],
        [hostile(`<path d="M0 0H9V9z" onclick="alert(1)"/>`), /attribute onclick/],
        [hostile(`<g><a href="javascript:alert(1)"/></g>`), /element <a>/],
        [
          encoder.encode(`<svg xmlns="http://www.w3.org/2000/svg" width="90" height="30"/>`),
          /not a sanitised SVG/,
        ],
        [flatImage(90, 30, [0, 0, 0, 255]), /not a sanitised SVG/],
      ] as const
    ) {
      const edited = [...lines];
      edited[at] = await withRendition(lines[at], SVG_RENDITION, bytes);
      await assertRefused(edited, message);
    }
    // At another size than the source's.
    const resized = [...lines];
    resized[at] = await withRendition(lines[at], SVG_RENDITION, hostile(""), { width: 91 });
    await assertRefused(resized, /svg image is 91×30, not the 90×30 source/);
    // On a raster logo.
    const png = lines.findIndex((line) => line.includes(`"domain":"png.example"`));
    const onRaster = JSON.parse(lines[png]);
    const svgLine = JSON.parse(lines[at]);
    onRaster.record.renditions[SVG_RENDITION] = svgLine.record.renditions[SVG_RENDITION];
    const hash = svgLine.record.renditions[SVG_RENDITION].hash;
    onRaster.blobs[hash] = svgLine.blobs[hash];
    const withSvg = [...lines];
    withSvg[png] = JSON.stringify(onRaster);
    await assertRefused(withSvg, /made from SVG sources only/);
  });
});

Deno.test("svg rendition: made in the image pool's worker, as discovery and logo add run it", async () => {
  await using pool = startImagePool({ size: 1 });
  await withStore(async (_, inProcess) => {
    const kv = await Deno.openKv(":memory:");
    try {
      const pooled = new LogoStore(kv, { imaging: pool });
      const { record } = await pooled.put("svg.example", SVG, { source: "test" });
      const expected = (await inProcess.put("svg.example", SVG, { source: "test" })).record;
      assert.deepEqual(record.renditions[SVG_RENDITION], expected.renditions[SVG_RENDITION]);
      assert.equal(await pooled.rerender("svg.example", { all: true }), "rerendered");
      assert.ok((await pooled.get("svg.example"))!.renditions[SVG_RENDITION] !== undefined);
    } finally {
      kv.close();
    }
  });
});
