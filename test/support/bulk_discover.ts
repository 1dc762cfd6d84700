/**
 * Runs `logo discover --from …` in-process against fixture sites on loopback, capturing its
 * JSON lines (stdout) and stderr.
 *
 * @module
 */
import { type AdminSettings, readAdminSettings } from "../../src/admin/admin_settings.ts";
import {
  type BulkDiscoverOptions,
  parseBulkDiscoverCommand,
} from "../../src/admin/bulk_discover_command.ts";
import { noDns } from "./discover_setup.ts";
import { connectToValue, type FixtureSite } from "./discovery_sites.ts";

/** What one bulk run produced. */
export interface BulkResult {
  /** Exit status. */
  code: number;
  /** stdout, one parsed JSON value per line. */
  lines: Record<string, unknown>[];
  /** The domain lines (those with a `domain`), by domain. */
  byDomain: Map<string, Record<string, unknown>>;
  /** The final `summary` object. */
  summary: Record<string, unknown>;
  /** Everything written to stderr. */
  stderr: string;
}

/** Options of {@link runBulk}. */
export interface RunBulkOptions {
  /** Whether stderr is a terminal; default false. */
  terminal?: boolean;
  /** Further options (stdin, interrupt). */
  env?: Partial<BulkDiscoverOptions>;
}

/** The bulk command's options for fixture sites: DNS refused (they are reached by address). */
export const SITES_OPTIONS: BulkDiscoverOptions = { config: { resolve: noDns } };

/** The CLI's settings reaching `sites` over loopback (`LOGO_CONNECT_TO`). */
export function sitesSettings(sites: Record<string, FixtureSite>): AdminSettings {
  return readAdminSettings({ LOGO_CONNECT_TO: connectToValue(sites) });
}

/** Runs the bulk command with `args` on `kv`. */
export async function runBulk(
  kv: Deno.Kv,
  sites: Record<string, FixtureSite>,
  args: string[],
  options: RunBulkOptions = {},
): Promise<BulkResult> {
  let stdout = "";
  let stderr = "";
  const command = parseBulkDiscoverCommand(args, { ...SITES_OPTIONS, ...options.env });
  const code = await command.run({
    kv,
    settings: sitesSettings(sites),
    stdout: (t) => stdout += t,
    stderr: (t) => stderr += t,
    stderrIsTerminal: options.terminal ?? false,
  });
  const lines = stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  const byDomain = new Map(
    lines.filter((l) => typeof l.domain === "string").map((l) => [l.domain as string, l]),
  );
  const last = lines.at(-1)?.summary;
  if (last === undefined) throw new Error(`no summary line in: ${stdout}`);
  return { code, lines, byDomain, summary: last, stderr };
}

/** A stream of `text` as UTF-8 bytes, cut into small chunks (lines span chunk borders). */
export function textStream(text: string, chunk = 5): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
  return ReadableStream.from(parts);
}
