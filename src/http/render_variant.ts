/**
 * Step 6 of the request path, render: turns a logo record and the request's options into the
 * bytes to send, with a strong `ETag` that names exactly those bytes.
 *
 * - The default request (128 px, PNG, no greyscale, no theme) is the precomputed `default`
 *   rendition, sent as stored: no decoding, and no KV read when the record holds its bytes
 *   (`src/store/inline_rendition.ts`). Such an answer is kept on the record, not in the variant
 *   cache (`stored_answer.ts`: one copy of the image per cached logo).
 * - Any other request renders, with imagecore's `transform` in `imaging` (the render pool's
 *   workers in the server, `src/server/render_pool.ts`; in process by default), from the smallest
 *   stored rendition at least as wide as asked (or the widest there is: the asked width is always
 *   honoured), unless that rendition already is the answer. A full render queue or a render past
 *   its deadline answers `503` with `Retry-After` ({@link renderUnavailable}); any other render
 *   failure on our own rendition is the server's fault, a logged `500`.
 * - `format=svg` answers the stored sanitised SVG (`SVG_RENDITION`, `src/store/logo_ingest.ts`)
 *   with its root's `width` and `height` set to the size asked (height by the aspect ratio, as a
 *   raster's): no render, no worker. With `greyscale` or `theme` it is recoloured by `themeSvg`
 *   when the renderer has one ({@link RendererOptions.themeSvg}: the render pool's), once per logo
 *   and colour options (cached with the sources). A logo with no sanitised SVG (a
 *   raster source, or one stored before recipe 3), or a recolouring asked of a renderer without
 *   `themeSvg`, answers the PNG of the same options instead, marked as the substitution `png`
 *   ({@link PlannedAnswer.substitution}, sent as `X-Logo-Fallback: png`).
 * - Other results live in a {@link VariantCache} keyed by the ETag; identical concurrent misses render
 *   once. Source renditions read from KV are cached too, under their own budget.
 *
 * @example
 * ```ts
 * import { createRenderer } from "./render_variant.ts";
 * import { LogoStore } from "../store/logo_store.ts";
 *
 * const logos = new LogoStore(await Deno.openKv(":memory:"));
 * const renderer = createRenderer({ logos });
 * const options = {
 *   size: 64,
 *   format: "webp",
 *   greyscale: false,
 *   theme: undefined,
 *   fallback: "404",
 *   type: "icon",
 * } as const;
 * const record = await logos.get("example.com");
 * if (record !== null) {
 *   const planned = renderer.plan(record, options); // planned.etag, before any render
 *   const variant = await renderer.render(planned); // variant.width === 64
 * }
 * ```
 * @module
 */
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { ImageCoreError } from "../../imagecore/mod.ts";
import { HttpError } from "../http_error.ts";
import { guardKv } from "../kv_unavailable.ts";
import { IN_PROCESS, SVG_RENDITION } from "../store/logo_ingest.ts";
import {
  CONTENT_TYPES,
  DEFAULT_SIZE,
  type FallbackMark,
  type LogoTheme,
} from "../sdk/logo_options.ts";
import { svgAnswers } from "./svg_variant.ts";
import {
  isDefaultSpec,
  type RenderSpec,
  requestTag,
  transformOptionsOf,
} from "../../imagecore/render_spec.ts";
import type { LogoType } from "../sdk/logo_options.ts";
import type { LogoOptions } from "./request_options.ts";
import { logoNotFound } from "./resolve_logo.ts";
import type { LogoRecord, LogoStore, Rendition } from "../store/logo_store.ts";
import { type StoredAnswer, storedAnswer, storedBytes } from "./stored_answer.ts";
import { type TaggedVariant, VariantCache } from "./variant_cache.ts";

/** What the render step answers: a variant, or a default answer kept on its record. */
export type Answer = TaggedVariant | StoredAnswer;

/** The length of an answer's image in bytes. */
export function answerLength(answer: Answer): number {
  return "body" in answer ? answer.byteLength : answer.bytes.byteLength;
}

/** The rendition read rendering needs from the logo store. */
export type BlobReader = Pick<LogoStore, "readRendition">;

