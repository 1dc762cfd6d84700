/**
 * Runs the admin CLI as a real subprocess (`deno run -A src/admin/main.ts …`) against a KV file,
 * the way an operator does.
 *
 * @module
 */

/** The admin CLI entry point. */
export const ADMIN_MAIN: string = new URL("../../src/admin/main.ts", import.meta.url).pathname;
/** The repository root, where deno.json lives. */
export const REPO_ROOT: string = new URL("../../", import.meta.url).pathname;

/** What one CLI run produced. */
export interface CliResult {
  /** Exit status. */
  code: number;
  /** Everything written to stdout. */
  stdout: string;
  /** Everything written to stderr. */
  stderr: string;
}

/** Options of {@link adminCommand}. */
export interface AdminCommandOptions {
  /** Where stdout goes; default piped. */
  stdout?: "piped" | "null";
  /** Where stderr goes; default piped. */
  stderr?: "piped" | "null";
  /** More environment, e.g. `DENO_KV_ACCESS_TOKEN` for a remote `kvPath`. */
  env?: Record<string, string>;
}

/**
 * The command that runs the CLI with `args` on the store `kvPath` (a KV file, or the URL of a
 * remote KV with `DENO_KV_ACCESS_TOKEN` in `options.env`).
 */
export function adminCommand(
  kvPath: string,
  args: string[],
  options: AdminCommandOptions = {},
): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ADMIN_MAIN, ...args],
    cwd: REPO_ROOT,
    env: { ...options.env, LOGO_KV: kvPath, NO_COLOR: "1" },
    stdin: "null",
    stdout: options.stdout ?? "piped",
    stderr: options.stderr ?? "piped",
  });
}

/** Runs the CLI to completion; `env` adds to its environment. */
export async function runAdminCli(
  kvPath: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const output = await adminCommand(kvPath, args, { env }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Runs the CLI, asserts it exited 0, and parses its stdout as JSON; `env` adds to its environment. */
export async function runAdminJson<T = unknown>(
  kvPath: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<T> {
  const result = await runAdminCli(kvPath, args, env);
  if (result.code !== 0) {
    throw new Error(`admin ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
  }
  return JSON.parse(result.stdout) as T;
}
