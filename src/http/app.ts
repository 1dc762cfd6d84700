/**
 * The Logo Lookup HTTP application: `GET`/`HEAD /{domain}` as a request handler, built from its
 * dependencies (nothing is opened at import time).
 *
 * A request flows through named steps, each in its own module: check the `Host` header
 * (`request_target.ts`) → parse the request target (`request_options.ts`) → authenticate
 * (`authenticate.ts`, then `key_restrictions.ts`) → limit (`limit_request.ts`) → resolve
 * (`resolve_logo.ts`) → render (`render_variant.ts`) → respond (`respond.ts`). One `catch` turns an `HttpError` into its answer and anything else into a
 * logged 500 (at a bounded rate). `/healthz` and `/readyz` (`readiness.ts`), `/metrics` when
 * `AppDeps.observer` has it on, and the page at `/` (`home_page.ts`) are answered before the parse
 * step. The observer is told each step
 * and each answer (access log, metrics, spans: `src/observe/`).
 *
 * @example
 * ```ts
 * import { createApp } from "./app.ts";
 * const kv = await Deno.openKv(":memory:");
 * const app = createApp({ kv });
 * const server = Deno.serve({ port: 8000 }, app.handler);
 * // … later
 * await server.shutdown();
 * await app.close();
 * kv.close();
 * ```
 * @module
 */
import { createAuthenticator, KEY_CACHE_TTL_MS } from "./authenticate.ts";
import {
  audienceOf,
  type CacheAudience,
  type CachePolicy,
  createCachePolicy,
} from "./cache_policy.ts";
import { ALLOWED_METHODS, preflight } from "./cors.ts";
import { HttpError } from "../http_error.ts";
import { createHomePage } from "./home_page.ts";
import { checkKeyRestrictions } from "./key_restrictions.ts";
import { limitRequest } from "./limit_request.ts";
import {
  createRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
} from "../limits/rate_limiter.ts";
import { createProbes } from "./readiness.ts";
import { createBoundedLog } from "../observe/bounded_log.ts";
import {
  NO_OBSERVER,
  type Observation,
  type RenderOutcome,
  type RequestObserver,
} from "../observe/request_observer.ts";
import { observeRenders } from "./observed_render.ts";
import {
  createMonogramRenderer,
  type MonogramImaging,
  monogramOnMiss,
  observeMonograms,
} from "./monogram.ts";
import {
  answerLength,
  createRenderer,
  DEFAULT_SOURCE_CACHE_BYTES,
  type RendererOptions,
} from "./render_variant.ts";
import { createRequestParser } from "./request_options.ts";
import { createHostCheck } from "./request_target.ts";
import { createResolver, LOGO_CACHE_TTL_MS } from "./resolve_logo.ts";
import { batchedRecordReads } from "../store/batched_record_reads.ts";
import {
  etagMatches,
  type Log,
  respondError,
  respondImage,
  respondNotModified,
} from "./respond.ts";
import { safeLog } from "../safe_log.ts";
import { themeSvg } from "../../imagecore/svg_theme.ts";
import type { SvgThemeWork } from "../../imagecore/image_pool.ts";
import type { FallbackMark } from "../sdk/logo_options.ts";
import { KeyStore } from "../store/key_store.ts";
import { LogoStore } from "../store/logo_store.ts";
import type { LogoChangeFeed } from "../store/logo_change_feed.ts";
import type { StoreCheck } from "../store/store_identity.ts";
import {
  DEFAULT_VARIANT_CACHE_BYTES,
  type TaggedVariant,
  VariantCache,
  type VariantCacheStats,
} from "./variant_cache.ts";

/** What the application is built from. */
export interface AppDeps {
  /** Keys, logos and rate-limit windows live here. */
  kv: Deno.Kv;
  /** Epoch-ms clock for caches, keys and the limiter; default `Date.now`. */
  clock?: () => number;
  /** Called when no logo is stored for a requested domain, to find one; optional. */
  discover?: (domain: string) => Promise<void>;
  /** The rate limiter; default `createRateLimiter({ kv, clock, instanceId })`, closed by `close`. */
  limiter?: RateLimiter;
  /** Names this instance in the limiter's statistics. */
  instanceId?: string;
  /** How long a key lookup is reused (bounds revocation latency); default 5000 ms. */
  keyCacheTtlMs?: number;
  /**
   * How long a logo record (or its absence) is reused without `logoChanges` confirming it;
   * default 5000 ms.
   */
  logoCacheTtlMs?: number;
  /** Byte budget of cached logo records (they hold the default image and answer); default 64 MiB. */
  logoCacheBytes?: number;
  /**
   * The logo change feed (`src/store/logo_change_feed.ts`, started by the caller): records stay
   * cached while it confirms them, and go when it names their domain; default none (5-s records).
   */
  logoChanges?: LogoChangeFeed;
  /** Byte budget of rendered variants kept in memory; default 32 MiB. */
  variantCacheBytes?: number;
  /** Byte budget of stored renditions kept in memory to render from; default 32 MiB. */
  sourceCacheBytes?: number;
  /** `s-maxage` of an open key's answers: shared caches revalidate after it; default 300 s. */
  sharedCacheMaxAgeSeconds?: number;
  /** Where unexpected errors are reported; default `console.error`. Never receives a token. */
  log?: Log;
  /** For `/readyz`: whether the store file is still the one opened (`storeFileCheck`). */
  checkStore?: StoreCheck;
  /** Access log, metrics (`GET /metrics`) and step spans (`src/observe/`); default all off. */
  observer?: RequestObserver;
  /**
   * Where cold renders and monogram tiles run: the render pool (`src/server/render_pool.ts`);
   * default in process.
   */
  imaging?: MonogramImaging & Partial<SvgThemeWork>;
  /**
   * Recolours a sanitised SVG for `format=svg` with `greyscale` or `theme`
   * (`RendererOptions.themeSvg`); default `imaging`'s `themeSvg` (the render pool's), else
   * imagecore's `themeSvg` (`imagecore/svg_theme.ts`) in this isolate. `null`: none, such
   * requests answer the PNG, marked `png`.
   */
  themeSvg?: RendererOptions["themeSvg"] | null;
}

