/**
 * The admin CLI, `deno task admin …`: manage keys and logos in the same KV as `deno task start`
 * (`LOGO_KV`). JSON results on stdout, messages and progress on stderr; exit status 0 ok,
 * 1 failed, 2 bad command line (then nothing has been written). See `usage.ts` for the commands.
 *
 * A store file that does not exist is not created (the server expects an existing one; a typo in
 * `LOGO_KV` or a deleted file would otherwise leave keys in a new store no server reads) unless
 * `--init` is given. Every run that finds keys or logos in the store records that the store has
 * held data (`store/store_meta.ts`), so the server never seeds demo data into it again.
 *
 * @example
 * ```sh
 * deno task admin key create --plan pro --allow https://app.example.com
 * deno task admin logo import ./logos
 * ```
 * @module
 */
import { isKvFile, openKv, storeFileExists } from "../store/open_kv.ts";
import { retryWhileLocked } from "../store/store_locked.ts";
import { recordIfHoldsData } from "../store/store_meta.ts";
import type { AdminCommand } from "./io.ts";
import { parseExportCommand, parseImportArchiveCommand } from "./archive_commands.ts";
import { parseKeyCommand } from "./key_commands.ts";
import { parseLogoCommand } from "./logo_commands.ts";
import { FileArgumentError, USAGE, USAGE_EXIT, UsageError } from "./usage.ts";
import { type AdminSettings, readAdminSettings } from "./admin_settings.ts";
import { processEnv } from "../settings/process_env.ts";
import type { SettingsEnv } from "../settings/setting.ts";

/** What {@link runAdmin} needs from its surroundings. */
export interface AdminEnvironment {
  /**
   * The environment the CLI's settings are read from (`LOGO_KV`, …; `admin_settings.ts`): the
   * process's in production.
   */
  env: SettingsEnv;
  /** Writes to stdout. */
  stdout(text: string): void;
  /** Writes to stderr. */
  stderr(text: string): void;
  /** Whether stderr is a terminal. */
  stderrIsTerminal: boolean;
}

/**
 * Parses the command line into a command without side effects.
 *
 * @throws {UsageError} for a bad command line.
 */
export function parseAdminArgs(args: string[]): AdminCommand | "help" {
  const [group, ...rest] = args;
  switch (group) {
    case "key":
      return parseKeyCommand(rest);
    case "logo":
      return parseLogoCommand(rest);
    case "export":
      return parseExportCommand(rest);
    case "import-archive":
      return parseImportArchiveCommand(rest);
    case "help":
    case "--help":
    case "-h":
      return "help";
    case undefined:
      throw new UsageError("expected a command");
    default:
      throw new UsageError(`unknown command "${group}"`);
  }
}

/** The option that lets the CLI create a store file that does not exist yet. */
export const INIT_OPTION = "--init";

/**
 * Takes the global `--init` out of `args` (anywhere before a `--`); the rest is the command.
 *
 * @example
 * ```ts
 * import { takeInitOption } from "./main.ts";
 * takeInitOption(["--init", "key", "create"]); // { init: true, args: ["key", "create"] }
 * ```
 */
export function takeInitOption(args: string[]): { init: boolean; args: string[] } {
  const end = args.indexOf("--");
  const options = end < 0 ? args : args.slice(0, end);
  const rest = options.filter((arg) => arg !== INIT_OPTION);
  if (rest.length === options.length) return { init: false, args };
  return { init: true, args: end < 0 ? rest : [...rest, ...args.slice(end)] };
}

/** Runs the admin CLI on `args` and resolves to its exit status. */
export async function runAdmin(
  givenArgs: string[],
  environment: AdminEnvironment,
): Promise<number> {
  const { init, args } = takeInitOption(givenArgs);
  let command: AdminCommand | "help";
  try {
    command = parseAdminArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    environment.stderr(`error: ${error.message}\n\n${USAGE}`);
    return USAGE_EXIT;
  }
  if (command === "help") {
    environment.stdout(USAGE);
    return 0;
  }
  let settings: AdminSettings;
  try {
    settings = readAdminSettings(environment.env);
  } catch (error) {
    environment.stderr(`error: ${(error as Error).message}\n\n${USAGE}`);
    return USAGE_EXIT;
  }
  const location = settings.kvLocation;
  let kv: Deno.Kv;
  let created = false;
  try {
    created = init && isKvFile(location) && !(await storeFileExists(location));
    // A server may write to the same store file at the same moment: retry "database is locked".
    kv = retryWhileLocked(await openKv(location, { createFile: init }));
  } catch (error) {
    environment.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    // Before and after: a store with data from an interrupted run is marked before this command
    // could delete it all, and one this command filled is marked at once.
    await recordIfHoldsData(kv, { by: "admin" });
    try {
      const { stdout, stderr, stderrIsTerminal } = environment;
      return await command.run({ kv, settings, stdout, stderr, stderrIsTerminal });
    } finally {
      await recordIfHoldsData(kv, { by: "admin" });
    }
  } catch (error) {
    if (error instanceof UsageError) {
      // A well-formed command whose file cannot be read: the message alone says what to fix.
      const usage = error instanceof FileArgumentError ? "" : `\n${USAGE}`;
      environment.stderr(`error: ${error.message}\n${usage}`);
      return USAGE_EXIT;
    }
    environment.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    kv.close();
    // Last, so that an error message still starts the output.
    if (created) environment.stderr(`Created a new, empty store at LOGO_KV=${location}.\n`);
  }
}

if (import.meta.main) {
  const encoder = new TextEncoder();
  const write = (stream: { writeSync(p: Uint8Array): number }) => (text: string) => {
    const bytes = encoder.encode(text);
    for (let written = 0; written < bytes.length;) {
      written += stream.writeSync(bytes.subarray(written));
    }
  };
  Deno.exitCode = await runAdmin(Deno.args, {
    env: processEnv(),
    stdout: write(Deno.stdout),
    stderr: write(Deno.stderr),
    stderrIsTerminal: Deno.stderr.isTerminal(),
  });
}
