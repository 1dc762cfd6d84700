/**
 * The admin CLI's usage text, its usage error, and argument parsing on top of `node:util`'s
 * `parseArgs` (strict: unknown options and missing values are errors).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { settingsHelp } from "../settings/settings_help.ts";
import { IMAGE_EXTENSIONS } from "./image_extensions.ts";

/** Exit status of a bad command line. */
export const USAGE_EXIT = 2;

/** The full usage message, printed for `help` and after every usage error but a {@link FileArgumentError}. */
export const USAGE = `Usage: deno task admin <command> [arguments]

Keys:
  key create [--plan NAME] [--limit N --window SECONDS] [--allow ORIGIN]... [--attribution]
                                  create a key; prints its secret key, once
  key list                        list keys (revoked ones included)
  key revoke ID                   revoke a key at once and for good
  key attribution ID URL          record the page where the key's user shows attribution

Logos:
  logo add DOMAIN FILE [--type icon|logo]
                                  store FILE as the icon of DOMAIN (or, --type logo, its wide
                                  wordmark); FILE is one of:
                                  ${[...IMAGE_EXTENSIONS].join(", ")}
  logo import DIR [--type icon|logo]
                                  store every DIR/DOMAIN.EXT (EXT as for logo add) as icons (or
                                  wordmarks); a rerun skips the logos already stored from the same
                                  bytes
  logo rerender [--all] [--from DOMAIN] [--type icon|logo]
                                  re-render stored logos from their stored source: those made by
                                  an older recipe (a rerun skips what is done), or --all; --from
                                  starts at DOMAIN (domain order, as the progress lines); icons
                                  and wordmarks, or the --type given
  logo rm DOMAIN [--type icon|logo]
                                  remove the icon and the wordmark of DOMAIN, or the --type given
  logo list                       list stored logos, icons and wordmarks (logoType)
  logo gc                         delete stored images no logo uses any more
  logo discover DOMAIN [--force]  find DOMAIN's logo on its website and store it (LOGO_CONNECT_TO)
  logo discover --from FILE [--concurrency N] [--force]
                                  discover every domain of FILE (one a line, # comments; - reads
                                  stdin), N at once (default 4, at most 32); one JSON line per
                                  domain, then a summary; a rerun skips domains already done

Backup:
  export FILE                     write every key (secret keys as their hash, as stored) and logo
                                  to FILE (gzip-compressed NDJSON); FILE appears once complete
  import-archive FILE [--replace] verify all of FILE, then add its keys and logos to the store;
                                  keys or logos that differ from the store's are refused unless
                                  --replace; run it again to finish an interrupted import

Plans: free, starter, pro, enterprise (src/store/plans.ts). --allow takes https://app.example.com,
example.com or *.example.com and may be repeated.
--init (before or after the command) creates the store file if LOGO_KV names none; without it a
missing store file is refused (exit status 1) and nothing is created.

Settings, read from the environment (a bad value: exit status 2, nothing written):
${settingsHelp(["admin"])}
Output: JSON on stdout, messages on stderr. Exit status: 0 ok, 1 failed, 2 bad command line.
`;

/** A bad command line: the CLI prints the message and the usage, and exits with status 2. */
export class UsageError extends Error {
  /** Creates a usage error with a message such as "key revoke: expected ID". */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * A command line naming a file or directory that cannot be read: exit status 2 like every bad
 * command line (nothing has been written), but the CLI prints this one line, not the usage — the
 * command was well formed.
 */
export class FileArgumentError extends UsageError {
  /** Creates an error such as `logo add: cannot read "./acme.svg": No such file`. */
  constructor(message: string) {
    super(message);
    this.name = "FileArgumentError";
  }
}

/** Option specs in `node:util` `parseArgs` form. */
export type OptionSpecs = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

/**
 * Parses `args` for the command `name`: options per `options`, and exactly the positionals named
 * in `positionals`.
 *
 * @throws {UsageError} for an unknown option, a missing option value, or a wrong positional count.
 */
export function parseCommandArgs(
  name: string,
  args: string[],
  positionals: string[],
  options: OptionSpecs = {},
): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed.positionals.length !== positionals.length) {
    const expected = positionals.length === 0 ? "no arguments" : positionals.join(" ");
    throw new UsageError(`${name}: expected ${expected}`);
  }
  return {
    values: parsed.values as Record<string, string | boolean | string[] | undefined>,
    positionals: parsed.positionals,
  };
}

/**
 * Parses a whole number option value.
 *
 * @throws {UsageError} when `value` is not a plain decimal integer.
 */
export function parseWholeNumber(option: string, value: string): number {
  if (!/^[0-9]{1,15}$/.test(value)) {
    throw new UsageError(`--${option}: expected a whole number, got "${value}"`);
  }
  return Number(value);
}
