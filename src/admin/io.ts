/**
 * What an admin command may use: the store's KV, the CLI's settings and the two output streams.
 * Passed in, so the CLI runs the same in a subprocess and in a test.
 *
 * @module
 */
import type { AdminSettings } from "./admin_settings.ts";

/** The context every admin command runs in. */
export interface AdminContext {
  /** The opened store. */
  kv: Deno.Kv;
  /** The CLI's settings, read and checked before the store was opened (`admin_settings.ts`). */
  settings: AdminSettings;
  /** Writes to stdout: JSON results only. */
  stdout(text: string): void;
  /** Writes to stderr: messages and progress for humans. */
  stderr(text: string): void;
  /** Whether stderr is a terminal (progress redraws in place) or not (one line per item). */
  stderrIsTerminal: boolean;
}

/** A parsed command, ready to run once the KV is open. Resolves to the exit status. */
export interface AdminCommand {
  /** Runs the command. */
  run(context: AdminContext): Promise<number>;
}

/** Writes `value` as pretty JSON and a newline to stdout. */
export function printJson(context: AdminContext, value: unknown): void {
  context.stdout(JSON.stringify(value, null, 2) + "\n");
}

/** Formats epoch milliseconds as an ISO 8601 UTC timestamp. */
export function isoTime(epochMs: number | undefined): string | undefined {
  return epochMs === undefined ? undefined : new Date(epochMs).toISOString();
}
