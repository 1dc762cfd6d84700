/**
 * `LogoClient.getStream` against small servers this test drives by hand (over real sockets): the
 * body is handed over chunk by chunk as it arrives, the image header is measured even when split,
 * and the signal cancels the download.
 */
import assert from "node:assert/strict";
import { LogoClient } from "../../src/sdk/mod.ts";
import { pngHead, pngHeaders, SECRET, serve } from "../support/sdk_test_server.ts";

Deno.test("getStream hands over the first bytes before the server has sent the last", async () => {
  const first = pngHead(1200, 600, 4000);
  const last = new Uint8Array(50_000).fill(9);
  let body!: ReadableStreamDefaultController<Uint8Array>;
  const server = serve(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          body = controller;
          controller.enqueue(first);
        },
      }),
      { headers: pngHeaders() },
    )
  );
  try {
    const client = new LogoClient({ secretKey: SECRET, baseUrl: server.url });
    const logo = await client.getStream("example.com", { size: 1200 });
    assert.deepEqual([logo.width, logo.height], [1200, 600]);
    assert.equal(logo.contentType, "image/png");
    assert.equal(logo.servedDomain, "example.com");
    assert.equal(logo.rateLimit?.remaining, 99);
    const reader = logo.stream.getReader();
    // Read everything the server has sent so far: the whole first part, and it is all there is.
    const received: number[] = [];
    while (received.length < first.length) {
      const { value, done } = await reader.read();
      assert.ok(!done, "stream ended before the server finished");
      received.push(...value);
    }
    assert.deepEqual(new Uint8Array(received), first);
    // Only now does the server send the rest.
    body.enqueue(last);
    body.close();
    const rest: number[] = [];
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      rest.push(...value);
    }
    assert.deepEqual(new Uint8Array(rest), last);
  } finally {
    await server.close();
  }
});

Deno.test("getStream with an image header split over chunks still measures it and keeps every byte", async () => {
  const whole = pngHead(77, 33, 10);
  const server = serve(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < whole.length; i += 5) controller.enqueue(whole.slice(i, i + 5));
          controller.close();
        },
      }),
      { headers: pngHeaders() },
    )
  );
  try {
    const client = new LogoClient({ secretKey: SECRET, baseUrl: server.url });
    const logo = await client.getStream("example.com");
    assert.deepEqual([logo.width, logo.height], [77, 33]);
    assert.deepEqual(await new Response(logo.stream).bytes(), whole);
  } finally {
    await server.close();
  }
});

Deno.test("getStream's signal cancels the body download midway", async () => {
  const server = serve(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(pngHead(10, 10, 100)); // and never anything else
        },
      }),
      { headers: pngHeaders() },
    )
  );
  try {
    const client = new LogoClient({ secretKey: SECRET, baseUrl: server.url });
    const controller = new AbortController();
    const logo = await client.getStream("example.com", { signal: controller.signal });
    const reader = logo.stream.getReader();
    await reader.read();
    const next = reader.read();
    controller.abort();
    await assert.rejects(
      next,
      (e: unknown) => e instanceof DOMException && e.name === "AbortError",
    );
  } finally {
    await server.close();
  }
});
