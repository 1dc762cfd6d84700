/**
 * Issue #30 item 4: a token written percent-encoded (`/sk%5F…`, `/%73k_…`), double-encoded
 * (`%255F`), with mixed-case escapes, or split by encoded characters never reaches a log line —
 * neither the access log (`LOGO_ACCESS_LOG=json|logfmt`) nor the app's log (`safeLog`) —
 * wherever it hides in a request: the path, the query, `Host`, `Referer` (and the method).
 *
 * The leak check is independent of the redaction: a line is decoded until nothing changes, reduced
 * to its letters and digits, and must not contain any 8 consecutive characters of the token's
 * random part.
 */
import assert from "node:assert/strict";
import { redactError, redactSecrets, safeLog, TOKEN_REMOVED } from "../../src/safe_log.ts";
import { jsonLine, logfmtLine } from "../../src/observe/access_log.ts";
import { createObserver, OBSERVE_OFF } from "../../src/observe/request_observer.ts";
import { rawExchange } from "../support/raw_http.ts";
import { startTestServer } from "../support/server.ts";

/** `%XX` for `char`, hex digits upper- or lower-case. */
function escape(char: string, upper = true): string {
  const hex = char.charCodeAt(0).toString(16).padStart(2, "0");
  return `%${upper ? hex.toUpperCase() : hex.toLowerCase()}`;
}

/** A token written every way a client (or a confused user) might put it in a URL or header. */
function encodings(token: string): Record<string, string> {
  const [p, k] = token;
  const body = token.slice(3);
  const head = body.slice(0, 12);
  const tail = body.slice(12);
  const split = (between: string) => `${p}${k}_${head}${between}${tail}`;
  return {
    "plain": token,
    "upper-case prefix": `${p.toUpperCase()}${k.toUpperCase()}_${body}`,
    "_ encoded": `${p}${k}%5F${body}`,
    "_ encoded lower-case": `${p}${k}%5f${body}`,
    "first letter encoded": `${escape(p)}${k}_${body}`,
    "prefix encoded, mixed case": `${escape(p, false)}${escape(k)}%5f${body}`,
    "every character encoded, mixed case": [...token].map((c, i) => escape(c, i % 2 === 0))
      .join(""),
    "_ double-encoded": `${p}${k}%255F${body}`,
    "first letter double-encoded": `%25${escape(p).slice(1)}${k}_${body}`,
    "_ triple-encoded": `${p}${k}%25255f${body}`,
    "every character double-encoded": [...token].map((c) => `%25${escape(c).slice(1)}`).join(""),
    "split by an encoded token character": `${p}${k}_${head}${escape(tail[0])}${tail.slice(1)}`,
    "split by %00": split("%00"),
    "split by %0A": split("%0A"),
    "split by %09": split("%09"),
    "split by %20": split("%20"),
    "split by %2F": split("%2F"),
    "split by %2e": split("%2e"),
    "split by %2500": split("%2500"),
    "split by an encoded soft hyphen": split("%C2%AD"),
    "split by an encoded zero-width space": split("%e2%80%8b"),
    "prefix split by %00": `${p}%00${k}%00_${body}`,
  };
}

/** `text` decoded until it no longer changes (JSON escapes too), letters and digits only. */
function skeleton(text: string): string {
  let decoded = text
    .replace(/\\u([0-9a-f]{4})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\./g, " ");
  for (let round = 0; round < 16; round++) {
    const next = decoded.replace(
      /%([0-9a-f]{2})/gi,
      (_, hex) => String.fromCharCode(parseInt(hex, 16)),
    );
    if (next === decoded) break;
    decoded = next;
  }
  return decoded.replace(/[^0-9a-z]/gi, "");
}

/** Whether `text` carries 8 consecutive characters of `token`'s random part, in any encoding. */
function leaks(text: string, token: string): boolean {
  const letters = skeleton(text);
  const body = token.slice(3);
  for (let i = 0; i + 8 <= body.length; i++) {
    if (letters.includes(body.slice(i, i + 8))) return true;
  }
  return false;
}

const SECRET = "sk_Q7wErTy0UiOp9AsDfGh1JkLz";
const PUBLISHABLE = "pk_M4nBvCx2ZlKj8HgFdSa5PoIu";

Deno.test("the leak check finds every encoding of a token and nothing else", () => {
  for (const token of [SECRET, PUBLISHABLE]) {
    for (const [name, written] of Object.entries(encodings(token))) {
      assert.ok(leaks(`GET /${written}`, token), name);
    }
  }
  assert.ok(!leaks(`GET /example.com ${TOKEN_REMOVED}`, SECRET));
});

