/**
 * The SDK's `fallback` option against the real server: `"monogram"` turns a missing logo into a
 * letter tile marked `fallback: "monogram"`; a real logo is unmarked; `"404"` keeps
 * `NotFoundError`; any other value is refused before a request.
 */
import assert from "node:assert/strict";
import { BadRequestError, NotFoundError } from "../../src/sdk/mod.ts";
import { logoUrl } from "../../src/sdk/options.ts";
import { startTestServer } from "../support/server.ts";
import { clientFor, logo } from "../support/sdk_real_server.ts";

Deno.test("fallback: monogram gives a marked square tile; a real logo is unmarked", async () => {
  await using server = await startTestServer();
  await server.addLogo("example.com", logo(400, 200));
  const client = clientFor(server);
  const tile = await client.get("nothing.example", { fallback: "monogram", size: 64 });
  assert.equal(tile.fallback, "monogram");
  assert.deepEqual([tile.width, tile.height], [64, 64]);
  assert.equal(tile.contentType, "image/png");
  const real = await client.get("example.com", { fallback: "monogram", size: 64 });
  assert.equal(real.fallback, undefined);
  assert.deepEqual([real.width, real.height], [64, 32]);
  await assert.rejects(client.get("nothing.example", { fallback: "404" }), NotFoundError);
  await assert.rejects(client.get("nothing.example"), NotFoundError);
});

Deno.test("a bad fallback is refused before any request; the URL carries a good one", async () => {
  await using server = await startTestServer();
  const client = clientFor(server);
  await assert.rejects(
    // @ts-expect-error: not a fallback
    client.get("example.com", { fallback: "letter" }),
    (e: unknown) =>
      e instanceof BadRequestError && e.message === "Invalid fallback: must be 404 or monogram",
  );
  const url = logoUrl(new URL("http://x.test"), "example.com", { fallback: "monogram" });
  assert.equal(url.href, "http://x.test/example.com?fallback=monogram");
});
