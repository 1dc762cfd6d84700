/**
 * What the request path reports to operations, in one dependency of the app (`AppDeps.observer`):
 * the access log (`access_log.ts`), the request and render metrics (`metrics.ts`) and their
 * endpoint (`metrics_endpoint.ts`), and the step spans (`step_spans.ts`). Each is on or off by
 * its settings ({@link observeSettings}); with all of them off, a request costs one call to a
 * shared object that does nothing.
 *
 * @example
 * ```ts
 * import { createObserver, observeSettings } from "./request_observer.ts";
 * const settings = observeSettings({
 *   accessLogFormat: "json",
 *   accessLogSample: 1,
 *   metricsToken: undefined,
 *   spans: false,
 * });
 * const observer = createObserver({ settings });
 * const request = new Request("http://localhost/example.com?token=pk_1");
 * const observation = observer.begin(request);
 * observation.step("parse");
 * observation.finish(new Response("x"), { method: "GET", outcome: "none" });
 * ```
 * @module
 */
import {
  type AccessLog,
  type AccessLogFormat,
  type AccessLogSettings,
  createAccessLog,
  type RenderOutcome,
} from "./access_log.ts";
import type { Metrics, RenderKind } from "./metrics.ts";
import { createMetricsEndpoint, type MetricsEndpoint } from "./metrics_endpoint.ts";
import { createStepSpans, type StepName, type StepSpans } from "./step_spans.ts";

export type { RenderOutcome, StepName };

/** The operations settings, as {@link observeSettings} gathers them. */
export interface ObserveSettings {
  /** `LOGO_ACCESS_LOG` and `LOGO_ACCESS_LOG_SAMPLE`. */
  accessLog: AccessLogSettings;
  /** `LOGO_METRICS_TOKEN`: the metrics endpoint's bearer token, or undefined when it is off. */
  metricsToken: string | undefined;
  /** `OTEL_DENO`: whether step spans are made. */
  spans: boolean;
}

/** No access log, no metrics endpoint, no spans. */
export const OBSERVE_OFF: ObserveSettings = {
  accessLog: { format: undefined, sample: 1 },
  metricsToken: undefined,
  spans: false,
};

/** The operations settings as the server's settings (`src/settings/`) hold them, parsed. */
export interface ObserveSettingValues {
  /** `LOGO_ACCESS_LOG`: the line format, or undefined when the log is off. */
  readonly accessLogFormat: AccessLogFormat | undefined;
  /** `LOGO_ACCESS_LOG_SAMPLE`. */
  readonly accessLogSample: number;
  /** `LOGO_METRICS_TOKEN`, or undefined when the endpoint is off. */
  readonly metricsToken: string | undefined;
  /** `OTEL_DENO`. */
  readonly spans: boolean;
}

/** The observer's settings from the server's (parsed and checked already). */
export function observeSettings(values: ObserveSettingValues): ObserveSettings {
  return {
    accessLog: { format: values.accessLogFormat, sample: values.accessLogSample },
    metricsToken: values.metricsToken,
    spans: values.spans,
  };
}

/** What the app knows about a request when it answers. */
export interface RequestFacts {
  /** The request's method. */
  readonly method: string;
  /** The id of the key that authenticated, if any. */
  readonly keyId?: string;
  /** The domain whose logo was served, if any. */
  readonly servedDomain?: string;
  /** How the body came about; default `none`. */
  readonly outcome?: RenderOutcome;
  /** Body bytes of an image answer (a `GET` 200's body has no `Content-Length` yet). */
  readonly bytes?: number;
}

/** One request being observed. */
export interface Observation {
  /** The request path entered step `name`. */
  step(name: StepName): void;
  /** The request was answered with `response`. */
  finish(response: Response, facts: RequestFacts): void;
}

/** The request path's reports; see the module documentation. */
export interface RequestObserver {
  /** Starts observing a request. */
  begin(request: Request): Observation;
  /**
   * The answer to `GET /metrics` when the endpoint is on and `request` is for it, else undefined.
   *
   * @throws {HttpError} 401 without the right bearer token.
   */
  answer(request: Request): Promise<Response> | undefined;
  /** Records a render (a variant-cache miss) that took `seconds`. */
  render(kind: RenderKind, seconds: number): void;
  /** The metrics, for the app to {@link Metrics.watch} its counters. */
  readonly metrics: Metrics | undefined;
}

