/**
 * The SDK's `type` option against the real server: `"logo"` gets the stored wordmark at the asked
 * width; without one, the icon marked `fallback: "icon"`; with nothing and `fallback: "monogram"`,
 * the tile marked `fallback: "monogram"`, `fallbacks: ["icon", "monogram"]`; any other value is
 * refused before a request.
 */
import assert from "node:assert/strict";
import { BadRequestError, NotFoundError } from "../../src/sdk/mod.ts";
import { logoUrl } from "../../src/sdk/options.ts";
import { startTestServer } from "../support/server.ts";
import { clientFor, logo, requests } from "../support/sdk_real_server.ts";
import { widePng } from "../support/wordmarks.ts";

Deno.test("type: logo gets the wordmark, else the icon marked icon, else the tile marked both", async () => {
  await using server = await startTestServer();
  await server.addLogo("example.com", logo(300, 300));
  await server.addLogo("other.example", logo(300, 300));
  await server.logos.put("example.com", widePng(800, 200), { source: "test", type: "logo" });
  server.app.forgetLogo("example.com");
  const client = clientFor(server);

  const wide = await client.get("example.com", { type: "logo", size: 400 });
  assert.deepEqual([wide.width, wide.height], [400, 100]);
  assert.equal(wide.fallback, undefined);
  assert.deepEqual(wide.fallbacks, []);

  const icon = await client.get("example.com", { type: "icon", size: 400 });
  assert.deepEqual([icon.width, icon.height], [400, 400]);
  assert.deepEqual(icon.fallbacks, []);

  const stand = await client.get("other.example", { type: "logo", size: 200 });
  assert.deepEqual([stand.width, stand.height], [200, 200]);
  assert.equal(stand.fallback, "icon");
  assert.deepEqual(stand.fallbacks, ["icon"]);

  const tile = await client.get("nothing.example", { type: "logo", fallback: "monogram" });
  assert.equal(tile.fallback, "monogram");
  assert.deepEqual(tile.fallbacks, ["icon", "monogram"]);
  await assert.rejects(client.get("nothing.example", { type: "logo" }), NotFoundError);
  assert.ok(requests.some((r) => new URL(r.url).searchParams.get("type") === "logo"));
});

Deno.test("a bad type is refused before any request; the URL carries a good one", async () => {
  await using server = await startTestServer();
  const client = clientFor(server);
  const before = requests.length;
  await assert.rejects(
    // @ts-expect-error: not a type
    client.get("example.com", { type: "wordmark" }),
    (e: unknown) =>
      e instanceof BadRequestError && e.message === "Invalid type: must be icon or logo",
  );
  assert.equal(requests.length, before, "nothing sent");
  const url = logoUrl(new URL("http://x.test"), "example.com", { type: "logo", size: 400 });
  assert.equal(url.href, "http://x.test/example.com?type=logo&size=400");
});
