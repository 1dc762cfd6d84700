/**
 * What operations cost a request: the in-process handler answering a cached 64 px variant with
 * the observer off (the default), with each report on, and with everything on; plus prom-client's
 * own costs. Spans are made through `@opentelemetry/api` without `OTEL_DENO`, so the "spans"
 * case measures the API's no-op tracer — the cost the server would pay if it made spans while
 * export is off (it does not: without `OTEL_DENO` no span object is made at all).
 *
 *     deno bench --config deno.dev.json -A bench/observe_bench.ts
 *
 * @module
 */
import { createMetrics } from "../src/observe/metrics.ts";
import {
  createObserver,
  OBSERVE_OFF,
  type ObserveSettings,
} from "../src/observe/request_observer.ts";
import { STEPS } from "../src/observe/step_spans.ts";
import { startTestApp, type TestServer } from "../test/support/server.ts";
import { iconPng } from "../test/support/images.ts";

const TOKEN = "bench-scrape-token-0123456789";

async function appWith(settings: ObserveSettings): Promise<TestServer> {
  const observer = createObserver({ settings, write: () => {} });
  const server = await startTestApp({ app: { observer }, limit: 1_000_000_000, window: 3600 });
  await server.addLogo("example.com", iconPng(256, 256));
  return server;
}

const cases: [string, ObserveSettings][] = [
  ["off (default)", OBSERVE_OFF],
  ["metrics", { ...OBSERVE_OFF, metricsToken: TOKEN }],
  ["access log json", { ...OBSERVE_OFF, accessLog: { format: "json", sample: 1 } }],
  ["access log logfmt", { ...OBSERVE_OFF, accessLog: { format: "logfmt", sample: 1 } }],
  ["spans, no OTEL_DENO", { ...OBSERVE_OFF, spans: true }],
  ["all on", {
    accessLog: { format: "json", sample: 1 },
    metricsToken: TOKEN,
    spans: true,
  }],
];

for (const [name, settings] of cases) {
  const server = await appWith(settings);
  const url = server.logoUrl("example.com", { size: "64" });
  await (await server.fetch(url)).arrayBuffer(); // rendered once, then a cache hit
  Deno.bench({
    name,
    group: "handler, cached variant",
    baseline: name === "off (default)",
    async fn() {
      const response = await server.fetch(url);
      await response.arrayBuffer();
    },
  });
}

// The observer alone, as the handler drives it for one served request: begin, seven steps, finish.
const request = new Request(
  "http://localhost/example.com?token=pk_0123456789abcdefghijklmn&size=64",
);
const response = new Response(new Uint8Array(3_000));
const facts = {
  method: "GET",
  keyId: "key_0123456789abcdef",
  servedDomain: "example.com",
  outcome: "cache",
  bytes: 3_000,
} as const;
for (const [name, settings] of cases) {
  const observer = createObserver({ settings, write: () => {} });
  Deno.bench({
    name,
    group: "observer per request",
    baseline: name === "off (default)",
    fn() {
      const observation = observer.begin(request);
      for (const step of STEPS) observation.step(step);
      observation.finish(response, facts);
    },
  });
}

const metrics = createMetrics();
Deno.bench({
  name: "request counter, by status",
  group: "prom-client",
  fn: () => metrics.request(200),
});
Deno.bench({
  name: "render histogram observe",
  group: "prom-client",
  fn: () => metrics.render("rendered", 0.004),
});
Deno.bench({
  name: "scrape (text exposition)",
  group: "prom-client",
  async fn() {
    await metrics.text();
  },
});
