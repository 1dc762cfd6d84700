/**
 * The malformed-request corpus (test/fixtures/malformed_requests/) against the real server: the
 * real `src/main.ts` (`Deno.serve`) as a child process on a temporary KV, each request sent raw
 * over TCP. Every answer has its documented status and body, none is a 5xx; pipelined requests are
 * answered in order and no smuggling attempt gets a request through; what is no request yet gets
 * no answer while others are served; and nothing the server prints — stdout and stderr, from start
 * to stop — contains a query string or a token (issues #9, #10 and #29).
 */
import assert from "node:assert/strict";
import {
  type Answer,
  CORPUS,
  type CorpusEntry,
  type ExchangeEntry,
  EXCHANGES,
  WAITING,
} from "../fixtures/malformed_requests/mod.ts";
import { prepareCorpusStore } from "../support/corpus_store.ts";
import { exchangeUntilClosed } from "../support/exchange_until_closed.ts";
import { latin1 } from "../support/latin1.ts";
import { startMainProcess } from "../support/main_process.ts";
import { rawExchange, type RawResult } from "../support/raw_http.ts";
import { type ReadAnswer, splitAnswers } from "../support/split_answers.ts";

/** How long the raw client holds a waiting entry's connection, watching it get no answer. */
const WAIT_MS = 300;
/** How long an exchange may take before its connection counts as left open by the server. */
const EXCHANGE_MS = 5_000;

/** What no printed line may contain: a `token=` parameter, a key token, a `?name=` query. */
const FORBIDDEN = [/token=/i, /[ps]k_[0-9a-z]/i, /\?[^\s]*=/];

/** The first bytes of each image type the corpus expects. */
const MAGIC: Record<string, number[]> = {
  "image/png": [0x89, 0x50, 0x4e, 0x47],
  "image/webp": [0x52, 0x49, 0x46, 0x46],
  "image/jpeg": [0xff, 0xd8, 0xff],
};

