/**
 * `deno task admin export FILE` and `deno task admin import-archive FILE [--replace]`: back up a
 * store's keys (with the hash of their secret token only, as stored) and logos (records and images)
 * to one gzip-compressed NDJSON file, and restore it. The format, the checks and the guarantees are
 * in `store/archive_format.ts`, `store/archive_writer.ts` and `store/archive_import.ts`.
 *
 * `export` writes `FILE.partial` and renames it to `FILE` once complete, so `FILE` is never a
 * half-written archive (an existing `FILE` is replaced only then). `import-archive` verifies the
 * whole file before writing anything (every image decoded in an image pool's worker, as `logo add`
 * checks a file: `admin_pool.ts`): a bad file, a bad entry (named by its line), a token that
 * belongs to another key (a revoked one included) or a conflict exits with status 1 and the store
 * unchanged.
 *
 * @example
 * ```sh
 * deno task admin export backup.ndjson.gz
 * LOGO_KV=./restored.kv deno task admin --init import-archive backup.ndjson.gz
 * ```
 * @module
 */
import { ArchiveError } from "../store/archive_format.ts";
import { importArchive, ImportConflict } from "../store/archive_import.ts";
import { writeArchive } from "../store/archive_writer.ts";
import { startAdminPool } from "./admin_pool.ts";
import { type AdminCommand, type AdminContext, isoTime, printJson } from "./io.ts";
import { ProgressBar } from "./progress_bar.ts";
import { parseCommandArgs } from "./usage.ts";

/**
 * Parses `export FILE`.
 *
 * @throws {UsageError} for a bad command line.
 */
export function parseExportCommand(args: string[]): AdminCommand {
  const [file] = parseCommandArgs("export", args, ["FILE"]).positionals;
  return { run: (context) => exportStore(context, file) };
}

/**
 * Parses `import-archive FILE [--replace]`.
 *
 * @throws {UsageError} for a bad command line.
 */
export function parseImportArchiveCommand(args: string[]): AdminCommand {
  const { values, positionals } = parseCommandArgs("import-archive", args, ["FILE"], {
    replace: { type: "boolean" },
  });
  const replace = values.replace === true;
  return { run: (context) => importStore(context, positionals[0], replace) };
}

function reason(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "no such file or directory";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  return error instanceof Error ? error.message : String(error);
}

async function exportStore(context: AdminContext, file: string): Promise<number> {
  const partial = `${file}.partial`;
  let out: Deno.FsFile;
  try {
    out = await Deno.open(partial, { write: true, create: true, truncate: true });
  } catch (error) {
    context.stderr(`error: Cannot write ${partial}: ${reason(error)}\n`);
    return 1;
  }
  try {
    const summary = await writeArchive(context.kv, out.writable);
    await Deno.rename(partial, file);
    const { size } = await Deno.stat(file);
    printJson(context, { file, ...summary, bytes: size });
    return 0;
  } catch (error) {
    await Deno.remove(partial).catch(() => undefined);
    throw error;
  }
}

async function importStore(context: AdminContext, file: string, replace: boolean): Promise<number> {
  const open = async () => (await Deno.open(file)).readable;
  try {
    await (await Deno.open(file)).close();
  } catch (error) {
    context.stderr(`error: Cannot read archive ${file}: ${reason(error)}\n`);
    return 1;
  }
  context.stderr(`Verifying ${file}…\n`);
  let bar: ProgressBar | undefined;
  try {
    await using imaging = await startAdminPool();
    const result = await importArchive(context.kv, open, {
      replace,
      imaging,
      onVerified(plan) {
        const { keys, logos } = plan;
        const total = keys.added + keys.replaced + keys.unchanged + logos.added + logos.replaced +
          logos.unchanged;
        context.stderr(`Verified: writing ${total} keys and logos…\n`);
        bar = new ProgressBar(total, { write: context.stderr, terminal: context.stderrIsTerminal });
      },
      onEntry(kind, label, outcome) {
        bar?.step(outcome, kind === "key" ? `key ${label}` : label);
      },
    });
    bar?.done();
    if (result.interrupted !== undefined) {
      context.stderr(
        `An earlier import (started ${isoTime(result.interrupted.startedAt)}) had been ` +
          "interrupted; this one finished.\n",
      );
    }
    printJson(context, { file, keys: result.keys, logos: result.logos, sha256: result.sha256 });
    return 0;
  } catch (error) {
    bar?.done();
    if (error instanceof ArchiveError || error instanceof ImportConflict) {
      context.stderr(`error: ${file}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
