/**
 * The access log, `/metrics` and their settings against the real server (`src/main.ts` as a
 * child process). Lines are read after the server stopped, when all its output has been read.
 */
import assert from "node:assert/strict";
import { type MainProcess, startMainProcess } from "../support/main_process.ts";
import { USAGE } from "../../src/main.ts";

const METRICS_TOKEN = "scrape-token-0123456789abcdef";
const SECRET = "sk_0123456789abcdefghijklmnopqrstuv";

/** The demo logo's URL (with its `?token=pk_…`) printed at start-up. */
async function demoUrl(server: MainProcess): Promise<URL> {
  const line = await server.line(/^\s+http:\/\/\S+\?token=pk_/);
  return new URL(line.trim().replace("localhost", "127.0.0.1"));
}

async function get(url: URL | string, headers: HeadersInit = {}): Promise<Response> {
  const response = await fetch(url, { headers });
  await response.body?.cancel();
  return response;
}

/** The printed lines that are access-log lines of `format`. */
function accessLines(printed: string[], format: "json" | "logfmt"): string[] {
  return printed.filter((line) =>
    format === "json" ? line.startsWith('{"time"') : line.startsWith("time=")
  );
}

Deno.test("access log (json): one line per request with its facts, never a token", async () => {
  await using server = await startMainProcess({ LOGO_KV: ":memory:", LOGO_ACCESS_LOG: "json" });
  const url = await demoUrl(server);
  const token = url.searchParams.get("token")!;
  const base = `http://127.0.0.1:${server.port}`;
  assert.equal((await get(url)).status, 200); // stored default rendition
  const sized = new URL(url);
  sized.searchParams.set("size", "64");
  assert.equal((await get(sized)).status, 200); // rendered
  assert.equal((await get(sized)).status, 200); // from the variant cache
  const tag = (await get(sized)).headers.get("etag")!;
  assert.equal((await get(sized, { "if-none-match": tag })).status, 304);
  assert.equal(
    (await get(`${base}/logo-lookup.test`, { authorization: `Bearer ${SECRET}` })).status,
    401,
  );
  assert.equal((await get(`${base}/nothing-here.test?token=${token}`)).status, 404);
  assert.equal(await server.stop(), 0);

  const lines = accessLines(server.printed, "json");
  assert.equal(lines.length, 7, server.printed.join("\n"));
  // Every line after the start-up lines (the demo URL carries the demo token by design).
  const demoLine = server.printed.findIndex((line) => line.includes("?token=pk_"));
  for (const line of server.printed.slice(demoLine + 1)) {
    assert.ok(!line.includes(token), `a token in: ${line}`);
    assert.ok(!line.includes(SECRET), `a secret in: ${line}`);
    assert.ok(!line.includes("?"), `a query in: ${line}`);
  }
  const entries = lines.map((line) => JSON.parse(line));
  const outcomes = entries.map((e) => [e.status, e.outcome]);
  assert.deepEqual(outcomes, [
    [200, "stored"],
    [200, "rendered"],
    [200, "cache"],
    [200, "cache"],
    [304, "not_modified"],
    [401, "none"],
    [404, "none"],
  ]);
  const [first, , third, , notModified, unauthorized, missing] = entries;
  assert.equal(first.method, "GET");
  assert.equal(first.path, "/logo-lookup.test");
  assert.match(first.key, /^key_/);
  assert.equal(first.domain, "logo-lookup.test");
  assert.ok(first.bytes > 100, "the image's bytes");
  assert.ok(typeof first.duration_ms === "number" && first.duration_ms >= 0);
  assert.ok(Math.abs(Date.parse(first.time) - Date.now()) < 60_000);
  assert.ok(third.bytes > 0 && third.bytes !== first.bytes, "the 64 px variant's bytes");
  assert.equal(notModified.bytes, 0);
  assert.equal(unauthorized.key, null, "no key authenticated");
  assert.equal(unauthorized.bytes, "Missing or invalid token".length);
  assert.equal(missing.domain, null);
  assert.match(missing.key, /^key_/);
});

Deno.test("access log (logfmt): key=value lines; off by default", async () => {
  await using server = await startMainProcess({ LOGO_KV: ":memory:", LOGO_ACCESS_LOG: "logfmt" });
  assert.equal((await get(await demoUrl(server))).status, 200);
  assert.equal(await server.stop(), 0);
  const [line, ...more] = accessLines(server.printed, "logfmt");
  assert.deepEqual(more, []);
  assert.match(
    line,
    /^time=\S+Z method=GET path=\/logo-lookup\.test status=200 bytes=\d+ duration_ms=[\d.]+ key=key_\w+ domain=logo-lookup\.test outcome=stored$/,
  );

  await using quiet = await startMainProcess({ LOGO_KV: ":memory:" });
  assert.equal((await get(await demoUrl(quiet))).status, 200);
  assert.equal(await quiet.stop(), 0);
  assert.deepEqual(accessLines(quiet.printed, "logfmt"), []);
  assert.deepEqual(accessLines(quiet.printed, "json"), []);
});

Deno.test("access log: LOGO_ACCESS_LOG_SAMPLE=0.5 logs about half the requests", async () => {
  await using server = await startMainProcess({
    LOGO_KV: ":memory:",
    LOGO_ACCESS_LOG: "json",
    LOGO_ACCESS_LOG_SAMPLE: "0.5",
  });
  const healthz = `http://127.0.0.1:${server.port}/healthz`;
  const requests = 200;
  for (let i = 0; i < requests; i++) assert.equal((await get(healthz)).status, 200);
  assert.equal(await server.stop(), 0);
  const logged = accessLines(server.printed, "json").length;
  // Binomial(200, 0.5): outside 60..140 has a probability below 1e-8.
  assert.ok(logged >= 60 && logged <= 140, `${logged} of ${requests} logged`);
});

