/**
 * The file extensions `logo import` picks up, declared once: the importer filters on them and the
 * usage text lists them. The content is recognised from the bytes, not from these.
 *
 * @module
 */

/** File extensions `logo import` picks up. */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set([
  "png",
  "jpg",
  "jpeg",
  "gif",
  "webp",
  "ico",
  "bmp",
  "svg",
]);
