/**
 * The `fallback=monogram` answer: when no logo is found for a domain, a square tile with the first
 * letter of its brand label (`brandLabel`, not `www`; an IDN label's Unicode letter) on a colour
 * picked from its registrable domain (so `www.example.com` and `example.com` share a tile), drawn by
 * imagecore's SVG module with the bundled font (`monogramSvg`) and then sized, greyscaled, themed
 * and encoded like any logo. Tiles are kept in the same {@link VariantCache} as logos, under a
 * strong ETag naming the domain and the options, so each (domain, options) renders once.
 *
 * A tile is drawn where logos are rendered: in the app's `imaging`, the render pool in the server
 * (docs/internals/render_pool.md), so drawing one never holds up the serving
 * isolate, and follows the pool's rules: a full queue or a draw past its deadline answers `503`
 * with `Retry-After` ({@link renderUnavailable}). A pool ({@link MonogramWork}) also writes the
 * tile's SVG document; any other `imaging` is handed the document, written here.
 *
 * @example
 * ```ts
 * import { createMonogramRenderer } from "./monogram.ts";
 * import { DEFAULT_OPTIONS } from "./request_options.ts";
 * const monograms = createMonogramRenderer();
 * const tile = await monograms.render("example.com", DEFAULT_OPTIONS); // 128 × 128 PNG, an "E"
 * ```
 * @module
 */
import { domainToUnicode } from "node:url";
import type { ImageWork, MonogramWork } from "../../imagecore/image_pool.ts";
import { monogramSvg } from "../../imagecore/mod.ts";
import { type RenderSpec, requestTag, transformOptionsOf } from "../../imagecore/render_spec.ts";
import { IN_PROCESS } from "../store/logo_ingest.ts";
import { brandLabel, lookupChain } from "../domain_name.ts";
import { CONTENT_TYPES, type LogoType } from "../sdk/logo_options.ts";
import { RENDER_VERSION, renderUnavailable } from "./render_variant.ts";
import type { LogoOptions } from "./request_options.ts";
import { type TaggedVariant, VariantCache } from "./variant_cache.ts";
import { HttpError } from "../http_error.ts";
import type { RequestObserver } from "../observe/request_observer.ts";
import type { ObservedVariant } from "./observed_render.ts";

/** Bumped when the same domain and options could draw a different tile (letters, palette). */
export const MONOGRAM_VERSION = 1;

/** The monogram step: a tile's ETag without drawing it, and the tile. */
export interface MonogramRenderer {
  /** The strong ETag of `domain`'s tile with `options`. */
  tag(domain: string, options: LogoOptions): string;
  /** `domain`'s tile with `options`, from the cache or drawn. */
  render(domain: string, options: LogoOptions, etag?: string): Promise<TaggedVariant>;
}

/** The brand label of `domain` in Unicode (an `xn--` label decoded), the tile's letter source. */
export function monogramLabel(domain: string): string {
  const label = brandLabel(domain);
  if (!label.startsWith("xn--")) return label;
  const unicode = domainToUnicode(`${label}.invalid`);
  return unicode === "" ? label : unicode.slice(0, -".invalid".length);
}

/**
 * The strong ETag of `domain`'s tile with `options` (the type asked included: a `type=logo` tile
 * is marked `X-Logo-Fallback: icon, monogram`, so it is not the `type=icon` tile's answer).
 */
export function monogramTag(
  domain: string,
  options: RenderSpec & { readonly type?: LogoType },
): string {
  return `"v${RENDER_VERSION}-m${MONOGRAM_VERSION}-${domain}${requestTag(options)}"`;
}

/** Where tiles are drawn: an {@link ImageWork}, which may draw them whole ({@link MonogramWork}). */
export type MonogramImaging = ImageWork & Partial<MonogramWork>;

/**
 * Creates the monogram step over `variants` (default: a cache of its own with the default
 * budget; the app passes the one its logos use), drawing in `imaging` (default: in this isolate,
 * `IN_PROCESS`; the app passes its render pool).
 */
export function createMonogramRenderer(
  variants: VariantCache<TaggedVariant> = new VariantCache<TaggedVariant>(),
  imaging: MonogramImaging = IN_PROCESS,
): MonogramRenderer {
  async function draw(domain: string, options: LogoOptions, etag: string): Promise<TaggedVariant> {
    // Coloured by the registrable domain, so www.example.com and example.com get one tile.
    const registrable = lookupChain(domain).at(-1) ?? domain;
    const label = monogramLabel(domain);
    // A tile is drawn as a PNG for `format=svg` too (marked `png` as well as `monogram`).
    const drawn = options.format === "svg" ? { ...options, format: "png" as const } : options;
    const transformOptions = transformOptionsOf(drawn);
    const out =
      await (imaging.monogram
        ? imaging.monogram(label, registrable, transformOptions)
        : imaging.transform(monogramSvg(label, registrable), transformOptions))
        .catch((error) => {
          throw renderUnavailable(error) ?? error;
        });
    const { width, height } = out;
    return { bytes: out.bytes, contentType: CONTENT_TYPES[out.format], etag, width, height };
  }
  return {
    tag: monogramTag,
    render(domain, options, etag) {
      const tag = etag ?? monogramTag(domain, options);
      return variants.getOrCreate(tag, () => draw(domain, options, tag));
    },
  };
}

/**
 * The resolve step's error handler for a request with `options`: with `fallback=monogram`, a
 * `404` (no logo found) becomes `null` — answer a tile — and any other error is thrown again.
 *
 * @example
 * ```ts
 * import { monogramOnMiss } from "./monogram.ts";
 * import { DEFAULT_OPTIONS } from "./request_options.ts";
 * import { logoNotFound } from "./resolve_logo.ts";
 * const onMiss = monogramOnMiss({ ...DEFAULT_OPTIONS, fallback: "monogram" });
 * const found = await Promise.reject(logoNotFound()).catch(onMiss); // null: draw a tile
 * ```
 */
export function monogramOnMiss(options: LogoOptions): (error: unknown) => null {
  return (error) => {
    if (options.fallback === "monogram" && error instanceof HttpError && error.status === 404) {
      return null;
    }
    throw error;
  };
}

/**
 * The monogram step that also reports its outcome (`cache` or `rendered`) and latency, as
 * `observed_render.ts` does for logos.
 */
export function observeMonograms(
  monograms: MonogramRenderer,
  variants: Pick<VariantCache<TaggedVariant>, "has">,
  observer: Pick<RequestObserver, "render">,
): (domain: string, options: LogoOptions, etag: string) => Promise<ObservedVariant> {
  return async (domain, options, etag) => {
    if (variants.has(etag)) {
      return { variant: await monograms.render(domain, options, etag), outcome: "cache" };
    }
    const started = performance.now();
    const variant = await monograms.render(domain, options, etag);
    observer.render("rendered", (performance.now() - started) / 1000);
    return { variant, outcome: "rendered" };
  };
}
