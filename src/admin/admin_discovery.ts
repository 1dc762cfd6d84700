/**
 * The discovery service as the admin commands (`logo discover DOMAIN`, `logo discover --from
 * FILE`) open it: the CLI's settings (`LOGO_CONNECT_TO`, `LOGO_DNS_SERVER`, `DENO_CERT`), the
 * store's KV (icons and wordmarks are stored, as by the server), and an image pool (fetched bytes are untrusted: imagecore sees them only in a pool's
 * worker).
 *
 * @module
 */
import { startImagePool } from "../../imagecore/image_pool.ts";
import { LogoStore } from "../store/logo_store.ts";
import { logosOfType } from "../store/typed_logo_store.ts";
import { createDiscovery, type Discovery, type DiscoveryConfig } from "../discovery/discover.ts";
import { trustedRoots } from "../discovery/fetch_hop.ts";
import { IMAGE_DEADLINE_MS } from "../discovery/measure_image.ts";
import type { AdminSettings } from "./admin_settings.ts";

/** The settings discovery takes from the admin CLI's. */
export type DiscoverSettings = Pick<AdminSettings, "connectTo" | "dnsServer" | "extraCaCerts">;

/** A discovery service with its image pool; dispose of it to stop the pool. */
export interface AdminDiscovery extends AsyncDisposable {
  /** The service. */
  discovery: Discovery;
}

/**
 * Starts an image pool and the discovery service on `kv`; `extra` adds settings (e.g. a
 * shutdown `signal`, `maxConcurrent`; tests inject a resolver or a small budget).
 *
 * @example
 * ```ts
 * import { readAdminSettings } from "./admin_settings.ts";
 * const kv = await Deno.openKv(":memory:");
 * await using admin = await openAdminDiscovery(kv, readAdminSettings({}));
 * const outcome = await admin.discovery.discover("acme.test");
 * ```
 */
export async function openAdminDiscovery(
  kv: Deno.Kv,
  settings: DiscoverSettings,
  extra: Partial<DiscoveryConfig> = {},
): Promise<AdminDiscovery> {
  const imaging = startImagePool({ deadlineMs: IMAGE_DEADLINE_MS });
  try {
    await imaging.ready();
  } catch (error) {
    await imaging.close();
    throw error;
  }
  const logos = new LogoStore(kv, { imaging });
  const discovery = createDiscovery({
    kv,
    store: logos,
    wordmarks: logosOfType(logos, "logo"), // stored beside the icon, as the server does
    connectTo: settings.connectTo,
    dnsServer: settings.dnsServer,
    caCerts: settings.extraCaCerts ? trustedRoots(settings.extraCaCerts) : undefined,
    ...extra,
    imaging,
  });
  return { discovery, [Symbol.asyncDispose]: () => imaging.close() };
}
