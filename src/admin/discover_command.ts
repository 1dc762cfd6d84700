/**
 * `deno task admin logo discover DOMAIN [--force]`: runs discovery for one domain now — storing its
 * icon and its wordmark, as the server does (`admin_discovery.ts`) — and prints its outcome as JSON
 * (status and its meaning, the winning source URL, every candidate tried with what it turned out to
 * be, and what became of the wordmark; `discover_view.ts`). `--force` ignores the "no logo found"
 * memory and the refresh age, and replaces even an operator's logo or wordmark. Honours `LOGO_CONNECT_TO`, `LOGO_DNS_SERVER` and `DENO_CERT`
 * (the CLI's settings, `AdminContext.settings`). Exit status 0 when a logo is stored (found, kept
 * or already fresh), 1 when none was found.
 *
 * With `--from FILE` (or `-` for stdin) it discovers a list of domains instead: see
 * `bulk_discover_command.ts`.
 *
 * @module
 */
import type { AdminCommand, AdminContext } from "./io.ts";
import { printJson } from "./io.ts";
import { discoverView, whatToCheck } from "./discover_view.ts";
import { parseCommandArgs, UsageError } from "./usage.ts";
import { normalizeDomain } from "../domain_name.ts";
import type { DiscoveryConfig } from "../discovery/discover.ts";
import { openAdminDiscovery } from "./admin_discovery.ts";
import { isBulkDiscover, parseBulkDiscoverCommand } from "./bulk_discover_command.ts";

/** Options of the discover commands beyond the CLI's settings. */
export interface DiscoverCommandOptions {
  /** Further discovery configuration (tests inject a resolver or a small budget). */
  config?: Partial<DiscoveryConfig>;
}

/**
 * Parses `logo discover` arguments (after the subcommand) into a command.
 *
 * @throws {UsageError} for a bad domain or an unknown option.
 */
export function parseDiscoverCommand(
  args: string[],
  options: DiscoverCommandOptions = {},
): AdminCommand {
  if (isBulkDiscover(args)) return parseBulkDiscoverCommand(args, options);
  const parsed = parseCommandArgs("logo discover", args, ["DOMAIN"], {
    force: { type: "boolean" },
  });
  const input = parsed.positionals[0];
  const domain = normalizeDomain(input);
  if (domain === undefined) {
    throw new UsageError(`logo discover: invalid domain "${input}" (expected e.g. example.com)`);
  }
  const force = parsed.values.force === true;
  return {
    async run(context: AdminContext): Promise<number> {
      await using admin = await openAdminDiscovery(context.kv, context.settings, options.config);
      const outcome = await admin.discovery.discover(domain, { force });
      printJson(context, discoverView(outcome));
      if (outcome.status === "not-found" || outcome.status === "known-missing") {
        const hint = outcome.status === "known-missing" ? " (remembered; use --force)" : "";
        const reason = outcome.reason ?? outcome.pageError;
        const check = outcome.failure === "unreachable" ? whatToCheck(reason) : undefined;
        const why = reason ? `: ${reason}${check ? `; ${check}` : ""}` : "";
        context.stderr(`No logo found for ${domain}${hint}${why}\n`);
        return 1;
      }
      return 0;
    },
  };
}
