/**
 * First-run seeding: on an empty store (no keys, no logos) create a demo publishable key and a few
 * logos rendered in code, so `deno task start` on a clean clone prints a URL that works.
 *
 * The demo key is random like every key — there is no fixed, well-known key. It is remembered in
 * KV (`["meta", "demo"]`) so later starts can print the same URL while the key is not revoked.
 *
 * Only a store that never held data is seeded: seeding, and finding keys or logos, records
 * `["meta", "initialized"]` (`store/store_meta.ts`), and a store with that marker stays empty if
 * its keys and logos were deleted — a line says so instead of printing a demo URL.
 *
 * @example
 * ```ts
 * import { seedIfEmpty } from "./seed.ts";
 * const kv = await Deno.openKv(":memory:");
 * const demo = await seedIfEmpty(kv);
 * if (demo) console.log(`http://localhost:8000${demo.path}`);
 * ```
 * @module
 */
import { renderDemoLogos } from "./demo_logos.ts";
import { KeyStore } from "./key_store.ts";
import { LogoStore } from "./logo_store.ts";
import { DEMO_KEY, INITIALIZED_KEY } from "./keyspace.ts";
import { hasHeldData, initializedMarker, recordIfHoldsData } from "./store_meta.ts";

/** What {@link seedIfEmpty} returns for main.ts to print. */
export interface DemoInfo {
  /** Whether this call created the demo key and logos (false: they already existed). */
  created: boolean;
  /** Id of the demo key (revoke it with `deno task admin key revoke ID`). */
  keyId: string;
  /** The demo publishable key. */
  publishableKey: string;
  /** Domains that have demo logos; the first is the featured one. */
  domains: string[];
  /** A ready path and query for the featured logo: `/logo-lookup.test?token=pk_…`. */
  path: string;
}

/** Options of {@link seedIfEmpty}. */
export interface SeedOptions {
  /** Epoch-ms clock for the created records; default `Date.now`. */
  clock?: () => number;
  /** Where the line about an emptied store goes; default `console.log`. */
  log?: (line: string) => void;
}

/** Printed at start-up instead of a demo URL when a store that held data is empty. */
export const EMPTIED_STORE_MESSAGE = "The store has held data and is now empty (no keys, no " +
  "logos): no demo key is made. Create keys with `deno task admin key create`.";

const DEMO_MARKER = DEMO_KEY;

interface DemoMarker {
  keyId: string;
  publishableKey: string;
  domains: string[];
}

/**
 * Seeds an empty store that never held data and returns the demo key and domains. On a store
 * that is not empty, records that it has held data and returns the demo created earlier if its
 * key is still live, else `null` (nothing is created). On an empty store that has held data,
 * logs {@link EMPTIED_STORE_MESSAGE} and returns `null`. Safe when several instances start at
 * once on the same KV: one demo key wins.
 */
export async function seedIfEmpty(
  kv: Deno.Kv,
  options: SeedOptions = {},
): Promise<DemoInfo | null> {
  const keys = new KeyStore(kv, options);
  const logos = new LogoStore(kv, options);
  if (!(await keys.isEmpty()) || !(await logos.isEmpty())) {
    await recordIfHoldsData(kv, { by: "server", clock: options.clock });
    return await existingDemo(kv, keys);
  }
  if (await hasHeldData(kv)) {
    (options.log ?? console.log)(EMPTIED_STORE_MESSAGE);
    return null;
  }

  const { key } = await keys.create({});
  const demoLogos = renderDemoLogos();
  for (const logo of demoLogos) await logos.put(logo.domain, logo.bytes, { source: "demo" });
  const marker: DemoMarker = {
    keyId: key.id,
    publishableKey: key.publishableKey,
    domains: demoLogos.map((logo) => logo.domain),
  };
  const claimed = await kv.atomic()
    .check({ key: DEMO_MARKER, versionstamp: null })
    .set(DEMO_MARKER, marker)
    .set(INITIALIZED_KEY, initializedMarker("seed", options.clock))
    .commit();
  if (!claimed.ok) {
    // Another instance seeded at the same moment: keep its key, drop ours.
    await keys.revoke(key.id);
    return await existingDemo(kv, keys);
  }
  return toInfo(marker, true);
}

async function existingDemo(kv: Deno.Kv, keys: KeyStore): Promise<DemoInfo | null> {
  const marker = (await kv.get<DemoMarker>(DEMO_MARKER)).value;
  if (marker === null || (await keys.byPublishableKey(marker.publishableKey)) === null) return null;
  return toInfo(marker, false);
}

function toInfo(marker: DemoMarker, created: boolean): DemoInfo {
  return {
    created,
    keyId: marker.keyId,
    publishableKey: marker.publishableKey,
    domains: marker.domains,
    path: `/${marker.domains[0]}?token=${marker.publishableKey}`,
  };
}
