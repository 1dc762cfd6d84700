/**
 * `deno run --allow-all bench/request_bridge_bench.ts`: what the two costly steps of the
 * `node:http` bridge (`src/server/node_request.ts`) cost each way, µs per call (100,000 calls after
 * 20,000 to warm up):
 * - a `Request` with five headers passed in `RequestInit` (a `Headers` copied by WebIDL's
 *   conversion) against appended to the request's own headers, as `toRequest` does;
 * - an 8-KB image body read with `arrayBuffer()` after `body` was looked at (its getter wraps the
 *   bytes in a stream first) against `bytes()` alone, as `writeResponse` does.
 * @module
 */
const RAW = [
  ["Host", "127.0.0.1:8000"],
  ["User-Agent", "Deno/2.9.6"],
  ["Accept", "*/*"],
  ["Accept-Encoding", "gzip, br"],
  ["Accept-Language", "*"],
];
const BODY = new Uint8Array(8000);

const cases: [string, () => unknown][] = [
  ["Request, headers in RequestInit", () => {
    const headers = new Headers();
    for (const [name, value] of RAW) headers.append(name, value);
    return new Request("http://localhost/", { method: "GET", headers });
  }],
  ["Request, headers appended (toRequest)", () => {
    const request = new Request("http://localhost/", { method: "GET" });
    for (const [name, value] of RAW) request.headers.append(name, value);
    return request;
  }],
  ["body: look at body, then arrayBuffer()", async () => {
    const response = new Response(BODY, { headers: { "content-type": "image/png" } });
    return response.body === null ? 0 : new Uint8Array(await response.arrayBuffer()).length;
  }],
  ["body: bytes() (writeResponse)", async () => {
    const response = new Response(BODY, { headers: { "content-type": "image/png" } });
    return (await response.bytes()).length;
  }],
];

console.log(`Deno ${Deno.version.deno}; µs per call`);
for (const [name, run] of cases) {
  for (let i = 0; i < 20_000; i++) await run();
  const calls = 100_000;
  const start = performance.now();
  for (let i = 0; i < calls; i++) await run();
  console.log(`${((performance.now() - start) * 1000 / calls).toFixed(2).padStart(6)}  ${name}`);
}
