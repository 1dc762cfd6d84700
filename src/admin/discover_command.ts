/**
 * `deno task admin logo discover DOMAIN [--force]`: runs discovery for one domain now and prints
 * its outcome as JSON (status, the winning source URL, and every candidate tried with what it
 * turned out to be). `--force` ignores the "no logo found" memory and the refresh age, and
 * replaces even an operator's logo. Honours `LOGO_CONNECT_TO` and `LOGO_DNS_SERVER`. Exit status 0 when a logo is
 * stored (found, kept or already fresh), 1 when none was found.
 *
 * With `--from FILE` (or `-` for stdin) it discovers a list of domains instead: see
 * `bulk_discover_command.ts`.
 *
 * @module
 */
import type { AdminCommand, AdminContext } from "./io.ts";
import { printJson } from "./io.ts";
import { parseCommandArgs, UsageError } from "./usage.ts";
import { normalizeDomain } from "../domain_name.ts";
import {
  type DiscoverCommandEnv,
  discoverSettings,
  openAdminDiscovery,
  processDiscoverEnv,
} from "./admin_discovery.ts";
import { isBulkDiscover, parseBulkDiscoverCommand } from "./bulk_discover_command.ts";

export type { DiscoverCommandEnv } from "./admin_discovery.ts";

/**
 * Parses `logo discover` arguments (after the subcommand) into a command.
 *
 * @throws {UsageError} for a bad domain, an unknown option or a bad `LOGO_CONNECT_TO`.
 */
export function parseDiscoverCommand(
  args: string[],
  env: DiscoverCommandEnv = processDiscoverEnv(),
): AdminCommand {
  if (isBulkDiscover(args)) return parseBulkDiscoverCommand(args, env);
  const parsed = parseCommandArgs("logo discover", args, ["DOMAIN"], {
    force: { type: "boolean" },
  });
  const input = parsed.positionals[0];
  const domain = normalizeDomain(input);
  if (domain === undefined) {
    throw new UsageError(`logo discover: invalid domain "${input}" (expected e.g. example.com)`);
  }
  const settings = discoverSettings(env);
  const force = parsed.values.force === true;
  return {
    async run(context: AdminContext): Promise<number> {
      await using admin = await openAdminDiscovery(context.kv, settings);
      const outcome = await admin.discovery.discover(domain, { force });
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
