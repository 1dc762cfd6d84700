/**
 * The step spans against the real server: `src/main.ts` runs with `OTEL_DENO=true` and exports
 * OTLP/HTTP JSON to a receiver in this test, which collects every span it is sent.
 */
import assert from "node:assert/strict";
import { startMainProcess } from "../support/main_process.ts";
import { REQUEST_SPAN, STEPS } from "../../src/observe/step_spans.ts";

interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  scope: string;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

/** An OTLP/HTTP receiver (JSON encoding) on a free port, collecting trace spans. */
function startReceiver() {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const listeners = new Set<() => void>();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const text = await request.text();
    bodies.push(text);
    if (new URL(request.url).pathname === "/v1/traces") {
      const body = JSON.parse(text);
      for (const resource of body.resourceSpans ?? []) {
        for (const scoped of resource.scopeSpans ?? []) {
          for (const span of scoped.spans ?? []) {
            const attributes: Record<string, unknown> = {};
            for (const { key, value } of span.attributes ?? []) {
              const v = value as OtlpValue;
              attributes[key] = v.stringValue ?? v.intValue ?? v.doubleValue ?? v.boolValue;
            }
            spans.push({
              name: span.name,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? "",
              scope: scoped.scope?.name ?? "",
              attributes,
            });
          }
        }
      }
      for (const listener of listeners) listener();
    }
    return Response.json({});
  });
  /** Resolves once `ready(spans)` holds. */
  const until = (ready: (spans: ReceivedSpan[]) => boolean): Promise<void> => {
    if (ready(spans)) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    const listener = () => {
      if (ready(spans)) {
        listeners.delete(listener);
        resolve();
      }
    };
    listeners.add(listener);
    return promise;
  };
  return { spans, bodies, until, port: server.addr.port, close: () => server.shutdown() };
}

Deno.test("spans: with OTEL_DENO=true each request exports a request span with one child per step", async () => {
  const receiver = startReceiver();
  try {
    await using server = await startMainProcess({
      LOGO_KV: ":memory:",
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_DENO_CONSOLE: "ignore",
      OTEL_BSP_SCHEDULE_DELAY: "100", // export every 100 ms instead of 5 s
    });
    const line = await server.line(/^\s+http:\/\/\S+\?token=pk_/);
    const url = new URL(line.trim().replace("localhost", "127.0.0.1"));
    const token = url.searchParams.get("token")!;
    const ok = await fetch(url);
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    const secret = "sk_0123456789abcdefghijklmnopqrstuv";
    const refused = await fetch(url, { headers: { authorization: `Bearer ${secret}` } });
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
    const missing = await fetch(`http://127.0.0.1:${server.port}/nothing.test?token=${token}`);
    assert.equal(missing.status, 404);
    await missing.body?.cancel();

    const requests = (spans: ReceivedSpan[]) => spans.filter((s) => s.name === REQUEST_SPAN);
    // Spans are exported when their batch is due, or at exit: wait for both requests' spans.
    await receiver.until((spans) =>
      requests(spans).length >= 3 &&
      requests(spans).every((root) =>
        spans.filter((s) => s.parentSpanId === root.spanId).length >=
          {
            200: STEPS.length,
            401: 3,
            404: 6,
          }[Number(root.attributes["http.response.status_code"])]!
      )
    );
    const [served, unauthorized, notFound] = requests(receiver.spans).sort((a, b) =>
      Number(a.attributes["http.response.status_code"]) -
      Number(b.attributes["http.response.status_code"])
    );
    const children = (root: ReceivedSpan) =>
      receiver.spans.filter((s) => s.parentSpanId === root.spanId);
    assert.deepEqual(children(served).map((s) => s.name).sort(), [...STEPS].sort());
    for (const child of children(served)) {
      assert.equal(child.traceId, served.traceId, "same trace as the request");
      assert.equal(child.scope, "logo-lookup");
    }
    assert.equal(served.attributes["logo.domain"], "logo-lookup.test");
    assert.equal(served.attributes["logo.outcome"], "stored");
    assert.match(String(served.attributes["logo.key_id"]), /^key_/);
    assert.equal(Number(served.attributes["http.response.status_code"]), 200);
    // The failed request stops at resolve and answers: no render span.
    assert.deepEqual(
      children(notFound).map((s) => s.name).sort(),
      ["authenticate", "limit", "parse", "resolve", "respond", "restrict"].sort(),
    );
    assert.equal(Number(notFound.attributes["http.response.status_code"]), 404);
    assert.deepEqual(children(unauthorized).map((s) => s.name).sort(), [
      "authenticate",
      "parse",
      "respond",
    ]);
    assert.equal(unauthorized.attributes["logo.key_id"], "");
    // Our spans never carry a token; no exported span (Deno's own `GET` server spans included,
    // which do record the URL with its `?token=pk_…`) carries the Authorization header.
    for (const span of receiver.spans.filter((s) => s.scope === "logo-lookup")) {
      assert.ok(!JSON.stringify(span).includes(token), JSON.stringify(span));
    }
    for (const body of receiver.bodies) assert.ok(!body.includes(secret));
    assert.equal(await server.stop(), 0);
  } finally {
    await receiver.close();
  }
});
