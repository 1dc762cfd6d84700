/**
 * What a cached image costs in memory, counted against its cache's budget: a view's whole buffer
 * (`heldBytes`), each copy the process holds (`copies`), and the prepared responses of a variant
 * sharing one copy of its bytes instead of one per served domain or CORS origin (`respond.ts`).
 */
import assert from "node:assert/strict";
import { heldBytes, type Variant, VariantCache } from "../../src/http/variant_cache.ts";
import { respondImage } from "../../src/http/respond.ts";
import type { TaggedVariant } from "../../src/http/render_variant.ts";

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
