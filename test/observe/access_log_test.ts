import assert from "node:assert/strict";
import {
  type AccessEntry,
  createAccessLog,
  jsonLine,
  logfmtLine,
  parseAccessLogSettings,
} from "../../src/observe/access_log.ts";

const entry: AccessEntry = {
  time: Date.UTC(2026, 0, 2, 3, 4, 5, 6),
  method: "GET",
  path: "/example.com",
  status: 200,
  bytes: 1234,
  durationMs: 1.23456,
  keyId: "key_abc",
  domain: "example.com",
  outcome: "cache",
};

Deno.test("access log: JSON line has every field", () => {
  assert.deepEqual(JSON.parse(jsonLine(entry)), {
    time: "2026-01-02T03:04:05.006Z",
    method: "GET",
    path: "/example.com",
    status: 200,
    bytes: 1234,
    duration_ms: 1.23,
    key: "key_abc",
    domain: "example.com",
    outcome: "cache",
  });
  const absent = JSON.parse(jsonLine({ ...entry, keyId: undefined, domain: undefined }));
  assert.equal(absent.key, null);
  assert.equal(absent.domain, null);
});

Deno.test("access log: logfmt line quotes what needs quoting and leaves absent values empty", () => {
  assert.equal(
    logfmtLine(entry),
    "time=2026-01-02T03:04:05.006Z method=GET path=/example.com status=200 bytes=1234 " +
      "duration_ms=1.23 key=key_abc domain=example.com outcome=cache",
  );
  const odd = logfmtLine({ ...entry, path: '/a b"=c', keyId: undefined, outcome: "none" });
  assert.match(odd, / path="\/a b\\"=c" /);
  assert.match(odd, / key= domain=/);
});

Deno.test("access log: token-shaped text in the path is removed", () => {
  const line = jsonLine({ ...entry, path: "/example.com/pk_0123456789abcdef" });
  assert.doesNotMatch(line, /pk_0123/);
  assert.match(line, /\[token removed\]/);
});

Deno.test("access log: settings — off by default, formats, sample share", () => {
  assert.deepEqual(parseAccessLogSettings(undefined, undefined), { format: undefined, sample: 1 });
  assert.deepEqual(parseAccessLogSettings("off", ""), { format: undefined, sample: 1 });
  assert.deepEqual(parseAccessLogSettings(" JSON ", "0.25"), { format: "json", sample: 0.25 });
  assert.deepEqual(parseAccessLogSettings("logfmt", "1"), { format: "logfmt", sample: 1 });
  assert.equal(createAccessLog(parseAccessLogSettings("off", undefined)), undefined);
});

Deno.test("access log: invalid settings name themselves", () => {
  assert.throws(
    () => parseAccessLogSettings("yes", undefined),
    /^Error: Invalid LOGO_ACCESS_LOG "yes"/,
  );
  for (const sample of ["0", "-0.5", "1.5", "abc", "NaN", "Infinity"]) {
    assert.throws(
      () => parseAccessLogSettings("json", sample),
      /Invalid LOGO_ACCESS_LOG_SAMPLE .*above 0 and at most 1/,
      sample,
    );
  }
});

Deno.test("access log: sampling writes the share of lines whose draw is below it", () => {
  const lines: string[] = [];
  const draws = [0.05, 0.5, 0.09, 0.1, 0.99];
  const log = createAccessLog(parseAccessLogSettings("json", "0.1"), {
    write: (line) => lines.push(line),
    random: () => draws.shift()!,
  })!;
  for (let i = 0; i < 5; i++) log({ ...entry, status: 200 + i });
  assert.deepEqual(lines.map((line) => JSON.parse(line).status), [200, 202]);
});
