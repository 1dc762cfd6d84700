/**
 * OpenTelemetry spans for the request path, made through `@opentelemetry/api`: with
 * `OTEL_DENO=true`, Deno registers its built-in tracer provider with that API and exports the
 * spans over OTLP (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_PROTOCOL`). Each request
 * gets a `logo.request` span and, as its children, one span per step it reached: `parse`,
 * `authenticate`, `restrict`, `limit`, `resolve`, `render`, `respond`. Off (the default), no span
 * object is made at all: {@link createStepSpans} returns `undefined` and the request path skips it.
 *
 * @example
 * ```ts
 * import { createStepSpans } from "./step_spans.ts";
 * const spans = createStepSpans(true);
 * const trace = spans?.begin("GET");
 * trace?.step("parse");
 * trace?.end(200, { "logo.domain": "example.com" });
 * ```
 * @module
 */
import { type Attributes, context, type Span, SpanKind, trace } from "@opentelemetry/api";

/** The steps of the request path, in order (see `src/http/app.ts`). */
export const STEPS = [
  "parse",
  "authenticate",
  "restrict",
  "limit",
  "resolve",
  "render",
  "respond",
] as const;

/** One step of the request path. */
export type StepName = typeof STEPS[number];

/** The name of the span that holds a request's steps. */
export const REQUEST_SPAN = "logo.request";

/** The spans of one request. */
export interface RequestSpans {
  /** Ends the current step's span (if any) and starts `name`'s, a child of the request's. */
  step(name: StepName): void;
  /** Ends the current step's span and the request's, which gets `status` and `attributes`. */
  end(status: number, attributes: Attributes): void;
}

/** Makes {@link RequestSpans}. */
export interface StepSpans {
  /** Starts the request span of a request with `method`. */
  begin(method: string): RequestSpans;
}

/** Whether `OTEL_DENO` turns Deno's OpenTelemetry export on (`true` or `1`, as Deno reads it). */
export function otelEnabled(value: string | undefined): boolean {
  const text = (value ?? "").trim().toLowerCase();
  return text === "true" || text === "1";
}

/** Spans for the request path when `enabled`, else `undefined` (no cost per request). */
export function createStepSpans(enabled: boolean): StepSpans | undefined {
  if (!enabled) return undefined;
  const tracer = trace.getTracer("logo-lookup");
  return {
    begin(method) {
      const root = tracer.startSpan(REQUEST_SPAN, {
        kind: SpanKind.INTERNAL,
        attributes: { "http.request.method": method },
      });
      const parent = trace.setSpan(context.active(), root);
      let current: Span | undefined;
      return {
        step(name) {
          current?.end();
          current = tracer.startSpan(name, undefined, parent);
        },
        end(status, attributes) {
          current?.end();
          current = undefined;
          root.setAttributes(attributes);
          root.setAttribute("http.response.status_code", status);
          root.end();
        },
      };
    },
  };
}