Deno.test("metrics: /metrics needs its bearer token, is never cached, and changes with requests", async () => {
  await using server = await startMainProcess({
    LOGO_KV: ":memory:",
    LOGO_METRICS_TOKEN: METRICS_TOKEN,
  });
  const metricsUrl = `http://127.0.0.1:${server.port}/metrics`;
  const scrape = async () => {
    const response = await fetch(metricsUrl, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("cache-control"), "no-store");
    assert.match(response.headers.get("content-type")!, /^text\/plain; version=0\.0\.4/);
    return await response.text();
  };
  const value = (text: string, series: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  };
  const refusals: Record<string, string>[] = [
    {},
    { authorization: "Bearer wrong-token-0123456789" },
    { authorization: METRICS_TOKEN },
  ];
  for (const headers of refusals) {
    const refused = await fetch(metricsUrl, { headers });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get("cache-control"), "no-store");
    assert.equal(refused.headers.get("www-authenticate"), "Bearer");
    assert.equal(await refused.text(), "Missing or invalid metrics token");
  }
  const before = await scrape();
  for (
    const name of [
      "logo_http_requests_total",
      "logo_render_duration_seconds",
      "logo_discovery_duration_seconds",
      "logo_variant_cache_hits_total",
      "logo_key_cache_hits_total",
      "logo_logo_cache_hits_total",
      "logo_rate_limit_lease_commits_total",
      "logo_image_queue_depth",
      "process_resident_memory_bytes",
    ]
  ) {
    assert.match(before, new RegExp(`^# TYPE ${name} `, "m"), name);
  }
  assert.ok(value(before, "process_resident_memory_bytes") > 1_000_000);
  const url = await demoUrl(server);
  url.searchParams.set("size", "64");
  for (let i = 0; i < 3; i++) assert.equal((await get(url)).status, 200);
  const after = await scrape();
  const delta = (series: string) => value(after, series) - value(before, series);
  assert.equal(delta('logo_http_requests_total{status="200"}'), 3 + 1, "3 logos and 1 scrape");
  assert.equal(delta('logo_http_requests_total{status="401"}'), 0);
  assert.equal(value(before, 'logo_http_requests_total{status="401"}'), 3);
  assert.equal(delta('logo_render_duration_seconds_count{kind="rendered"}'), 1);
  assert.equal(delta("logo_variant_cache_misses_total"), 1);
  assert.equal(delta("logo_variant_cache_hits_total"), 2);
  assert.equal(delta("logo_key_cache_misses_total"), 1);
  assert.equal(delta("logo_key_cache_hits_total"), 2);
  assert.equal(delta("logo_logo_cache_misses_total"), 1);
  assert.equal(delta("logo_rate_limit_lease_commits_total"), 1);
  assert.equal(await server.stop(), 0);
});

Deno.test("metrics: off without LOGO_METRICS_TOKEN, /metrics answers like any unknown path", async () => {
  await using server = await startMainProcess({ LOGO_KV: ":memory:" });
  const base = `http://127.0.0.1:${server.port}`;
  const auth = { authorization: `Bearer ${METRICS_TOKEN}` };
  const metrics = await fetch(`${base}/metrics`, { headers: auth });
  const unknown = await fetch(`${base}/metricz`, { headers: auth });
  assert.equal(metrics.status, unknown.status);
  assert.equal(await metrics.text(), await unknown.text());
  assert.deepEqual([...metrics.headers.keys()], [...unknown.headers.keys()]);
  assert.notEqual(metrics.status, 200);
  assert.equal(await server.stop(), 0);
});

async function startupError(
  env: Record<string, string>,
): Promise<{ code: number; stderr: string }> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "src/main.ts"],
    cwd: new URL("../..", import.meta.url).pathname,
    env: { PORT: "0", LOGO_KV: ":memory:", LOGO_DISCOVERY: "off", NO_COLOR: "1", ...env },
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code, stderr: new TextDecoder().decode(stderr).trim() };
}

Deno.test("settings: invalid operations settings stop start-up with one line naming them", async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [
      { LOGO_ACCESS_LOG: "verbose" },
      /^Invalid LOGO_ACCESS_LOG "verbose": expected off, json or logfmt$/,
    ],
    [
      { LOGO_ACCESS_LOG_SAMPLE: "2" },
      /^Invalid LOGO_ACCESS_LOG_SAMPLE "2": expected a number above 0 and at most 1$/,
    ],
    [{ LOGO_METRICS_TOKEN: "short" }, /^Invalid LOGO_METRICS_TOKEN: expected at least 16 /],
    [{ LOGO_METRICS_TOKEN: "has a space in the middle" }, /^Invalid LOGO_METRICS_TOKEN: /],
  ];
  for (const [env, message] of cases) {
    const { code, stderr } = await startupError(env);
    assert.equal(code, 1, stderr);
    assert.match(stderr, message);
    assert.equal(stderr.split("\n").length, 1, stderr);
  }
});

Deno.test("settings: USAGE lists every operations setting", () => {
  for (
    const name of ["LOGO_ACCESS_LOG", "LOGO_ACCESS_LOG_SAMPLE", "LOGO_METRICS_TOKEN", "OTEL_DENO"]
  ) {
    assert.match(USAGE, new RegExp(`^ {2}${name}\\b`, "m"), name);
  }
});