/** Options of {@link createRenderer}. */
export interface RendererOptions {
  /** Where rendition bytes live. */
  logos: BlobReader;
  /** Cache of rendered variants; default a {@link VariantCache} with its default budget. */
  variants?: VariantCache<TaggedVariant>;
  /** Cache of source renditions read from KV; default 32 MiB. */
  sources?: VariantCache;
  /** Where KV failures are reported; default `console.error`. */
  log?: (message: string, error?: unknown) => void;
  /** Where imagecore renders: the render pool; default in this isolate (`IN_PROCESS`). */
  imaging?: ImageWork;
  /**
   * Recolours a sanitised SVG for `greyscale` and `theme` (`themeSvg` of `imagecore/svg_theme.ts`,
   * in the render pool: `ImagePool.themeSvg`); without it such `format=svg` requests answer the
   * PNG, marked `png`. A failure is handled as a render's ({@link renderUnavailable}).
   */
  themeSvg?: (
    svg: string,
    options: { greyscale: boolean; theme: LogoTheme | undefined },
  ) => string | Promise<string>;
}

/**
 * A request's answer as planned, before any render: which rendition answers it, the strong ETag of
 * the bytes it will be, and what it substitutes for what was asked. Planned once per request
 * ({@link Renderer.plan}); the `304` check, the render and its observation all read this.
 */
export interface PlannedAnswer {
  /** The logo's record. */
  readonly record: LogoRecord;
  /** The request's options. */
  readonly options: LogoOptions;
  /** Which rendition, and whether as stored. */
  readonly plan: RenderPlan;
  /** Strong `ETag` of the answer, quoted. */
  readonly etag: string;
  /**
   * What the answer substitutes for what was asked (sent as `X-Logo-Fallback`, on its 304 too):
   * `png` for a `format=svg` answered with the PNG.
   */
  readonly substitution: FallbackMark | undefined;
}

/** The render step: {@link createRenderer}. */
export interface Renderer {
  /** The answer to `options` for `record`, planned without rendering. */
  plan(record: LogoRecord, options: LogoOptions): PlannedAnswer;
  /**
   * The answer `planned`, from the cache or rendered.
   *
   * @throws {HttpError} 404 when the record's bytes vanished (the logo was just removed), 503
   * when KV fails.
   */
  render(planned: PlannedAnswer): Promise<Answer>;
}

/**
 * Bumped whenever the same source and options could render different bytes (a new imagecore
 * release, a different rendition choice), so a strong ETag never names two different bodies.
 */
export const RENDER_VERSION = 2;

/** Default budget of the source-rendition cache: 32 MiB. */
export const DEFAULT_SOURCE_CACHE_BYTES = 32 * 1024 * 1024;

/** Which stored rendition answers `options`, and whether it is the answer as stored. */
export interface RenderPlan {
  /** The rendition to send or to render from. */
  readonly rendition: Rendition;
  /** Whether the rendition's bytes are the answer, with no decoding. */
  readonly asStored: boolean;
  /** Whether the answer is the rendition, a sanitised SVG, sized (and recoloured) as asked. */
  readonly svg?: true;
  /** `png`: `format=svg` was asked, the PNG of the same options answers. */
  readonly substitution?: "png";
}

/**
 * Picks the rendition. `format=svg`: the sanitised SVG when the record has one (and, for
 * `greyscale` or `theme`, `recolours`), else the PNG of the same options as a substitution.
 * Otherwise `default` for a default request, else the smallest raster at least as wide as
 * `options.size`, else the widest.
 *
 * @throws {Error} when the record has no raster rendition at all (a corrupt record: a 500).
 */
export function planRender(record: LogoRecord, options: RenderSpec, recolours = false): RenderPlan {
  if (options.format === "svg") {
    const svg = record.renditions[SVG_RENDITION];
    const plain = !options.greyscale && options.theme === undefined;
    if (svg !== undefined && (plain || recolours)) {
      return { rendition: svg, asStored: false, svg: true };
    }
    return { ...planRaster(record, { ...options, format: "png" }), substitution: "png" };
  }
  return planRaster(record, options);
}

function planRaster(record: LogoRecord, options: RenderSpec): RenderPlan {
  const renditions = record.renditions;
  if (isDefaultSpec(options) && renditions.default !== undefined) {
    return { rendition: renditions.default, asStored: true };
  }
  let best: Rendition | undefined;
  for (const name in renditions) {
    const candidate = renditions[name];
    if (name === SVG_RENDITION) continue;
    if (best === undefined) {
      best = candidate;
    } else if (candidate.width >= options.size) {
      if (best.width < options.size || candidate.width < best.width) best = candidate;
    } else if (best.width < options.size && candidate.width > best.width) {
      best = candidate;
    }
  }
  if (best === undefined) throw new Error(`Logo record of ${record.domain} has no rendition`);
  // As stored only when no option but the width changes the bytes: every other at its default
  // (PNG, colour, no theme, and any option added later), and the rendition a PNG.
  const asStored = best.width === options.size && best.type === CONTENT_TYPES.png &&
    isDefaultSpec({ ...options, size: DEFAULT_SIZE });
  return { rendition: best, asStored };
}

