/**
 * The render step as operations see it: whether the answer came from memory (the rendered-variant
 * cache, or a default answer kept on its record: `stored_answer.ts`) or was produced now (sent as stored, or rendered by imagecore), and how long producing it took
 * (the `logo_render_duration_seconds` histogram, `src/observe/metrics.ts`). The outcome goes to
 * the access log; a cache hit is not timed.
 *
 * @example
 * ```ts
 * import { observeRenders } from "./observed_render.ts";
 * import { createRenderer } from "./render_variant.ts";
 * import { type TaggedVariant, VariantCache } from "./variant_cache.ts";
 * import { NO_OBSERVER } from "../observe/request_observer.ts";
 * import { LogoStore } from "../store/logo_store.ts";
 *
 * const logos = new LogoStore(await Deno.openKv(":memory:"));
 * const variants = new VariantCache<TaggedVariant>();
 * const renderer = createRenderer({ logos, variants });
 * const render = observeRenders({ renderer, variants, observer: NO_OBSERVER });
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
 *   const { outcome } = await render(renderer.plan(record, options));
 * }
 * ```
 * @module
 */
import type { RenderOutcome, RequestObserver } from "../observe/request_observer.ts";
import type { Answer, PlannedAnswer, Renderer } from "./render_variant.ts";
import { hasStoredAnswer } from "./stored_answer.ts";
import type { TaggedVariant, VariantCache } from "./variant_cache.ts";

/** A rendered answer and how it came about. */
export interface ObservedVariant {
  /** The answer. */
  readonly variant: Answer;
  /** `cache`, `stored` or `rendered`. */
  readonly outcome: RenderOutcome;
}

/** What {@link observeRenders} wraps. */
export interface ObservedRenderDeps {
  /** The render step. */
  renderer: Renderer;
  /** The renderer's variant cache, asked (without counting a lookup) whether it holds a tag. */
  variants: Pick<VariantCache<TaggedVariant>, "has">;
  /** Where render latencies go. */
  observer: Pick<RequestObserver, "render">;
}

/** The render step that also reports its outcome and latency. */
export function observeRenders(
  deps: ObservedRenderDeps,
): (planned: PlannedAnswer) => Promise<ObservedVariant> {
  const { renderer, variants, observer } = deps;
  return async (planned) => {
    const { plan, etag } = planned;
    if (variants.has(etag) || (plan.asStored && hasStoredAnswer(plan.rendition, etag))) {
      return { variant: await renderer.render(planned), outcome: "cache" };
    }
    const started = performance.now();
    const variant = await renderer.render(planned);
    const kind = plan.asStored ? "stored" : "rendered";
    observer.render(kind, (performance.now() - started) / 1000);
    return { variant, outcome: kind };
  };
}
