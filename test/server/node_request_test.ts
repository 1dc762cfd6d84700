/**
 * `writeResponse`: every header of the app's `Response` reaches the wire as Node sends it, with a
 * `Content-Length` (never chunked: the body is in memory) and one `Set-Cookie` line per cookie.
 */
import assert from "node:assert/strict";
import http from "node:http";
import { rawExchange } from "../support/raw_http.ts";
import { writeResponse } from "../../src/server/node_request.ts";

Deno.test("writeResponse: all headers, each cookie on its own line, a Content-Length", async () => {
  const headers = new Headers({ "content-type": "image/png", etag: '"v1"', vary: "Origin" });
  headers.append("set-cookie", "a=1; Path=/");
  headers.append("set-cookie", "b=2; Path=/");
  headers.append("x-many", "one");
  headers.append("x-many", "two");
  const body = new Uint8Array([1, 2, 3, 4, 5]);
  const server = http.createServer((incoming, outgoing) => {
    writeResponse(new Response(body, { status: 201, headers }), incoming.method!, outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const port = (server.address() as { port: number }).port;
    for (const method of ["GET", "HEAD"]) {
      const answer = await rawExchange(
        port,
        `${method} / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(answer.kind, "response");
      if (answer.kind !== "response") continue;
      assert.equal(answer.status, 201);
      assert.equal(answer.headers.get("content-type"), "image/png");
      assert.equal(answer.headers.get("etag"), '"v1"');
      assert.equal(answer.headers.get("vary"), "Origin");
      assert.equal(answer.headers.get("x-many"), "one, two");
      assert.deepEqual(answer.headers.getSetCookie(), ["a=1; Path=/", "b=2; Path=/"]);
      assert.equal(answer.headers.get("transfer-encoding"), null);
      if (method === "GET") {
        assert.equal(answer.headers.get("content-length"), "5");
        assert.deepEqual(answer.body, body);
      } else {
        assert.equal(answer.body.length, 0);
      }
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
