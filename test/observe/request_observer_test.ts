import assert from "node:assert/strict";
import { createMetrics } from "../../src/observe/metrics.ts";
import {
  createObserver,
  OBSERVE_OFF,
  observeSettings,
  pathOf,
} from "../../src/observe/request_observer.ts";
import { readSettings } from "../../src/settings/read_settings.ts";

Deno.test("observer: pathOf keeps the path alone", () => {
  assert.equal(pathOf("http://h/example.com?token=pk_1&size=64"), "/example.com");
  assert.equal(pathOf("http://h:8000/a/b#frag"), "/a/b");
  assert.equal(pathOf("http://h/"), "/");
  assert.equal(pathOf("http://h"), "/");
  assert.equal(pathOf("http://h/?x=/y"), "/");
});

Deno.test("observer: settings from the environment, all off by default", () => {
  assert.deepEqual(observeSettings(readSettings({}, "serve")), OBSERVE_OFF);
  const env: Record<string, string> = {
    LOGO_ACCESS_LOG: "logfmt",
    LOGO_ACCESS_LOG_SAMPLE: "0.1",
    LOGO_METRICS_TOKEN: "0123456789abcdef",
    OTEL_DENO: "true",
  };
  assert.deepEqual(observeSettings(readSettings(env, "serve")), {
    accessLog: { format: "logfmt", sample: 0.1 },
    metricsToken: "0123456789abcdef",
    spans: true,
  });
  assert.equal(createObserver({ settings: OBSERVE_OFF }).metrics, undefined, "no metrics kept");
});

Deno.test("observer: a line per finished request; HEAD and 304 send no body bytes", () => {
  const lines: string[] = [];
  let now = 0;
  const observer = createObserver({
    settings: { ...OBSERVE_OFF, accessLog: { format: "json", sample: 1 } },
    write: (line) => lines.push(line),
    clock: () => now,
  });
  const request = (method: string) =>
    new Request("http://h/example.com?token=pk_secret123", { method });
  const answers: [string, Response, number | undefined][] = [
    ["GET", new Response("12345"), 5],
    ["HEAD", new Response(null, { headers: { "content-length": "5" } }), 5],
    ["GET", new Response(null, { status: 304 }), undefined],
    [
      "GET",
      new Response("Logo not found", { status: 404, headers: { "content-length": "14" } }),
      undefined,
    ],
  ];
  for (const [method, response, bytes] of answers) {
    now += 1000;
    const observation = observer.begin(request(method));
    observation.step("parse");
    observation.finish(response, { method, bytes, outcome: "none" });
  }
  const entries = lines.map((line) => JSON.parse(line));
  assert.deepEqual(entries.map((e) => e.bytes), [5, 0, 0, 14]);
  assert.deepEqual(entries.map((e) => e.path), Array(4).fill("/example.com"));
  assert.equal(entries[0].time, new Date(1000).toISOString());
  assert.ok(lines.every((line) => !line.includes("pk_secret")));
});

Deno.test("observer: with metrics alone, requests are counted by status", async () => {
  const metrics = createMetrics({ rss: () => 42, queueDepth: () => 7 });
  const observer = createObserver({ settings: OBSERVE_OFF, metrics });
  for (const status of [200, 200, 429]) {
    observer.begin(new Request("http://h/x.com")).finish(new Response(null, { status }), {
      method: "GET",
    });
  }
  const text = await metrics.text();
  assert.match(text, /^logo_http_requests_total\{status="200"\} 2$/m);
  assert.match(text, /^logo_http_requests_total\{status="429"\} 1$/m);
  assert.match(text, /^logo_image_queue_depth 7$/m);
  assert.match(text, /^process_resident_memory_bytes 42$/m);
  assert.equal(
    observer.answer(new Request("http://h/metrics")),
    undefined,
    "no token: no endpoint",
  );
});
