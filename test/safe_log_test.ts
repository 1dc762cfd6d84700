/**
 * No log line carries a query string or a token, whatever fails (issue #10 item 2): the app's one
 * log gate strips them from the message and from the error's message, stack and causes.
 */
import assert from "node:assert/strict";
import { redactError, redactSecrets } from "../src/safe_log.ts";
import { failingLimiter } from "./support/failing_limiter.ts";
import { startTestApp } from "./support/server.ts";

const SECRET = "sk_AbCdEfGhIjKlMnOpQrStUvWx";
const PUBLISHABLE = "pk_AbCdEfGhIjKlMnOpQrStUvWx";

/** What a log line must never contain. */
const FORBIDDEN = [/token=/i, /[ps]k_[0-9a-z]/i, /\?[^\s]*=/];

function assertClean(text: string): void {
  for (const pattern of FORBIDDEN) assert.doesNotMatch(text, pattern);
}

Deno.test("redactSecrets removes query strings, token parameters and key tokens", () => {
  const cases: [string, string][] = [
    [
      `Invalid URL: 'http://a b/example.com?size=64&token=${SECRET}'`,
      "Invalid URL: 'http://a b/example.com[query removed]'",
    ],
    [`body token=${PUBLISHABLE}&size=1`, "body [token removed]&size=1"],
    [`Authorization: Bearer ${SECRET}`, "Authorization: Bearer [token removed]"],
    ["is it up? yes", "is it up? yes"],
  ];
  for (const [input, expected] of cases) assert.equal(redactSecrets(input), expected);
});

Deno.test("redactError keeps the error's name and redacts its message, stack and causes", () => {
  const cause = new RangeError(`inner ${SECRET}`);
  const error = new TypeError(`Invalid URL: 'http://x/?token=${PUBLISHABLE}'`, { cause });
  const safe = redactError(error) as Error;
  assert.equal(safe.name, "TypeError");
  assert.equal(safe.message, "Invalid URL: 'http://x/[query removed]'");
  assertClean(safe.stack ?? "");
  assert.equal((safe.cause as Error).message, "inner [token removed]");
  assertClean(redactError({ url: `http://x/y?token=${SECRET}` }) as string);
});

Deno.test("an unexpected error quoting a URL with a token is logged without it", async () => {
  const logged: unknown[][] = [];
  const failure = new TypeError(`Invalid URL: 'http://a b/example.com?token=${SECRET}'`);
  const limiter = failingLimiter(failure);
  await using server = await startTestApp({
    app: { limiter, log: (...args) => logged.push(args) },
  });
  const result = await server.exchange(server.logoUrl("example.com"));
  assert.equal(result.status, 500);
  assert.equal(result.text, "Internal server error");
  assert.equal(logged.length, 1);
  const printed = logged[0].map((value) => Deno.inspect(value)).join(" ");
  assert.match(printed, /Invalid URL: 'http:\/\/a b\/example\.com\[query removed\]'/);
  assertClean(printed);
});