/** Counters of a running application. */
export interface AppStats {
  /** The rendered-variant cache. */
  variants: VariantCacheStats;
  /** The cache of source renditions read from KV to render from. */
  sources: VariantCacheStats;
  /**
   * The logo record cache: domains held, bytes counted against its budget, lookups answered from
   * memory and read from KV.
   */
  records: { entries: number; bytes: number; hits: number; misses: number };
}

/** A running application. */
export interface App {
  /** Answers one HTTP request; pass it to `Deno.serve`. Never throws. */
  handler(request: Request): Promise<Response>;
  /**
   * Forgets the cached record of `domain`, so a logo changed in this process is served at once
   * (other processes see changes when their change feed reads them, or within the record TTL).
   */
  forgetLogo(domain: string): void;
  /** Counters, for tests and benchmarks. */
  stats(): AppStats;
  /** Stops using KV: gives unspent rate-limit quota back (when the limiter is the app's own). */
  close(): Promise<void>;
}

/** Mutable while a request flows, so an error answer carries what was decided before it. */
interface RequestContext {
  method: string;
  allowedOrigin: string | null;
  quota: RateLimitDecision | undefined;
  servedDomain: string | undefined;
  keyId: string | undefined;
  outcome: RenderOutcome;
  bytes: number | undefined;
  audience: CacheAudience;
  readonly cachePolicy: CachePolicy;
  fallback: FallbackMark[];
}

/** The recolouring `imaging` runs (the render pool's), else imagecore's in this isolate. */
function svgRecolouring(imaging: AppDeps["imaging"]): RendererOptions["themeSvg"] {
  const themeSvgIn = imaging?.themeSvg;
  return themeSvgIn === undefined ? themeSvg : (svg, options) => themeSvgIn(svg, options);
}

