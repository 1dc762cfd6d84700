/**
 * Run by `monogram_render_pool_test.ts` in a process of its own: answers two `fallback=monogram`
 * requests through the app's handler with a real render pool as its `imaging`, then prints one
 * JSON line: their statuses, the WASM memory imagecore holds in this (the serving) isolate — 0
 * when neither of its modules was ever instantiated here — and the jobs the pool was given.
 * @module
 */
import { type ImageWork, type MonogramWork, startImagePool } from "../../imagecore/image_pool.ts";
import { wasmMemoryBytes } from "../../imagecore/mod.ts";
import { startTestApp } from "../support/server.ts";

await using pool = startImagePool({ size: 1 });
await pool.ready();
let poolJobs = 0;
const imaging: ImageWork & MonogramWork = {
  probe: (...args) => (poolJobs++, pool.probe(...args)),
  transform: (...args) => (poolJobs++, pool.transform(...args)),
  renditions: (...args) => (poolJobs++, pool.renditions(...args)),
  monogram: (...args) => (poolJobs++, pool.monogram(...args)),
};
await using server = await startTestApp({ app: { imaging } });
const statuses: number[] = [];
for (const domain of ["nothing.example", "other.example"]) {
  const tile = await server.exchange(
    server.logoUrl(domain, { fallback: "monogram", size: "800" }),
  );
  statuses.push(tile.status);
}
console.log(JSON.stringify({ statuses, serverWasmBytes: wasmMemoryBytes(), poolJobs }));