/** `request` with its placeholders replaced; bytes stay bytes (the values are ASCII). */
function fill(request: string | Uint8Array, values: Record<string, string>): string | Uint8Array {
  const replace = (text: string) =>
    text.replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
  if (typeof request === "string") return replace(request);
  const text = replace(String.fromCharCode(...request));
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

/** What is wrong with `result` as the answer to `entry`, or `undefined`. */
function problem(entry: CorpusEntry, result: RawResult): string | undefined {
  if (result.kind === "closed") {
    return entry.mayReset ? undefined : `connection closed (${result.error ?? "EOF"})`;
  }
  const got = `${result.status} ${JSON.stringify(result.text.slice(0, 80))}`;
  if (result.status !== entry.status) return `status: expected ${entry.status}, got ${got}`;
  // Every answer of our handler carries CORS headers; the HTTP server's own 400/408 does not.
  const fromHandler = result.headers.has("access-control-allow-origin");
  if (fromHandler === (entry.byServer ?? false)) {
    return `answered by ${fromHandler ? "the handler" : "the server"}, expected the other: ${got}`;
  }
  // RFC 9110 §15.5.6: a 405 names the methods that are allowed.
  if (result.status === 405 && result.headers.get("allow") !== "GET, HEAD, OPTIONS") {
    return `405 with Allow ${result.headers.get("allow")}`;
  }
  if (typeof entry.body === "string") {
    if (result.text !== entry.body) {
      return `body: expected ${JSON.stringify(entry.body)}, got ${got}`;
    }
    const type = result.headers.get("content-type");
    if (entry.body !== "" && type !== "text/plain; charset=utf-8") return `content-type ${type}`;
  } else if ("page" in entry.body) {
    const type = result.headers.get("content-type");
    if (type !== entry.body.page) return `content-type: expected ${entry.body.page}, got ${type}`;
    if (!result.text.startsWith("<!doctype html>")) return `body is not the page: ${got}`;
  } else {
    const type = result.headers.get("content-type");
    if (type !== entry.body.image) return `content-type: expected ${entry.body.image}, got ${type}`;
    const magic = MAGIC[entry.body.image];
    if (!magic.every((byte, i) => result.body[i] === byte)) return `body is not ${type}`;
  }
  const domain = result.headers.get("x-logo-domain");
  if (entry.domain !== undefined && domain !== entry.domain) return `X-Logo-Domain ${domain}`;
  return undefined;
}

/**
 * Sends `request` in one write and reads until the server closes the connection (or
 * {@link EXCHANGE_MS} passes: "left open"); the answers it gave, in order.
 */
async function exchangeAll(
  port: number,
  request: string | Uint8Array,
  heads: boolean[],
): Promise<{ answers: ReadAnswer[]; rest: string; ended: string }> {
  const bytes = typeof request === "string" ? new TextEncoder().encode(request) : request;
  const { received, ended } = await exchangeUntilClosed(port, bytes, EXCHANGE_MS);
  return { ...splitAnswers(received, heads), ended };
}

/** What is wrong with `got` as the `i`-th answer `expected`, or `undefined`. */
function answerProblem(i: number, expected: Answer, got: ReadAnswer): string | undefined {
  const domain = got.headers.get("x-logo-domain");
  const fromHandler = got.headers.has("access-control-allow-origin");
  const said = `answer ${i + 1}: ${got.status}${domain ? ` for ${domain}` : ""}`;
  if (got.status !== expected.status) return `${said}, expected ${expected.status}`;
  if (fromHandler === (expected.byServer ?? false)) {
    return `${said} by ${fromHandler ? "the handler" : "the server"}, expected the other`;
  }
  if (expected.domain !== undefined && domain !== expected.domain) {
    return `${said}, expected ${expected.domain ?? "no logo"}`;
  }
  return undefined;
}

/** What is wrong with what an exchange gave, or `undefined`. */
function exchangeProblem(
  entry: ExchangeEntry,
  result: { answers: ReadAnswer[]; rest: string; ended: string },
): string | undefined {
  const { answers, rest, ended } = result;
  const statuses = answers.map((got) => got.status).join(", ");
  if (answers.length > entry.answers.length) {
    return `${answers.length} answers (${statuses}), expected ${entry.answers.length}: ` +
      "a request got through";
  }
  if (answers.length < entry.answers.length && !entry.mayStopEarly) {
    return `${answers.length} answers (${statuses}), expected ${entry.answers.length}`;
  }
  for (const [i, got] of answers.entries()) {
    const wrong = answerProblem(i, entry.answers[i], got);
    if (wrong !== undefined) return wrong;
  }
  if (rest !== "") return `bytes after the answers: ${JSON.stringify(rest.slice(0, 80))}`;
  if (ended !== "closed") return `after ${statuses || "no answer"}: connection ${ended}`;
  return undefined;
}

/**
 * Holds a connection for each waiting entry, its bytes sent, while other clients are answered;
 * then each must have had no answer and still be open after {@link WAIT_MS}. The problems found.
 */
async function waitingProblems(port: number): Promise<string[]> {
  const held = await Promise.all(WAITING.map(async (entry) => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(
      typeof entry.request === "string" ? new TextEncoder().encode(entry.request) : entry.request,
    );
    const buffer = new Uint8Array(1024);
    const outcome = conn.read(buffer).then(
      (n) => n === null ? "closed by the server" : `answered ${latin1(buffer.subarray(0, n))}`,
      (error) => `reset (${error})`,
    );
    return { entry, conn, outcome };
  }));
  const problems: string[] = [];
  try {
    for (const path of ["/healthz", "/example.com?token=x"]) {
      const other = await rawExchange(
        port,
        `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
        { timeoutMs: 5_000 },
      ).catch((error) => String(error));
      if (typeof other === "string" || other.kind !== "response" || other.status >= 500) {
        problems.push(`GET ${path} meanwhile: ${JSON.stringify(other)}`);
      }
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const quiet = new Promise<string>((resolve) => timer = setTimeout(resolve, WAIT_MS, "quiet"));
    for (const { entry, outcome } of held) {
      const result = await Promise.race([outcome, quiet]);
      if (result !== "quiet") problems.push(`${entry.name}: ${result.slice(0, 80)}`);
    }
    clearTimeout(timer);
  } finally {
    for (const { conn } of held) conn.close(); // the raw client gives up
    await Promise.all(held.map(({ outcome }) => outcome));
  }
  return problems;
}

Deno.test("the malformed-request corpus: documented answers, no 5xx, no token in the output", async (t) => {
  assert.ok(CORPUS.length >= 250, `only ${CORPUS.length} entries`);
  const dir = await Deno.makeTempDir();
  const values = await prepareCorpusStore(`${dir}/kv.sqlite`);
  const server = await startMainProcess({ LOGO_KV: `${dir}/kv.sqlite` });
  const { port, printed } = server;
  try {
    await t.step(`${CORPUS.length} raw requests get their documented answers`, async () => {
      const problems: string[] = [];
      let serverErrors = 0;
      for (const entry of CORPUS) {
        const result = await rawExchange(port, fill(entry.request, values));
        if (result.kind === "response" && result.status >= 500) serverErrors++;
        const wrong = problem(entry, result);
        if (wrong !== undefined) problems.push(`${entry.name}: ${wrong}`);
      }
      assert.equal(serverErrors, 0, `${serverErrors} answers were 5xx:\n${problems.join("\n")}`);
      assert.deepEqual(problems, [], `${problems.length} unexpected answers`);
    });

    await t.step(
      `${EXCHANGES.length} exchanges: pipelined in order, bodies framed, nothing smuggled`,
      async () => {
        const problems: string[] = [];
        let serverErrors = 0;
        for (const entry of EXCHANGES) {
          const heads = entry.answers.map((expected) => expected.head ?? false);
          const result = await exchangeAll(port, fill(entry.request, values), heads);
          serverErrors += result.answers.filter((got) => got.status >= 500).length;
          const wrong = exchangeProblem(entry, result);
          if (wrong !== undefined) problems.push(`${entry.name}: ${wrong}`);
        }
        assert.equal(serverErrors, 0, `${serverErrors} answers were 5xx:\n${problems.join("\n")}`);
        assert.deepEqual(problems, [], `${problems.length} unexpected exchanges`);
      },
    );

    await t.step(
      `${WAITING.length} incomplete requests: no answer, connection kept, others answered`,
      async () => assert.deepEqual(await waitingProblems(port), []),
    );

    assert.equal(await server.stop(), 0, printed.join("\n"));

    await t.step("nothing the server printed contains a query string or a token", () => {
      assert.ok(printed.some((line) => line.includes("listening on")), "output not captured");
      const tokens = Object.values(values);
      const leaks = printed.filter((line) =>
        FORBIDDEN.some((pattern) => pattern.test(line)) ||
        tokens.some((token) => line.includes(token))
      );
      assert.deepEqual(leaks, []);
    });
  } finally {
    await server[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
});
