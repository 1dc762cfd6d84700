/**
 * Child process of `test/discovery/discovery_hostile_test.ts`: discovers a site whose icon is a PNG with
 * zlib bombs, through an image pool, and prints `{ grown, status, result }` as JSON, `grown`
 * being how far this process's peak RSS rose during the discovery. A process of its own, so no
 * other test's memory is counted.
 *
 * @module
 */
import { startImagePool } from "../../imagecore/image_pool.ts";
import { createDiscovery } from "../../src/discovery/discover.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { mapHosts, page, startSite } from "./discovery_sites.ts";
import { pngWithZlibBombs, zlibBomb } from "./hostile_images.ts";

function peakRss(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

if (import.meta.main) {
  const icon = pngWithZlibBombs(await zlibBomb(Number(Deno.args[0] ?? 0.5)));
  const site = startSite({
    "/": { body: page(`<link rel="icon" href="/icon.png">`) },
    "/icon.png": { body: icon, type: "image/png" },
  });
  const kv = await Deno.openKv(":memory:");
  const imaging = startImagePool();
  await imaging.ready();
  const discovery = createDiscovery({
    kv,
    store: new LogoStore(kv, { imaging }),
    imaging,
    connectTo: mapHosts({ "bomb.test": site }),
    resolve: () => Promise.reject(new Error("no DNS")),
  });
  Deno.writeTextFileSync("/proc/self/clear_refs", "5"); // VmHWM := the current RSS
  const before = peakRss();
  const outcome = await discovery.discover("bomb.test");
  const grown = peakRss() - before;
  const result = outcome.tried.find((c) => c.url.endsWith("/icon.png"))?.result;
  console.log(JSON.stringify({ grown, status: outcome.status, result }));
  await imaging.close();
  await site.close();
  kv.close();
}
