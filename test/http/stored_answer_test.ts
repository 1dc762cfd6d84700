/**
 * A default answer is kept on its logo record with one copy of the image (`stored_answer.ts`):
 * the record lets go of its bytes, every answer (GET, HEAD, revalidation) stays what it was, and a
 * render that starts from the `default` rendition afterwards still gets its bytes.
 */
import assert from "node:assert/strict";
import { hasStoredAnswer, storedAnswer, storedBytes } from "../../src/http/stored_answer.ts";
import type { Rendition } from "../../src/store/logo_record.ts";
import { startTestApp } from "../support/server.ts";
import { flatImage, pixelsOf } from "../support/images.ts";

function rendition(bytes: Uint8Array): Rendition {
  return {
    hash: "ab".repeat(32),
    type: "image/png",
    width: 128,
    height: 64,
    bytes: 3,
    data: bytes,
  };
}

Deno.test("storedAnswer moves the bytes into one body at the first answer", async () => {
  const held = rendition(new Uint8Array([1, 2, 3]));
  assert.equal(storedBytes(held), undefined, "nothing moved yet");
  assert.equal(hasStoredAnswer(held, '"v2-ab"'), false);
  const answer = storedAnswer(held, '"v2-ab"');
  assert.ok(answer !== undefined && "body" in answer, "the first answer is the stored answer");
  assert.equal(held.data, undefined, "the rendition let go of its bytes");
  assert.deepEqual(
    { length: answer.byteLength, type: answer.contentType, w: answer.width, h: answer.height },
    { length: 3, type: "image/png", w: 128, h: 64 },
  );
  assert.deepEqual(await answer.body.clone().bytes(), new Uint8Array([1, 2, 3]));
  assert.deepEqual(await storedBytes(held), new Uint8Array([1, 2, 3]));
  assert.equal(storedAnswer(held, '"v2-ab"'), answer, "the same answer every time");
  assert.ok(hasStoredAnswer(held, '"v2-ab"'));
  assert.equal(storedAnswer(held, '"v2-ab-other"'), undefined, "another tag renders as before");
  assert.equal(hasStoredAnswer(held, '"v2-ab-other"'), false);
  assert.equal(storedAnswer(rendition(undefined as never), '"v2-ab"'), undefined, "no bytes held");
});

Deno.test("a frozen rendition keeps its bytes and answers them as they are each time", () => {
  const frozen = Object.freeze(rendition(new Uint8Array([4, 5])));
  for (let i = 0; i < 3; i++) {
    const answer = storedAnswer(frozen, '"v2-ab"');
    assert.ok(answer !== undefined && "bytes" in answer);
    assert.equal(answer.bytes.byteLength, 2);
  }
  assert.ok(frozen.data !== undefined);
  assert.equal(hasStoredAnswer(frozen, '"v2-ab"'), false);
});

Deno.test("default answers from the record's one copy: GET, HEAD, 304, then a render from it", async () => {
  await using kv = await Deno.openKv(":memory:");
  await using server = await startTestApp({ kv });
  const record = await server.addLogo("acme.example", flatImage(500, 250, [0, 90, 200, 255]));
  const stored = await server.logos.readRendition(record.renditions.default);
  const first = await server.exchange(server.logoUrl("acme.example"));
  const second = await server.exchange(server.logoUrl("acme.example"));
  for (const answer of [first, second]) {
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.bytes, stored);
    assert.equal(answer.headers.get("content-type"), "image/png");
    assert.equal(answer.headers.get("x-logo-width"), "128");
    assert.equal(answer.headers.get("x-ratelimit-limit") !== null, true);
  }
  assert.equal(second.headers.get("etag"), first.headers.get("etag"));
  const head = await server.exchange(server.logoUrl("acme.example"), { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-length"), String(stored!.byteLength));
  assert.equal(head.bytes.byteLength, 0);
  const revalidated = await server.exchange(server.logoUrl("acme.example"), {
    headers: { "if-none-match": first.headers.get("etag")! },
  });
  assert.equal(revalidated.status, 304);
  // 64 px renders from the smallest rendition at least that wide: the default, moved into its answer.
  const small = await server.exchange(server.logoUrl("acme.example", { size: "64" }));
  assert.equal(small.status, 200);
  const pixels = await pixelsOf(small.bytes);
  assert.deepEqual([pixels.width, pixels.height], [64, 32]);
  assert.deepEqual([...pixels.data.subarray(0, 4)], [0, 90, 200, 255]);
  // The default answer is not in the rendered-variant cache: the 64-px render is its only entry.
  assert.equal(server.app.stats().variants.entries, 1);
  // The render read the body's own buffer (shared, not copied): the default answer is intact.
  const after = await server.exchange(server.logoUrl("acme.example"));
  assert.equal(after.status, 200);
  assert.deepEqual(after.bytes, stored);
});
