/**
 * The images of a backup archive's logos, checked as strictly as `logo add` makes them before an
 * import writes anything (`archive_import.ts`, pass 1). The reader (`archive_format.ts`) has
 * checked each image's SHA-256 and PNG header; here:
 *
 * - **the recipe** ({@link checkRecipe}): the record's renditions are those `logo add` makes with
 *   its recipe (`logo_ingest.ts`: `source` at most 1200 px wide and never upscaled, `default` 128
 *   px wide from it, and for recipe 1 a 256-px `mid` when the source is wider; a wordmark's SVG
 *   source up to 1200 px wide whatever its declared width, `wordmark_ingest.ts`), each with the size
 *   imagecore gives them (`geometry.rs`: height = round(width × H / W), at most 4096 px); from
 *   recipe 3 an SVG source's record may also hold `svg`, its sanitised SVG at the source's size;
 * - **the pixels** ({@link ArchiveImages.verify}): imagecore decodes every image — in `imaging`,
 *   an image pool's worker for an operator's file, bounded in time and memory like `logo add` —
 *   and it must be a PNG whose decoded size is the record's. A server renders other sizes from
 *   these images, so an image that does not decode would otherwise be a `500` when served. An
 *   `svg` must be a document imagecore's sanitiser could have written (`checkSanitizedSvg`: its
 *   budgets, its size cap and the writer's allow list), at the record's size: it is served to
 *   browsers as it is, so an archive cannot carry a script in one.
 *
 * Pass 2 reads the file again: {@link ArchiveImages.verified} makes sure each image it writes is
 * one pass 1 decoded, at the size pass 1 saw.
 *
 * @example
 * ```ts
 * import { ArchiveImages } from "./archive_images.ts";
 * import { readArchive } from "./archive_reader.ts";
 * const images = new ArchiveImages();
 * const file = await Deno.open("backup.ndjson.gz");
 * for await (const { entry, line } of readArchive(file.readable)) {
 *   if (entry.type === "logo") await images.verify(entry, line); // throws ArchiveError
 * }
 * ```
 * @module
 */
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { ImageCoreError, LIMITS, type RenditionsResult } from "../../imagecore/mod.ts";
import { outputSize } from "../../imagecore/output_size.ts";
import { CONTENT_TYPES } from "../sdk/logo_options.ts";
import { ArchiveError } from "./archive_records.ts";
import {
  DEFAULT_WIDTH,
  IN_PROCESS,
  PIPELINE_VERSION,
  SOURCE_MAX_WIDTH,
  SOURCE_MIME,
  SVG_RENDITION,
} from "./logo_ingest.ts";
import type { LogoRecord, LogoType, Rendition } from "./logo_store.ts";
import { wordmarkSourceBound } from "./wordmark_ingest.ts";

/** Width of recipe 1's `mid` rendition, made when the source was wider (recipe 2 makes none). */
export const MID_WIDTH = 256;

/** A logo entry of an archive: its record and its images by hash. */
export interface LogoEntry {
  /** The record. */
  record: LogoRecord;
  /** The bytes of its renditions, by SHA-256. */
  blobs: ReadonlyMap<string, Uint8Array>;
  /** Which of the domain's images: the `icon` (default) or the wordmark (`logo`). */
  logoType?: LogoType;
}

export { outputSize };

/**
 * Checks that `record`'s renditions are those `logo add` makes (see the module documentation).
 * `at` names the entry, e.g. "line 6 (logo acme.com)".
 *
 * @throws {ArchiveError} "Cannot import archive: line 6 (logo acme.com): …".
 */
export function checkRecipe(record: LogoRecord, at: string, type: LogoType = "icon"): void {
  const refuse = (why: string) => new ArchiveError(`${at}: ${why}`, "import");
  if (record.pipeline < 1 || record.pipeline > PIPELINE_VERSION) {
    throw refuse(
      `recipe ${record.pipeline} is not one this version makes (1 to ${PIPELINE_VERSION})`,
    );
  }
  if (!Object.values(SOURCE_MIME).includes(record.type)) {
    throw refuse(`its source type "${record.type}" is not one logo add takes`);
  }
  const { source, default: small, [SVG_RENDITION]: svg, ...others } = record.renditions;
  if (source === undefined) throw refuse("it has no source image");
  for (const [name, rendition] of Object.entries(record.renditions)) {
    if (rendition === svg) continue;
    if (rendition.type !== CONTENT_TYPES.png) throw refuse(`the ${name} image is not a PNG`);
  }
  if (svg !== undefined) checkSvgRecipe(record, svg, refuse);
  const widest = type === "logo"
    ? wordmarkSourceBound(record)
    : Math.min(record.width, SOURCE_MAX_WIDTH);
  if (source.width < 1 || source.width > widest || source.height < 1) {
    throw refuse(
      `the source image is ${size(source)}, but logo add makes it at most ${widest} px wide ` +
        `from a ${record.width}×${record.height} source`,
    );
  }
  if (source.height > LIMITS.outputSide) {
    throw refuse(`the source image is ${size(source)}, over ${LIMITS.outputSide} px high`);
  }
  const made: [string, Rendition, number][] = [["default", small, DEFAULT_WIDTH]];
  const mid = record.pipeline === 1 && source.width > MID_WIDTH;
  if (mid) made.push(["mid", others.mid, MID_WIDTH]);
  for (const [name, rendition, width] of made) {
    const expected = outputSize(source.width, source.height, width);
    if (rendition === undefined) throw refuse(`it has no ${name} image`);
    if (rendition.width !== expected.width || rendition.height !== expected.height) {
      throw refuse(
        `the ${name} image is ${size(rendition)}, but logo add makes it ` +
          `${expected.width}×${expected.height} from the ${size(source)} source image`,
      );
    }
  }
  const extra = Object.keys(others).filter((name) => !(mid && name === "mid"));
  if (extra.length > 0) {
    throw refuse(
      `rendition "${extra[0]}" is not one logo add makes (source, default` +
        `${record.pipeline === 1 ? ", and mid when the source is wider than 256 px" : ""})`,
    );
  }
}

