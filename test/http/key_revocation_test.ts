import assert from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { KEY_CACHE_TTL_MS } from "../../src/http/authenticate.ts";
import { flatImage } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";

const START = Date.UTC(2026, 0, 1, 0, 0, 10);

Deno.test(`a revoked key stops working on every instance within ${KEY_CACHE_TTL_MS} ms`, async () => {
  const clock = { now: START };
  const read = () => clock.now;
  await using server = await startTestApp({ clock: read, limit: 1000, window: 3600 });
  await server.addLogo("example.com", flatImage(64, 64, [10, 120, 200, 255]));
  // A second instance of the service over the same KV.
  const other = createApp({ kv: server.kv, clock: read });
  const url = server.logoUrl("example.com");
  const viaServer = async () => {
    const response = await server.fetch(url);
    await response.body?.cancel();
    return response.status;
  };
  const viaOther = async () => {
    const response = await other.handler(new Request(url));
    await response.body?.cancel();
    return response.status;
  };
  try {
    assert.equal(await viaServer(), 200);
    assert.equal(await viaOther(), 200);

    assert.equal(await server.keys.revoke(server.keyId), true);
    // Until the cached lookup expires, the hot path does not read KV: the key still works.
    clock.now = START + KEY_CACHE_TTL_MS - 1;
    assert.equal(await viaServer(), 200, "served from the key cache");
    assert.equal(await viaOther(), 200, "served from the key cache");

    clock.now = START + KEY_CACHE_TTL_MS;
    const response = await server.fetch(url);
    assert.equal(response.status, 401);
    assert.equal(await response.text(), "Missing or invalid token");
    assert.equal(await viaOther(), 401);
  } finally {
    await other.close();
  }
});

Deno.test("a key revoked before an instance first sees it is refused at once", async () => {
  const clock = { now: START };
  await using server = await startTestApp({ clock: () => clock.now });
  await server.addLogo("example.com", flatImage(64, 64, [10, 120, 200, 255]));
  await server.keys.revoke(server.keyId);
  const response = await server.fetch(server.logoUrl("example.com"));
  assert.equal(response.status, 401);
  assert.equal(await response.text(), "Missing or invalid token");
});
