/**
 * The discovery service as the admin commands (`logo discover DOMAIN`, `logo discover --from
 * FILE`) open it: settings from `LOGO_CONNECT_TO` and `LOGO_DNS_SERVER`, the store's KV, and an
 * image pool (fetched bytes are untrusted: imagecore sees them only in a pool's worker).
 *
 * @module
 */
import { startImagePool } from "../../imagecore/image_pool.ts";
import { LogoStore } from "../store/logo_store.ts";
import { type NameServer, parseDnsServer } from "../discovery/bimi.ts";
import { type ConnectToMap, parseConnectTo } from "../discovery/connect_to.ts";
import { createDiscovery, type Discovery, type DiscoveryConfig } from "../discovery/discover.ts";
import { readDenoCert } from "../discovery/extra_ca.ts";
import { trustedRoots } from "../discovery/fetch_hop.ts";
import { IMAGE_DEADLINE_MS } from "../discovery/measure_image.ts";
import { UsageError } from "./usage.ts";

/** Environment of the discover commands; read from the process by default. */
export interface DiscoverCommandEnv {
  /** The `LOGO_CONNECT_TO` value. */
  connectTo?: string;
  /** The `LOGO_DNS_SERVER` value. */
  dnsServer?: string;
  /** The `DENO_CERT` value: a PEM file of extra CA certificates discovery trusts too. */
  denoCert?: string;
  /** Further discovery settings (tests inject a resolver or a small budget). */
  config?: Partial<DiscoveryConfig>;
}

/** The process's discover settings. */
export function processDiscoverEnv(): DiscoverCommandEnv {
  return {
    connectTo: Deno.env.get("LOGO_CONNECT_TO"),
    dnsServer: Deno.env.get("LOGO_DNS_SERVER"),
    denoCert: Deno.env.get("DENO_CERT"),
  };
}

/** Parsed discover settings. */
export interface DiscoverSettings {
  /** `LOGO_CONNECT_TO`, parsed. */
  connectTo: ConnectToMap;
  /** `LOGO_DNS_SERVER`, parsed. */
  dnsServer?: NameServer;
  /** `DENO_CERT`'s certificates, if set. */
  extraCaCerts?: string[];
  /** See {@link DiscoverCommandEnv.config}. */
  config?: Partial<DiscoveryConfig>;
}

/**
 * Parses the environment of a discover command.
 *
 * @throws {UsageError} for a bad `LOGO_CONNECT_TO`, `LOGO_DNS_SERVER` or `DENO_CERT`.
 *
 * @example
 * ```ts
 * const settings = discoverSettings({ connectTo: "acme.test:80:127.0.0.1:8081" });
 * ```
 */
export function discoverSettings(env: DiscoverCommandEnv): DiscoverSettings {
  try {
    return {
      connectTo: parseConnectTo(env.connectTo),
      dnsServer: parseDnsServer(env.dnsServer),
      extraCaCerts: readDenoCert(env.denoCert),
      config: env.config,
    };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A discovery service with its image pool; dispose of it to stop the pool. */
export interface AdminDiscovery extends AsyncDisposable {
  /** The service. */
  discovery: Discovery;
}

/**
 * Starts an image pool and the discovery service on `kv`; `extra` adds settings (e.g. a
 * shutdown `signal`, `maxConcurrent`).
 *
 * @example
 * ```ts
 * const kv = await Deno.openKv(":memory:");
 * await using admin = await openAdminDiscovery(kv, discoverSettings({}));
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
  const discovery = createDiscovery({
    kv,
    store: new LogoStore(kv, { imaging }),
    connectTo: settings.connectTo,
    dnsServer: settings.dnsServer,
    caCerts: settings.extraCaCerts ? trustedRoots(settings.extraCaCerts) : undefined,
    ...settings.config,
    ...extra,
    imaging,
  });
  return { discovery, [Symbol.asyncDispose]: () => imaging.close() };
}
