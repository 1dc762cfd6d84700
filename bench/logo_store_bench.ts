/**
 * Logo store figures: ingesting a logo (validate, render three renditions, write chunks, commit),
 * re-putting unchanged bytes, and reading the default rendition back — what a cache miss on the
 * default request costs. Run: `deno bench -A bench/logo_store_bench.ts`.
 *
 * @module
 */
import { LogoStore } from "../src/store/logo_store.ts";
import { flatImage, noiseImage } from "../test/support/images.ts";

const kv = await Deno.openKv(":memory:");
const logos = new LogoStore(kv);
const flat = flatImage(512, 512, [30, 60, 200, 255]);
const noisy = noiseImage(512, 512, 42);
let n = 0;

const { record } = await logos.put("read.example", flat, { source: "bench" });
await logos.put("unchanged.example", noisy, { source: "bench" });

Deno.bench("put: new 512×512 flat logo (3 renditions)", { group: "put" }, async () => {
  await logos.put(`flat${n++}.example`, flat, { source: "bench" });
});

Deno.bench(
  "put: new 512×512 noise logo (renders; its blobs already stored)",
  { group: "put" },
  async () => {
    await logos.put(`noise${n++}.example`, noisy, { source: "bench" });
  },
);

Deno.bench("put: unchanged bytes (hash only, no write)", { group: "put" }, async () => {
  await logos.put("unchanged.example", noisy, { source: "bench" });
});

Deno.bench("get + readRendition(default): the default answer from KV", async () => {
  const found = await logos.get("read.example");
  await logos.readRendition(found!.renditions.default);
});

Deno.bench("readRendition(source) of a 512×512 flat logo", async () => {
  await logos.readRendition(record.renditions.source);
});
