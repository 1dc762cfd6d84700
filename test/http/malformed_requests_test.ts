/**
 * The malformed-request corpus (test/fixtures/malformed_requests/) against the real server: the
 * real `src/main.ts` as a child process on a temporary KV, each request sent raw over TCP. Every
 * answer has its documented status and body, none is a 5xx, and nothing the server prints —
 * stdout and stderr, from start to stop — contains a query string or a token (issues #9 and #10).
 */
import assert from "node:assert/strict";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { CORPUS, type CorpusEntry } from "../fixtures/malformed_requests/mod.ts";
import { flatImage } from "../support/images.ts";
import { startMainProcess } from "../support/main_process.ts";
import { rawExchange, type RawResult } from "../support/raw_http.ts";

/** The server's header timeout: every corpus request is sent in one write, far within it. */
const HEADERS_TIMEOUT_MS = 1_000;

/** What no printed line may contain: a `token=` parameter, a key token, a `?name=` query. */
const FORBIDDEN = [/token=/i, /[ps]k_[0-9a-z]/i, /\?[^\s]*=/];

/** The first bytes of each image type the corpus expects. */
const MAGIC: Record<string, number[]> = {
  "image/png": [0x89, 0x50, 0x4e, 0x47],
  "image/webp": [0x52, 0x49, 0x46, 0x46],
  "image/jpeg": [0xff, 0xd8, 0xff],
};

/** Creates the keys and logos the corpus refers to; returns the placeholder values. */
async function prepareStore(path: string): Promise<Record<string, string>> {
  const kv = await Deno.openKv(path);
  try {
    const keys = new KeyStore(kv);
    const logos = new LogoStore(kv);
    const many = { limit: 1_000_000, window: 3600 };
    const plain = await keys.create(many);
    const allow = await keys.create({ ...many, allow: ["https://app.example.com"] });
    const attribution = await keys.create({ ...many, attribution: true });
    const revoked = await keys.create(many);
    await keys.revoke(revoked.key.id);
    await logos.put("example.com", flatImage(160, 80, [0, 120, 200, 255]), { source: "test" });
    await logos.put("example.org", flatImage(40, 40, [200, 0, 0, 255]), { source: "test" });
    await logos.put("xn--bcher-kva.de", flatImage(64, 64, [0, 160, 0, 255]), { source: "test" });
    return {
      pk: plain.key.publishableKey,
      sk: plain.secretKey,
      pkAllow: allow.key.publishableKey,
      pkAttr: attribution.key.publishableKey,
      pkRevoked: revoked.key.publishableKey,
      skRevoked: revoked.secretKey,
    };
  } finally {
    kv.close();
  }
}

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

Deno.test("the malformed-request corpus: documented answers, no 5xx, no token in the output", async (t) => {
  assert.ok(CORPUS.length >= 250, `only ${CORPUS.length} entries`);
  const dir = await Deno.makeTempDir();
  const values = await prepareStore(`${dir}/kv.sqlite`);
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
