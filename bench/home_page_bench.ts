/**
 * The page at `/` through the application's handler (`GET`, `HEAD` and a `304`), next to a
 * `/healthz` probe for scale, and the page's size. Run: `deno bench -A bench/home_page_bench.ts`.
 *
 * @module
 */
import { createApp } from "../src/http/app.ts";
import { createHomePage } from "../src/http/home_page.ts";

const kv = await Deno.openKv(":memory:");
const app = createApp({ kv });
const page = createHomePage();
console.log(`page: ${page.body.byteLength} bytes`);
const etag = page.headers.etag;
const request = (path: string, init: RequestInit = {}) =>
  new Request(`http://localhost${path}`, {
    ...init,
    headers: { host: "localhost", ...init.headers },
  });

Deno.bench("GET / (the page, body read)", { group: "page", baseline: true }, async () => {
  await (await app.handler(request("/"))).arrayBuffer();
});

Deno.bench("HEAD /", { group: "page" }, async () => {
  await app.handler(request("/", { method: "HEAD" }));
});

Deno.bench("GET / with a matching If-None-Match (304)", { group: "page" }, async () => {
  await app.handler(request("/", { headers: { "if-none-match": etag } }));
});

Deno.bench("GET /healthz (for scale)", { group: "page" }, async () => {
  await (await app.handler(request("/healthz"))).arrayBuffer();
});
