/**
 * What a cached image costs in memory, counted against its cache's budget: a view's whole buffer
 * (`heldBytes`), each copy the process holds (`copies`), and the prepared responses of a variant
 * sharing one copy of its bytes instead of one per served domain or CORS origin (`respond.ts`).
 */
import assert from "node:assert/strict";
import { heldBytes, type Variant, VariantCache } from "../../src/http/variant_cache.ts";
import { respondImage } from "../../src/http/respond.ts";
import type { TaggedVariant } from "../../src/http/variant_cache.ts";
import type { Answer } from "../../src/http/render_variant.ts";

const OVERHEAD = 128; // bookkeeping per entry, as variant_cache.ts counts it

Deno.test("VariantCache counts the buffer a view keeps alive, not the view's length", () => {
  const big = new Uint8Array(10_000);
  const view = big.subarray(0, 100);
  assert.equal(heldBytes(view), 10_000);
  assert.equal(heldBytes(new Uint8Array(100)), 100);
  const cache = new VariantCache({ maxBytes: 100_000 });
  cache.set("view", { bytes: view, contentType: "image/png" });
  assert.equal(cache.stats().bytes, 10_000 + OVERHEAD);
  cache.delete("view");
  assert.equal(cache.stats().bytes, 0);
});

Deno.test("VariantCache counts every copy the process holds of an entry", () => {
  const cache = new VariantCache({ maxBytes: 3_000, maxEntryBytes: 3_000, copies: 2 });
  const entry = (): Variant => ({ bytes: new Uint8Array(500), contentType: "image/png" });
  cache.set("a", entry());
  assert.equal(cache.stats().bytes, 2 * 500 + OVERHEAD);
  cache.set("b", entry());
  cache.set("c", entry()); // 3 × 1128 > 3000: the oldest goes
  assert.equal(cache.stats().entries, 2);
  assert.equal(cache.get("a"), undefined);
  assert.throws(() => new VariantCache({ copies: 0 }), RangeError);
});

Deno.test("respond: a variant's prepared responses share one copy of its bytes", async () => {
  const size = 4 * 1024 * 1024;
  const variant: TaggedVariant = {
    bytes: new Uint8Array(size).fill(7),
    contentType: "image/png",
    etag: '"v2-test-128-png"',
    width: 128,
    height: 128,
  };
  // The first 200 is a plain response with its own copy; the variant is prepared from the second.
  const first = respondImage(variant, { method: "GET", servedDomain: "first.example" });
  assert.equal((await first.arrayBuffer()).byteLength, size);
  const before = Deno.memoryUsage().external;
  const responses = [];
  // 16 served domains: 16 prepared responses (the most kept per variant).
  for (let i = 0; i < 16; i++) {
    responses.push(respondImage(variant, { method: "GET", servedDomain: `d${i}.example` }));
  }
  const grown = Deno.memoryUsage().external - before;
  assert.ok(grown < 2 * size, `prepared responses grew external memory by ${grown} bytes`);
  // Each still answers with its own headers and the whole body.
  assert.equal(responses[3].headers.get("x-logo-domain"), "d3.example");
  const body = new Uint8Array(await responses[15].arrayBuffer());
  assert.equal(body.length, size);
  assert.equal(body[size - 1], 7);
  assert.equal(responses[15].headers.get("x-logo-domain"), "d15.example");
  assert.equal(responses[15].headers.get("etag"), variant.etag);
});

Deno.test("respond: a variant's first 200 is the same answer as the prepared ones after it", async () => {
  const variant: TaggedVariant = {
    bytes: Uint8Array.from({ length: 300 }, (_, i) => i % 251),
    contentType: "image/png",
    etag: '"v2-first-64-png"',
    width: 64,
    height: 32,
  };
  await assertSameAnswers(variant, variant.bytes);
  // A frozen variant cannot keep prepared responses on itself: every answer is a plain one.
  await assertSameAnswers(
    Object.freeze({ ...variant, bytes: variant.bytes.slice() }),
    variant.bytes,
  );
  // A default answer kept on its record: its first 200 is a clone of its body, its later ones
  // clones of a template made of that body.
  const { bytes, ...rest } = variant;
  const stored = {
    ...rest,
    body: new Response(bytes.slice(), { status: 200 }),
    byteLength: bytes.length,
  };
  await assertSameAnswers(stored, bytes);
});

async function assertSameAnswers(variant: Answer, bytes: Uint8Array): Promise<void> {
  const context = (remaining: number) => ({
    method: "GET",
    servedDomain: "example.com",
    allowedOrigin: "https://app.example",
    quota: { allowed: true, limit: 100, remaining, reset: 60, retryAfter: 60 },
  });
  const answers = [];
  for (let i = 0; i < 3; i++) {
    const response = respondImage(variant, context(99 - i));
    answers.push({
      status: response.status,
      headers: [...response.headers],
      body: [...new Uint8Array(await response.arrayBuffer())],
    });
  }
  assert.deepEqual(answers[0].body, [...bytes]);
  for (const later of answers.slice(1)) {
    assert.equal(later.status, answers[0].status);
    assert.deepEqual(later.body, answers[0].body);
    // Only the remaining quota differs between them.
    const strip = (h: [string, string][]) => h.filter(([n]) => n !== "x-ratelimit-remaining");
    assert.deepEqual(strip(later.headers), strip(answers[0].headers));
  }
  assert.deepEqual(answers.map((a) => new Headers(a.headers).get("x-ratelimit-remaining")), [
    "99",
    "98",
    "97",
  ]);
  assert.equal(
    new Headers(answers[0].headers).get("access-control-allow-origin"),
    "https://app.example",
  );
}