/** Options of {@link createObserver}. */
export interface ObserverOptions {
  /** Which reports are on. */
  settings: ObserveSettings;
  /**
   * The metrics to record into; default none. {@link startObserver} creates them when the
   * endpoint is on.
   */
  metrics?: Metrics;
  /** Where access-log lines go; default `console.log`. */
  write?: (line: string) => void;
  /** For access-log sampling; default `Math.random`. */
  random?: () => number;
  /** Epoch-ms clock for the access log's time; default `Date.now`. */
  clock?: () => number;
  /** Image jobs waiting for a worker, for the metrics; default always 0. */
  queueDepth?: () => number;
  /** Bytes of memory by part, for the metrics (`MetricsOptions.memory`); default none. */
  memory?: () => Readonly<Record<string, number>>;
}

const NOTHING: Observation = { step() {}, finish() {} };

/** The path of an absolute URL, without its query or fragment, without parsing it whole. */
export function pathOf(url: string): string {
  const scheme = url.indexOf("://");
  const start = url.indexOf("/", scheme < 0 ? 0 : scheme + 3);
  if (start < 0) return "/";
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code === 63 /* ? */ || code === 35 /* # */) {
      end = i;
      break;
    }
  }
  return url.slice(start, end);
}

/** Body bytes `response` sends. */
function bodyBytes(response: Response, facts: RequestFacts): number {
  if (facts.method === "HEAD" || response.status === 304) return 0;
  if (facts.bytes !== undefined) return facts.bytes;
  return Number(response.headers.get("content-length") ?? 0) || 0;
}

/**
 * Creates the observer for `options.settings`, with metrics when the endpoint is on: the metrics
 * module (prom-client, slow to load: `deno task bench:serve` part 3) is imported only then, so a service without
 * `/metrics` does not pay for it at start-up.
 */
export async function startObserver(options: ObserverOptions): Promise<RequestObserver> {
  if (options.metrics !== undefined || options.settings.metricsToken === undefined) {
    return createObserver(options);
  }
  const { createMetrics } = await import("./metrics.ts");
  const metrics = createMetrics({ queueDepth: options.queueDepth, memory: options.memory });
  return createObserver({ ...options, metrics });
}

/** Creates the observer for `options.settings`, recording into `options.metrics` if given. */
export function createObserver(options: ObserverOptions): RequestObserver {
  const { settings } = options;
  const metrics = options.metrics;
  const endpoint: MetricsEndpoint | undefined = metrics === undefined
    ? undefined
    : createMetricsEndpoint(metrics, settings.metricsToken);
  const accessLog: AccessLog | undefined = createAccessLog(settings.accessLog, options);
  const spans: StepSpans | undefined = createStepSpans(settings.spans);
  const clock = options.clock ?? Date.now;

  const countOnly: Observation = {
    step() {},
    finish: (response) => metrics?.request(response.status),
  };

  function observe(request: Request): Observation {
    const arrived = clock();
    const started = performance.now();
    const trace = spans?.begin(request.method);
    return {
      step(name) {
        trace?.step(name);
      },
      finish(response, facts) {
        const durationMs = performance.now() - started;
        const status = response.status;
        metrics?.request(status);
        trace?.end(status, {
          "logo.key_id": facts.keyId ?? "",
          "logo.domain": facts.servedDomain ?? "",
          "logo.outcome": facts.outcome ?? "none",
        });
        accessLog?.({
          time: arrived,
          method: facts.method,
          path: pathOf(request.url),
          status,
          bytes: bodyBytes(response, facts),
          durationMs,
          keyId: facts.keyId,
          domain: facts.servedDomain,
          outcome: facts.outcome ?? "none",
        });
      },
    };
  }

  const perRequest = accessLog !== undefined || spans !== undefined;
  return {
    begin: perRequest ? observe : () => (metrics === undefined ? NOTHING : countOnly),
    answer: (request) => endpoint?.answer(request, pathOf(request.url)),
    render(kind, seconds) {
      metrics?.render(kind, seconds);
    },
    metrics,
  };
}

/** An observer with everything off, the app's default. */
export const NO_OBSERVER: RequestObserver = createObserver({ settings: OBSERVE_OFF });
