/**
 * The world of the discovery tests: fixture sites on loopback reached through a connect-to map
 * (DNS refused), an in-memory KV and logo store, an image pool and a hand-moved clock.
 */
import { startImagePool } from "../../imagecore/image_pool.ts";
import type { ConnectToMap } from "../../src/discovery/connect_to.ts";
import { createDiscovery, type DiscoveryConfig } from "../../src/discovery/discover.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { logosOfType, type TypedLogoStore } from "../../src/store/typed_logo_store.ts";
import { type FixtureSite, mapHosts, type Route, startSite } from "./discovery_sites.ts";

export const DAY = 24 * 60 * 60 * 1000;

/** DNS must never be used in these tests: every host is mapped, everything else is refused. */
export const noDns = (name: string): Promise<string[]> =>
  Promise.reject(new Error(`no DNS for ${name}`));

export interface World {
  kv: Deno.Kv;
  store: LogoStore;
  /** The store's wordmarks; discovery stores into them only when the world was made `wired`. */
  wordmarks: TypedLogoStore;
  sites: FixtureSite[];
  connectTo: ConnectToMap;
  now: { value: number };
  discovery: ReturnType<typeof createDiscovery>;
  close(): Promise<void>;
}

/**
 * A world serving `hosts`; with `wired`, discovery stores wordmarks too (`DiscoveryConfig.wordmarks`
 * is the store's, as the server and the admin CLI give it).
 */
export async function world(
  hosts: Record<string, Record<string, Route>>,
  config: Partial<DiscoveryConfig> = {},
  options: { wired?: boolean } = {},
): Promise<World> {
  const kv = await Deno.openKv(":memory:");
  const now = { value: Date.UTC(2026, 0, 1) };
  const clock = () => now.value;
  // Loaded before any budget or deadline starts (a first run type-checks the worker here).
  const imaging = startImagePool();
  await imaging.ready();
  const store = new LogoStore(kv, { clock, imaging });
  const wordmarks = logosOfType(store, "logo");
  const sites: Record<string, FixtureSite> = {};
  for (const [host, routes] of Object.entries(hosts)) sites[host] = startSite(routes);
  const connectTo = mapHosts(sites);
  const discovery = createDiscovery({
    kv,
    store,
    imaging,
    connectTo,
    resolve: noDns,
    clock,
    ...(options.wired ? { wordmarks } : {}),
    ...config,
  });
  return {
    kv,
    store,
    wordmarks,
    sites: Object.values(sites),
    connectTo,
    now,
    discovery,
    async close() {
      for (const site of Object.values(sites)) await site.close();
      await imaging.close();
      kv.close();
    },
  };
}

export const html = (text: string): Route => ({ body: text, type: "text/html; charset=utf-8" });
export const image = (bytes: Uint8Array, type = "image/png"): Route => ({ body: bytes, type });