/**
 * The strong ETag of the bytes `plan` and `options` produce: every option of the spec is in it,
 * and the type asked (`requestTag`: nothing for the icon, so icon ETags are those made before
 * wordmarks existed).
 */
export function variantTag(
  plan: RenderPlan,
  options: RenderSpec & { readonly type?: LogoType },
): string {
  return `"v${RENDER_VERSION}-${plan.rendition.hash.slice(0, 32)}${requestTag(options)}"`;
}

/** Seconds a client is told to wait after a `503` for a full render queue or a slow render. */
export const RENDER_RETRY_AFTER_SECONDS = 1;

/**
 * The `503` of a render that could not run now: the queue was full or no worker could start
 * (`busy`), it passed its deadline (`timeout`), or the pool is closing. `undefined` for any other failure.
 */
export function renderUnavailable(error: unknown): HttpError | undefined {
  if (!(error instanceof ImageCoreError)) return undefined;
  const headers = { "Retry-After": String(RENDER_RETRY_AFTER_SECONDS) };
  if (error.code === "busy") {
    const message = /no image worker can start/.test(error.message)
      ? "Server busy: cannot start a render worker now; retry shortly"
      : "Server busy: too many renders queued; retry shortly";
    return new HttpError(503, message, headers);
  }
  if (error.code === "timeout") {
    return new HttpError(503, "Server busy: the render took too long; retry shortly", headers);
  }
  if (/pool closed/.test(error.message)) {
    return new HttpError(503, "Server stopping: cannot render now; retry shortly", headers);
  }
  return undefined;
}

/** Creates the render step. */
export function createRenderer(options: RendererOptions): Renderer {
  const { logos } = options;
  const log = options.log ?? console.error;
  const variants = options.variants ?? new VariantCache<TaggedVariant>();
  const sources = options.sources ?? new VariantCache({ maxBytes: DEFAULT_SOURCE_CACHE_BYTES });
  const imaging = options.imaging ?? IN_PROCESS;
  const recolour = options.themeSvg;
  // A recolouring is a render (it draws the document): its failures are handled as one's.
  const sizedSvg = svgAnswers(
    sources,
    recolour &&
      ((svg, opts) =>
        Promise.resolve().then(() => recolour(svg, opts)).catch((error) => {
          throw renderUnavailable(error) ?? error;
        })),
  );
  async function readRendition(rendition: Rendition): Promise<Uint8Array> {
    const bytes = rendition.data ?? await storedBytes(rendition) ??
      await guardKv(() => logos.readRendition(rendition), { log });
    // The record was read a moment ago but its bytes are gone: the logo was just removed.
    if (bytes === null) throw logoNotFound();
    return bytes;
  }

  async function produce(plan: RenderPlan, opts: LogoOptions, etag: string) {
    if (plan.asStored) {
      const { type: contentType, width, height } = plan.rendition;
      return { bytes: await readRendition(plan.rendition), contentType, etag, width, height };
    }
    const source = await sources.getOrCreate(plan.rendition.hash, async () => ({
      bytes: await readRendition(plan.rendition),
      contentType: plan.rendition.type,
    }));
    if (plan.svg) return await sizedSvg(source.bytes, plan.rendition, opts, etag);
    const asked = plan.substitution === "png" ? { ...opts, format: "png" as const } : opts;
    // A worker gets a copy of the cached source: transferring it would empty the cache's entry.
    const out = await imaging.transform(source.bytes, transformOptionsOf(asked)).catch((error) => {
      throw renderUnavailable(error) ?? error;
    });
    const { width, height } = out;
    return { bytes: out.bytes, contentType: CONTENT_TYPES[out.format], etag, width, height };
  }

  return {
    plan(record, options) {
      const plan = planRender(record, options, recolour !== undefined);
      const etag = variantTag(plan, options);
      return { record, options, plan, etag, substitution: plan.substitution };
    },
    render({ plan, options, etag }) {
      if (plan.asStored) {
        const stored = storedAnswer(plan.rendition, etag);
        if (stored !== undefined) return Promise.resolve(stored);
      }
      return variants.getOrCreate(etag, () => produce(plan, options, etag));
    },
  };
}