/** The `svg` rendition: recipe 3 on, an SVG source's, the source's size, a sanitised SVG. */
function checkSvgRecipe(record: LogoRecord, svg: Rendition, refuse: (why: string) => Error) {
  if (record.pipeline < 3 || record.type !== SOURCE_MIME.svg) {
    throw refuse(`rendition "${SVG_RENDITION}" is made from SVG sources only, from recipe 3`);
  }
  if (svg.type !== SOURCE_MIME.svg) throw refuse(`the ${SVG_RENDITION} image is not an SVG`);
  if (svg.width !== record.width || svg.height !== record.height) {
    throw refuse(
      `the ${SVG_RENDITION} image is ${size(svg)}, not the ${record.width}×${record.height} source`,
    );
  }
}

function size(image: { width: number; height: number }): string {
  return `${image.width}×${image.height}`;
}

/** The images of an import: decoded in pass 1, and looked up in pass 2. */
export class ArchiveImages {
  readonly #imaging: ImageWork;
  /** `hash width×height` of every image decoded so far. */
  readonly #verified = new Set<string>();

  /** Decodes with `imaging`: an image pool for an operator's file; default in this isolate. */
  constructor(imaging: ImageWork = IN_PROCESS) {
    this.#imaging = imaging;
  }

  /**
   * Pass 1: checks the recipe of `entry`'s record, then decodes each of its images (once per
   * import: logos sharing an image share the decode).
   *
   * @throws {ArchiveError} naming the line, the logo and the image, e.g. "Cannot import archive:
   *   line 6 (logo acme.com): the source image is not a valid PNG (Cannot decode image: …)".
   */
  async verify(entry: LogoEntry, line: number): Promise<void> {
    const at = `line ${line} (${
      entry.logoType === "logo" ? "wordmark" : "logo"
    } ${entry.record.domain})`;
    checkRecipe(entry.record, at, entry.logoType);
    for (const [name, rendition] of Object.entries(entry.record.renditions)) {
      const key = `${rendition.hash} ${size(rendition)}`;
      if (this.#verified.has(key)) continue;
      await this.#decode(entry.blobs.get(rendition.hash)!, rendition, `${at}: the ${name} image`);
      this.#verified.add(key);
    }
  }

  /**
   * Pass 2: checks that every image of `entry` was decoded by {@link verify}, at its size.
   *
   * @throws {ArchiveError} when one was not: the file changed between the passes.
   */
  verified(entry: LogoEntry, line: number): void {
    checkRecipe(
      entry.record,
      `line ${line} (${entry.logoType === "logo" ? "wordmark" : "logo"} ${entry.record.domain})`,
      entry.logoType,
    );
    for (const rendition of Object.values(entry.record.renditions)) {
      if (!this.#verified.has(`${rendition.hash} ${size(rendition)}`)) {
        throw new ArchiveError("the file changed during the import; import it again");
      }
    }
  }

  async #decode(bytes: Uint8Array, rendition: Rendition, what: string): Promise<void> {
    if (rendition.type === SOURCE_MIME.svg) return await this.#checkSvg(bytes, rendition, what);
    let made: RenditionsResult;
    try {
      // Every pixel decoded, then resized to 1 px wide and that encoded: at the image's own width
      // its PNG would be encoded again unless kept as it is.
      made = await this.#imaging.renditions(bytes, { sourceMaxWidth: 1, widths: [] });
    } catch (error) {
      if (!(error instanceof ImageCoreError)) throw error;
      throw new ArchiveError(`${what} is not a valid PNG (${error.message})`, "import");
    }
    if (made.format !== "png") {
      throw new ArchiveError(`${what} is not a valid PNG (it is ${made.format})`, "import");
    }
    if (made.width !== rendition.width || made.height !== rendition.height) {
      throw new ArchiveError(
        `${what} is ${size(made)} pixels, not the ${size(rendition)} its record says`,
        "import",
      );
    }
    // Decoded upright: an EXIF orientation would turn it (logo add never stores one so).
    this.#checkUpright(made, rendition, what);
  }

  async #checkSvg(bytes: Uint8Array, rendition: Rendition, what: string): Promise<void> {
    let made: RenditionsResult;
    try {
      made = await this.#imaging.renditions(bytes, { sourceMaxWidth: 1, widths: [], svg: "check" });
    } catch (error) {
      if (!(error instanceof ImageCoreError)) throw error;
      throw new ArchiveError(`${what} is not a sanitised SVG (${error.message})`, "import");
    }
    if (made.svg === undefined) throw new ArchiveError(`${what} is not an SVG`, "import");
    if (made.svg.width !== rendition.width || made.svg.height !== rendition.height) {
      throw new ArchiveError(
        `${what} is ${size(made.svg)}, not the ${size(rendition)} its record says`,
        "import",
      );
    }
  }

  #checkUpright(made: RenditionsResult, rendition: Rendition, what: string): void {
    const upright = outputSize(rendition.width, rendition.height, 1);
    if (made.images[0].width !== upright.width || made.images[0].height !== upright.height) {
      throw new ArchiveError(`${what} is turned by an EXIF orientation`, "import");
    }
  }
}
