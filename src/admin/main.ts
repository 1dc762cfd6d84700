/**
 * The admin CLI, `deno task admin …`: manage keys and logos in the same KV as `deno task start`
 * (`LOGO_KV`). JSON results on stdout, messages and progress on stderr; exit status 0 ok,
 * 1 failed, 2 bad command line (then nothing has been written). See `usage.ts` for the commands.
 *
 * @example
 * ```sh
 * deno task admin key create --plan pro --allow https://app.example.com
 * deno task admin logo import ./logos
 * ```
 * @module
 */
import { kvLocation, openKv } from "../store/open_kv.ts";
import type { AdminCommand } from "./io.ts";
import { parseKeyCommand } from "./key_commands.ts";
import { parseLogoCommand } from "./logo_commands.ts";
import { USAGE, USAGE_EXIT, UsageError } from "./usage.ts";

/** What {@link runAdmin} needs from its surroundings. */
export interface AdminEnvironment {
  /** The `LOGO_KV` value, if set. */
  kvLocation?: string;
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

/** Runs the admin CLI on `args` and resolves to its exit status. */
export async function runAdmin(args: string[], env: AdminEnvironment): Promise<number> {
  let command: AdminCommand | "help";
  try {
    command = parseAdminArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    env.stderr(`error: ${error.message}\n\n${USAGE}`);
    return USAGE_EXIT;
  }
  if (command === "help") {
    env.stdout(USAGE);
    return 0;
  }
  let kv: Deno.Kv;
  try {
    kv = await openKv(kvLocation(env.kvLocation));
  } catch (error) {
    env.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    return await command.run({ kv, ...env });
  } catch (error) {
    if (error instanceof UsageError) {
      env.stderr(`error: ${error.message}\n\n${USAGE}`);
      return USAGE_EXIT;
    }
    env.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    kv.close();
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
    kvLocation: Deno.env.get("LOGO_KV"),
    stdout: write(Deno.stdout),
    stderr: write(Deno.stderr),
    stderrIsTerminal: Deno.stderr.isTerminal(),
  });
}