/** Builds the application from its dependencies. Opens nothing; starts no timers. */
export function createApp(deps: AppDeps): App {
  const { kv } = deps;
  const clock = deps.clock ?? Date.now;
  // Every log line of the request path goes through one gate that strips queries and tokens.
  const log = safeLog(deps.log ?? console.error);
  const keys = new KeyStore(kv, { clock });
  const logos = new LogoStore(kv, { clock });
  const ownLimiter = deps.limiter === undefined;
  const limiter = deps.limiter ?? createRateLimiter({ kv, clock, instanceId: deps.instanceId });
  const keyCounts = { hits: 0, misses: 0 };
  const logoCounts = { hits: 0, misses: 0 };
  const authenticate = createAuthenticator({
    keys,
    clock,
    ttlMs: deps.keyCacheTtlMs ?? KEY_CACHE_TTL_MS,
    log,
    counts: keyCounts,
  });
  const resolve = createResolver({
    // LogoStore.get's read, batched under load (issue 34).
    logos: batchedRecordReads(kv),
    clock,
    ttlMs: deps.logoCacheTtlMs ?? LOGO_CACHE_TTL_MS,
    maxBytes: deps.logoCacheBytes,
    changes: deps.logoChanges,
    discover: deps.discover,
    log,
    counts: logoCounts,
  });
  const variants = new VariantCache<TaggedVariant>({
    maxBytes: deps.variantCacheBytes ?? DEFAULT_VARIANT_CACHE_BYTES,
    // The bytes, and the prepared response's copy from a variant's second 200 on (respond.ts).
    copies: 2,
    // Popular variants stay while one-off ones pass (skewed traffic: issue 34).
    admission: true,
  });
  const sources = new VariantCache({
    maxBytes: deps.sourceCacheBytes ?? DEFAULT_SOURCE_CACHE_BYTES,
  });
  const renderer = createRenderer({
    logos,
    variants,
    sources,
    log,
    imaging: deps.imaging,
    themeSvg: deps.themeSvg === null ? undefined : deps.themeSvg ?? svgRecolouring(deps.imaging),
  });
  const checkHost = createHostCheck();
  const parseRequest = createRequestParser();
  const cachePolicy = createCachePolicy(deps.sharedCacheMaxAgeSeconds);
  const probes = createProbes({ kv, checkStore: deps.checkStore, log });
  const homePage = createHomePage();
  const observer = deps.observer ?? NO_OBSERVER;
  // Unexpected errors are logged at a bounded rate (src/observe/bounded_log.ts).
  const errorLog = createBoundedLog({ log, clock });
  const unexpected = errorLog.kind("unexpected error");
  observer.metrics?.watch(() => ({
    variants: variants.stats(),
    keys: keyCounts,
    logos: logoCounts,
    leases: { attempts: limiter.stats().leaseAttempts, commits: limiter.stats().leases },
  }));
  const render = observeRenders({ renderer, variants, observer });
  const monograms = createMonogramRenderer(variants, deps.imaging);
  const renderMonogram = observeMonograms(monograms, variants, observer);

  async function handler(request: Request): Promise<Response> {
    const method = request.method;
    const context: RequestContext = {
      method,
      allowedOrigin: null,
      quota: undefined,
      servedDomain: undefined,
      keyId: undefined,
      outcome: "none",
      bytes: undefined,
      // Until a credential is known, an answer depends on the URL alone (a 404 for `/api`).
      audience: "shared",
      cachePolicy,
      fallback: [],
    };
    const observation = observer.begin(request);
    const response = await answer(request, context, observation);
    observation.finish(response, context);
    return response;
  }

  async function answer(
    request: Request,
    context: RequestContext,
    observation: Observation,
  ): Promise<Response> {
    const method = context.method;
    try {
      // A malformed Host is a 400 whatever the method; the domain never comes from it.
      checkHost(request.headers.get("host"));
      if (method === "OPTIONS") return preflight();
      if (method !== "GET" && method !== "HEAD") {
        throw new HttpError(405, "Method not allowed", { Allow: ALLOWED_METHODS });
      }
      // `/healthz`, `/readyz`: no dot, so never a domain
      const probe = probes.answer(method, request.url);
      if (probe !== undefined) return await probe;
      // `/metrics` (when LOGO_METRICS_TOKEN is set): no dot either; never counted or cached
      const scrape = observer.answer(request);
      if (scrape !== undefined) return await scrape;
      // `/`: the page (home_page.ts); never authenticated or counted
      const page = homePage.answer(method, request.url, request.headers.get("if-none-match"));
      if (page !== undefined) return page;
      // 1 parse
      observation.step("parse");
      const parsed = parseRequest(request);
      // 2 authenticate
      observation.step("authenticate");
      const credential = await authenticate(parsed);
      context.keyId = credential.key.id;
      // 3 restrict
      observation.step("restrict");
      context.allowedOrigin = checkKeyRestrictions(credential, parsed);
      context.audience = audienceOf(credential.kind, context.allowedOrigin);
      // 4 limit
      observation.step("limit");
      context.quota = await limitRequest(limiter, credential.key);
      // 5 resolve
      observation.step("resolve");
      const options = parsed.options;
      const logo = await resolve(parsed.domain, options.type).catch(monogramOnMiss(options));
      context.servedDomain = logo?.domain;
      // A wordmark asked and none stored: the icon stands in (or, with none either, the tile).
      if (options.type === "logo" && logo?.type !== "logo") context.fallback.push("icon");
      if (logo === null) context.fallback.push("monogram");
      // 6 render (not needed when the client's copy is current): planned once, here
      observation.step("render");
      const planned = logo === null ? undefined : renderer.plan(logo.record, options);
      // An SVG asked of an image without one (a tile is always a PNG): its PNG stands in.
      const png = planned === undefined ? options.format === "svg" : planned.substitution === "png";
      if (png) context.fallback.push("png");
      const etag = planned?.etag ?? monograms.tag(parsed.domain, options);
      if (etagMatches(parsed.ifNoneMatch, etag)) {
        context.outcome = "not_modified";
        observation.step("respond");
        return respondNotModified(etag, context);
      }
      const { variant, outcome } = planned === undefined
        ? await renderMonogram(parsed.domain, options, etag)
        : await render(planned);
      context.outcome = outcome;
      context.bytes = answerLength(variant);
      // 7 respond
      observation.step("respond");
      return respondImage(variant, context);
    } catch (error) {
      observation.step("respond");
      return respondError(error, context, unexpected);
    }
  }

  return {
    handler,
    forgetLogo: (domain) => resolve.forget(domain),
    stats: () => ({
      variants: variants.stats(),
      sources: sources.stats(),
      records: resolve.stats(),
    }),
    async close() {
      resolve.close();
      errorLog.flush();
      if (ownLimiter) await limiter.close();
    },
  };
}
