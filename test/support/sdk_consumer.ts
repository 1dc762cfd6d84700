/**
 * What the tests of the SDK outside this repository share (`test/sdk/npm_package_test.ts`,
 * `test/sdk/deno_outside_repo_test.ts`): a real server on a real socket holding one logo, with a
 * second key limited to one request a minute; the script a user of the SDK would write, made for
 * one import specifier (the npm package's name, or the SDK's absolute path); and the checks of the
 * report it prints.
 *
 * The script is plain ESM that is also valid TypeScript, so Node, Bun and `deno run --check` run
 * the same text. Its 429 is the real server's: the limited key's second request is refused with
 * `Retry-After`, and the script's `sleep` moves the server's clock by the wait (over HTTP, to a
 * control port of this server) instead of waiting, so the retry succeeds at once.
 *
 * @module
 */
import assert from "node:assert/strict";
import { startTestServer } from "./server.ts";
import { logo } from "./sdk_real_server.ts";

/** What the script needs to reach the server. */
export interface ConsumerConfig {
  baseUrl: string;
  secretKey: string;
  /** A key limited to one request a minute: its second request is a real 429. */
  limitedKey: string;
  /** POST `?ms=N` moves the server's clock forward by N ms. */
  clockUrl: string;
}

/** A server for the consumer script; `advances` lists the clock moves the script asked for. */
export interface ConsumerServer extends AsyncDisposable {
  readonly config: ConsumerConfig;
  readonly advances: number[];
  close(): Promise<void>;
}

/** Starts the server with the logo of `example.com` (400×200) and the two keys. */
export async function startConsumerServer(): Promise<ConsumerServer> {
  let now = Date.now();
  const server = await startTestServer({ clock: () => now });
  await server.addLogo("example.com", logo(400, 200));
  const { secretKey: limitedKey } = await server.keys.create({ limit: 1, window: 60 });
  const advances: number[] = [];
  const control = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const ms = Number(new URL(request.url).searchParams.get("ms"));
    advances.push(ms);
    now += ms;
    return new Response(null, { status: 204 });
  });
  const close = async () => {
    await control.shutdown();
    await server.close();
  };
  return {
    config: {
      baseUrl: server.url,
      secretKey: server.secretKey,
      limitedKey,
      clockUrl: `http://127.0.0.1:${control.addr.port}/advance`,
    },
    advances,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * The consumer script: imports the SDK from `specifier`, calls `get`, `getMany`, `getStream`,
 * catches a `NotFoundError` with `instanceof`, rides out a 429, and prints one JSON report line.
 */
export function consumerScript(specifier: string, config: ConsumerConfig): string {
  return `import { BadRequestError, LogoClient, LogoError, NotFoundError } from ${
    JSON.stringify(specifier)
  };

const config = ${JSON.stringify(config)};
const client = new LogoClient({ secretKey: config.secretKey, baseUrl: config.baseUrl });

const one = await client.get("Example.COM", { size: 64 });

const many = [];
const domains = ["example.com", "docs.example.com", "unknown-brand.net", "https://example.com/"];
for await (const r of client.getMany(domains, { size: 32, concurrency: 2 })) {
  many.push(r.success
    ? { domain: r.domain, width: r.width, servedDomain: r.servedDomain }
    : {
      domain: r.domain,
      notFound: r.error instanceof NotFoundError,
      badRequest: r.error instanceof BadRequestError,
    });
}
many.sort((a, b) => a.domain.localeCompare(b.domain));

const streamed = await client.getStream("example.com", { size: 300, format: "webp" });
const parts = [];
const reader = streamed.stream.getReader();
for (;;) {
  const { done, value } = await reader.read();
  if (done) break;
  parts.push(value);
}
const joined = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
let at = 0;
for (const part of parts) {
  joined.set(part, at);
  at += part.length;
}
const whole = await client.get("example.com", { size: 300, format: "webp" });

const missing = await client.get("unknown-brand.net").catch((error) => error);

let retries = 0;
let waited = 0;
const limited = new LogoClient({
  secretKey: config.limitedKey,
  baseUrl: config.baseUrl,
  sleep: async (ms) => {
    retries += 1;
    waited += ms;
    const moved = await fetch(config.clockUrl + "?ms=" + ms, { method: "POST" });
    await moved.arrayBuffer();
  },
});
const first = await limited.get("example.com", { size: 16 });
const second = await limited.get("example.com", { size: 16 });

console.log(JSON.stringify({
  get: {
    isUint8Array: one.bytes instanceof Uint8Array,
    png: one.bytes[1] === 0x50 && one.bytes[2] === 0x4e && one.bytes[3] === 0x47,
    contentType: one.contentType,
    size: [one.width, one.height],
    servedDomain: one.servedDomain,
    remaining: one.rateLimit?.remaining,
  },
  getMany: many,
  getStream: {
    contentType: streamed.contentType,
    size: [streamed.width, streamed.height],
    chunks: parts.length,
    sameAsGet: joined.length === whole.bytes.length && joined.every((b, i) => b === whole.bytes[i]),
  },
  notFound: {
    isNotFoundError: missing instanceof NotFoundError,
    isLogoError: missing instanceof LogoError,
    name: missing.name,
    status: missing.status,
    text: missing.text,
  },
  retried: { firstRemaining: first.rateLimit?.remaining, retries, waited, size: second.width },
}));
`;
}

/** Checks the report the script printed (its last line of stdout) against `server`. */
export function assertConsumerReport(stdout: string, server: ConsumerServer): void {
  const lines = stdout.trim().split("\n");
  const report = JSON.parse(lines[lines.length - 1]);
  assert.deepEqual(report.get, {
    isUint8Array: true,
    png: true,
    contentType: "image/png",
    size: [64, 32],
    servedDomain: "example.com",
    remaining: report.get.remaining,
  });
  assert.equal(typeof report.get.remaining, "number");
  assert.deepEqual(report.getMany, [
    { domain: "docs.example.com", width: 32, servedDomain: "example.com" },
    { domain: "example.com", width: 32, servedDomain: "example.com" },
    { domain: "https://example.com/", notFound: false, badRequest: true },
    { domain: "unknown-brand.net", notFound: true, badRequest: false },
  ]);
  assert.deepEqual(report.getStream, {
    contentType: "image/webp",
    size: [300, 150],
    chunks: report.getStream.chunks,
    sameAsGet: true,
  });
  assert.ok(report.getStream.chunks >= 1);
  assert.deepEqual(report.notFound, {
    isNotFoundError: true,
    isLogoError: true,
    name: "NotFoundError",
    status: 404,
    text: "Logo not found",
  });
  assert.equal(report.retried.firstRemaining, 0);
  assert.equal(report.retried.retries, 1, "one 429, retried once");
  assert.ok(report.retried.waited >= 1000 && report.retried.waited <= 60_000);
  assert.equal(report.retried.size, 16);
  assert.deepEqual(server.advances, [report.retried.waited], "the script's wait moved the clock");
}
