/**
 * `startTestApp` (the handler, no socket) answers as `startTestServer` (the production serving
 * path on a real socket) does, for the requests the endpoint tests send: same status, body and
 * headers (apart from those Node's HTTP server adds to every answer). This is what lets those tests
 * skip the socket; see `test/support/server.ts`.
 */
import assert from "node:assert/strict";
import { flatImage } from "./support/images.ts";
import { startTestApp, startTestServer, type TestServer } from "./support/server.ts";

/** Headers Node's HTTP server adds to every answer, whatever the handler said. */
const CONNECTION_HEADERS = new Set(["date", "connection", "keep-alive"]);

/** Status, headers (sorted, connection headers left out) and body of one exchange. */
async function answer(server: TestServer, path: string, init?: RequestInit) {
  const result = await server.exchange(path, init);
  const headers = [...result.headers].filter(([name]) => !CONNECTION_HEADERS.has(name)).sort();
  return { status: result.status, headers, body: result.text, length: result.bytes.length };
}

Deno.test("the handler without a socket answers as the real server does", async () => {
  const options = { limit: 100, window: 3600, allow: ["https://app.example.org"] };
  await using app = await startTestApp(options);
  await using real = await startTestServer(options);
  const logo = flatImage(120, 60, [200, 40, 40, 255]);
  for (const server of [app, real]) await server.addLogo("example.com", logo);
  const origin = { origin: "https://app.example.org" };
  const cases: [string, (server: TestServer) => [string, RequestInit?]][] = [
    ["GET 200", (s) => [s.logoUrl("example.com", { size: "64" }), { headers: origin }]],
    ["HEAD 200", (s) => [s.logoUrl("example.com"), { method: "HEAD", headers: origin }]],
    ["GET 404", (s) => [s.logoUrl("nothing-here.com"), { headers: origin }]],
    ["HEAD 404", (s) => [s.logoUrl("nothing-here.com"), { method: "HEAD", headers: origin }]],
    ["GET 400", (s) => [s.logoUrl("example.com", { size: "9000" }), { headers: origin }]],
    ["GET 401", (s) => [s.logoUrl("example.com", { token: "pk_nope" })]],
    ["GET 403", (s) => [s.logoUrl("example.com"), { headers: { origin: "https://evil.test" } }]],
    ["OPTIONS", (s) => [s.logoUrl("example.com"), { method: "OPTIONS", headers: origin }]],
    ["DELETE 405", (s) => [s.logoUrl("example.com"), { method: "DELETE" }]],
    ["healthz", () => ["/healthz"]],
    ["HEAD readyz", () => ["/readyz", { method: "HEAD" }]],
  ];
  for (const [name, request] of cases) {
    const [appUrl, appInit] = request(app);
    const [realUrl, realInit] = request(real);
    const fromApp = await answer(app, appUrl, appInit);
    assert.deepEqual(fromApp, await answer(real, realUrl, realInit), name);
  }
  // The GET 200 was an image with its length: the comparison above compared something.
  const image = await answer(app, app.logoUrl("example.com", { size: "64" }), { headers: origin });
  assert.equal(image.status, 200);
  assert.ok(image.length > 0);
  assert.ok(image.headers.some(([name, value]) => name === "content-length" && value !== "0"));
  assert.equal(app.socket, false);
  assert.equal(real.socket, true);
});
