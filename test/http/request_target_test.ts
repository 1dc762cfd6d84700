/**
 * The domain and options come from the request target alone; a malformed `Host` header is a 400
 * (issue #9 item 3). Raw requests over TCP, because `fetch` cannot send such a `Host`.
 */
import assert from "node:assert/strict";
import { createHostCheck, isValidHost, requestTarget } from "../../src/http/request_target.ts";
import { HttpError } from "../../src/http_error.ts";
import { flatImage } from "../support/images.ts";
import { rawExchange, type RawResult } from "../support/raw_http.ts";
import { startTestServer } from "../support/server.ts";

const LOGO = flatImage(160, 80, [0, 120, 200, 255]);

/** The `Host` values of the issue, and more of the kind. */
const BAD_HOSTS = [
  "exa mple.com",
  "[::1",
  "%zz",
  "x:99999",
  "@",
  "a b",
  "h/example.org?token=pk_000000000000000000000000",
  "user@host",
  "host#frag",
  "h?x=1",
  "host\\x",
  "a\tb",
  "x:-1",
  ":80",
  "a%2fb",
  `${"a".repeat(300)}.com`,
];

function port(url: string): number {
  return Number(new URL(url).port);
}

function describe(result: RawResult): string {
  return result.kind === "response" ? `${result.status} ${result.text}` : `closed ${result.error}`;
}

Deno.test("isValidHost accepts host[:port] forms and refuses what is not one", () => {
  for (const host of ["", "localhost", "localhost:8000", "127.0.0.1:0", "[::1]:80", "Ex.COM."]) {
    assert.equal(isValidHost(host), true, host);
  }
  for (const host of BAD_HOSTS) assert.equal(isValidHost(host), false, host);
});

Deno.test("the Host check throws 400 Invalid Host header, and lets an absent Host pass", () => {
  const checkHost = createHostCheck();
  checkHost(null);
  checkHost("logos.example.com");
  checkHost("logos.example.com"); // remembered
  for (const host of BAD_HOSTS) {
    assert.throws(
      () => checkHost(host),
      (error) =>
        error instanceof HttpError && error.status === 400 &&
        error.publicMessage === "Invalid Host header",
      host,
    );
  }
});

Deno.test("requestTarget is the path and query after the authority, always from /", () => {
  assert.equal(requestTarget("http://a:8000/example.com?size=64"), "/example.com?size=64");
  assert.equal(requestTarget("http://a//example.com"), "//example.com");
  assert.equal(requestTarget("http://evil.org?token=x"), "/?token=x");
  assert.equal(requestTarget("https://evil.org"), "/");
  assert.throws(() => requestTarget("example.com:443"), HttpError);
});

Deno.test("a malformed Host header answers 400 Invalid Host header, never a 500", async () => {
  await using server = await startTestServer();
  await server.addLogo("example.com", LOGO);
  for (const host of BAD_HOSTS) {
    for (const method of ["GET", "HEAD", "OPTIONS", "POST"]) {
      const request = `${method} /example.com?token=${server.publishableKey} HTTP/1.1\r\n` +
        `Host: ${host}\r\nConnection: close\r\n\r\n`;
      const result = await rawExchange(port(server.url), request);
      assert.ok(result.kind === "response", `${method} Host ${host}: ${describe(result)}`);
      assert.equal(
        result.status,
        400,
        `${method} Host ${JSON.stringify(host)}: ${describe(result)}`,
      );
      assert.equal(result.text, method === "HEAD" ? "" : "Invalid Host header");
    }
  }
});

Deno.test("a crafted Host cannot change the served domain or the query", async () => {
  await using server = await startTestServer();
  await server.addLogo("example.com", LOGO);
  await server.addLogo("example.org", flatImage(40, 40, [200, 0, 0, 255]));
  // With a bad token in the real query, a Host smuggling a good one must not authenticate either.
  const smuggled = `h/example.org?token=${server.publishableKey}&x=`;
  const result = await rawExchange(
    port(server.url),
    `GET /example.com?token=pk_000000000000000000000000 HTTP/1.1\r\nHost: ${smuggled}\r\n` +
      "Connection: close\r\n\r\n",
  );
  assert.ok(result.kind === "response", describe(result));
  assert.equal(result.status, 400, describe(result));
  assert.equal(result.text, "Invalid Host header");
  assert.equal(result.headers.get("x-logo-domain"), null);
});

Deno.test("absolute-form targets: the path and query are read, the authority ignored", async () => {
  await using server = await startTestServer();
  await server.addLogo("example.com", LOGO);
  const token = server.publishableKey;
  const cases: [string, number, string | null][] = [
    [`http://example.org/example.com?token=${token}`, 200, "example.com"],
    [`https://evil.example:99999/example.com?token=${token}`, 200, "example.com"],
    // an empty path is `/`: the page (src/http/home_page.ts), whatever the authority says
    [`http://example.com?token=${token}`, 200, null],
    [`http://example.com`, 200, null],
  ];
  for (const [target, status, domain] of cases) {
    const result = await rawExchange(
      port(server.url),
      `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    );
    assert.ok(result.kind === "response", `${target}: ${describe(result)}`);
    assert.equal(result.status, status, `${target}: ${describe(result)}`);
    assert.equal(result.headers.get("x-logo-domain"), domain, target);
  }
});

Deno.test("a good Host of any spelling, an empty one or none at all serves the target", async () => {
  await using server = await startTestServer();
  await server.addLogo("example.com", LOGO);
  const target = `/example.com?token=${server.publishableKey}`;
  const hostLines = ["Host: [::1]:80\r\n", "Host: EXAMPLE.org.\r\n", "Host:\r\n", ""];
  for (const hostLine of hostLines) {
    for (const version of ["HTTP/1.1", "HTTP/1.0"]) {
      const result = await rawExchange(
        port(server.url),
        `GET ${target} ${version}\r\n${hostLine}Connection: close\r\n\r\n`,
      );
      const name = `${version} ${JSON.stringify(hostLine)}`;
      assert.ok(result.kind === "response", `${name}: ${describe(result)}`);
      assert.equal(result.status, 200, `${name}: ${describe(result)}`);
      assert.equal(result.headers.get("x-logo-domain"), "example.com", name);
    }
  }
});