Deno.test("redactSecrets removes a token written percent-encoded, after decoding", () => {
  const cases: [string, string][] = [
    ["/sk%5FAbCd1234EfGh", `/${TOKEN_REMOVED}`],
    ["/sk%5fAbCd1234EfGh", `/${TOKEN_REMOVED}`],
    ["/%73k_AbCd1234EfGh", `/${TOKEN_REMOVED}`],
    ["/%70%4B%5fAbCd1234EfGh/x", `/${TOKEN_REMOVED}/x`],
    ["/sk%255FAbCd1234EfGh", `/${TOKEN_REMOVED}`],
    ["/%2573k%25255fAbCd1234EfGh", `/${TOKEN_REMOVED}`],
    ["/sk_AbCd%31234EfGh", `/${TOKEN_REMOVED}`],
    ["/sk_AbCd%0A1234EfGh.example", `/${TOKEN_REMOVED}.example`],
    ["/sk_AbCd%C2%AD1234EfGh", `/${TOKEN_REMOVED}`],
    ["/example.com%2Fsk%5fAbCd", `/example.com%2F${TOKEN_REMOVED}`],
    ["/x/token%3Dabc%26size=64", `/x/${TOKEN_REMOVED}%26size=64`],
    ["/x/%74oken=abc", `/x/${TOKEN_REMOVED}`],
    // Encoded 500 times over: decoded in one pass, whatever the depth.
    [`/%${"25".repeat(500)}73k_AbCd1234EfGh`, `/${TOKEN_REMOVED}`],
    // Text without a token keeps its encoding.
    ["/caf%C3%A9.example/a%20b%2Fc", "/caf%C3%A9.example/a%20b%2Fc"],
    ["/example.com/100%", "/example.com/100%"],
    ["is it up? yes", "is it up? yes"],
  ];
  for (const [input, expected] of cases) assert.equal(redactSecrets(input), expected, input);
});

Deno.test("redactSecrets leaves no part of a token in any encoding, anywhere in a line", () => {
  const failures: string[] = [];
  for (const token of [SECRET, PUBLISHABLE]) {
    for (const [name, written] of Object.entries(encodings(token))) {
      for (
        const line of [
          `GET /${written}`,
          `GET /example.com/${written}/x`,
          `GET /example.com?token=${written}&size=64`,
          `Host: ${written}.example Referer: https://app.example/${written}#${written}`,
          `Invalid URL: 'http://a b/${written}'`,
          `${written}`,
        ]
      ) {
        const redacted = redactSecrets(line);
        if (leaks(redacted, token)) failures.push(`${name}: ${line} → ${redacted}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("access-log lines and safeLog lines never carry an encoded token", () => {
  const failures: string[] = [];
  const logged: string[] = [];
  const log = safeLog((message, error) => logged.push(`${message} ${Deno.inspect(error)}`));
  for (const token of [SECRET, PUBLISHABLE]) {
    for (const [name, written] of Object.entries(encodings(token))) {
      const entry = {
        time: 0,
        method: written,
        path: `/${written}/${written}`,
        status: 400,
        bytes: 0,
        durationMs: 1,
        keyId: undefined,
        domain: undefined,
        outcome: "none" as const,
      };
      for (const line of [jsonLine(entry), logfmtLine(entry)]) {
        if (leaks(line, token)) failures.push(`access log, ${name}: ${line}`);
      }
      const cause = new Error(`cause ${written}`);
      log(`GET /${written} failed`, new TypeError(`Invalid URL: 'http://${written}/'`, { cause }));
      const safe = redactError(new Error(written)) as Error;
      if (leaks(`${safe.message} ${safe.stack}`, token)) failures.push(`redactError, ${name}`);
    }
    for (const line of logged.splice(0)) if (leaks(line, token)) failures.push(`safeLog: ${line}`);
  }
  assert.deepEqual(failures, []);
});

/** The places a token can hide in a raw request: [place, request bytes]. */
function requests(written: string, validToken: string): [string, string][] {
  const end = "Connection: close\r\n\r\n";
  const host = "Host: 127.0.0.1\r\n";
  return [
    ["path", `GET /${written} HTTP/1.1\r\n${host}${end}`],
    ["path after a domain", `GET /example.com/${written} HTTP/1.1\r\n${host}${end}`],
    ["path as a domain label", `GET /${written}.example?size=64 HTTP/1.1\r\n${host}${end}`],
    ["query", `GET /example.com?token=${written}&size=64 HTTP/1.1\r\n${host}${end}`],
    ["query, another parameter", `GET /example.com?size=64&t=${written} HTTP/1.1\r\n${host}${end}`],
    ["Host", `GET /example.com?token=${validToken} HTTP/1.1\r\nHost: ${written}\r\n${end}`],
    [
      "Host with a port",
      `GET /example.com?token=${validToken} HTTP/1.1\r\nHost: ${written}.example:80\r\n${end}`,
    ],
    [
      "Referer",
      `GET /example.com?token=${validToken} HTTP/1.1\r\n${host}` +
      `Referer: https://app.example/${written}?t=${written}\r\n${end}`,
    ],
    ["method", `${written} /example.com HTTP/1.1\r\n${host}${end}`],
  ];
}

for (const format of ["json", "logfmt"] as const) {
  Deno.test(`access log (${format}) through the server: no encoded token in any line`, async () => {
    const lines: string[] = [];
    const observer = createObserver({
      settings: { ...OBSERVE_OFF, accessLog: { format, sample: 1 } },
      write: (line) => lines.push(line),
    });
    await using server = await startTestServer({
      app: { observer, log: (message, error) => lines.push(`${message} ${Deno.inspect(error)}`) },
    });
    const port = Number(new URL(server.url).port);
    const failures: string[] = [];
    let answered = 0;
    for (const token of [server.secretKey, server.publishableKey]) {
      for (const [name, written] of Object.entries(encodings(token))) {
        for (const [place, request] of requests(written, server.publishableKey)) {
          const from = lines.length;
          const result = await rawExchange(port, request);
          if (result.kind === "response") answered++;
          for (const line of lines.slice(from)) {
            if (leaks(line, token)) failures.push(`${place}, ${name}: ${line}`);
          }
        }
      }
    }
    assert.ok(answered > 100, `the server answered ${answered} requests`);
    assert.ok(lines.length >= answered, "every answer has its access-log line");
    assert.deepEqual(failures, []);
  });
}
