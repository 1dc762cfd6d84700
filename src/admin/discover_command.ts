/**
 * `deno task admin logo discover DOMAIN [--force]`: runs discovery for one domain now and prints
 * its outcome as JSON (status, the winning source URL, and every candidate tried with what it
 * turned out to be). `--force` ignores the "no logo found" memory and the refresh age, and
 * replaces even an operator's logo. Honours `LOGO_CONNECT_TO` and `LOGO_DNS_SERVER`. Exit status 0 when a logo is
 * stored (found, kept or already fresh), 1 when none was found.
 *
 * @module
 */
import type { AdminCommand, AdminContext } from "./io.ts";
import { printJson } from "./io.ts";
import { parseCommandArgs, UsageError } from "./usage.ts";
import { normalizeDomain } from "../sdk/domain.ts";
import { startImagePool } from "../../imagecore/image_pool.ts";
import { LogoStore } from "../store/logo_store.ts";
import { type NameServer, parseDnsServer } from "../discovery/bimi.ts";
import { type ConnectToMap, parseConnectTo } from "../discovery/connect_to.ts";
import { createDiscovery, type DiscoveryConfig } from "../discovery/discover.ts";
import { IMAGE_DEADLINE_MS } from "../discovery/measure_image.ts";

/** Environment of the command; read from the process by default. */
export interface DiscoverCommandEnv {
  /** The `LOGO_CONNECT_TO` value. */
  connectTo?: string;
  /** The `LOGO_DNS_SERVER` value. */
  dnsServer?: string;
  /** Further discovery settings (tests inject a resolver or a small budget). */
  config?: Partial<DiscoveryConfig>;
}

/**
 * Parses `logo discover` arguments (after the subcommand) into a command.
 *
 * @throws {UsageError} for a bad domain, an unknown option or a bad `LOGO_CONNECT_TO`.
 */
export function parseDiscoverCommand(
  args: string[],
  env: DiscoverCommandEnv = {
    connectTo: Deno.env.get("LOGO_CONNECT_TO"),
    dnsServer: Deno.env.get("LOGO_DNS_SERVER"),
  },
): AdminCommand {
  const parsed = parseCommandArgs("logo discover", args, ["DOMAIN"], {
    force: { type: "boolean" },
  });
  const input = parsed.positionals[0];
  const domain = normalizeDomain(input);
  if (domain === undefined) {
    throw new UsageError(`logo discover: invalid domain "${input}" (expected e.g. example.com)`);
  }
  let connectTo: ConnectToMap;
  let dnsServer: NameServer | undefined;
  try {
    connectTo = parseConnectTo(env.connectTo);
    dnsServer = parseDnsServer(env.dnsServer);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const force = parsed.values.force === true;
  return {
    async run(context: AdminContext): Promise<number> {
      // The fetched bytes are untrusted: imagecore sees them only in a pool's worker.
      await using imaging = startImagePool({ deadlineMs: IMAGE_DEADLINE_MS });
      await imaging.ready();
      const discovery = createDiscovery({
        kv: context.kv,
        store: new LogoStore(context.kv, { imaging }),
        connectTo,
        dnsServer,
        ...env.config,
        imaging,
      });
      const outcome = await discovery.discover(domain, { force });
      printJson(context, outcome);
      if (outcome.status === "not-found" || outcome.status === "known-missing") {
        const hint = outcome.status === "known-missing" ? " (remembered; use --force)" : "";
        context.stderr(`No logo found for ${domain}${hint}\n`);
        return 1;
      }
      return 0;
    },
  };
}
