/**
 * `deno task admin logo …`: add, import, remove and list logos, and collect unused images.
 *
 * `--type logo` stores the files as wordmarks instead of icons (`logo_types.ts`, with `rm` and
 * `list`, which handle both types). `logo import DIR` stores every `DIR/DOMAIN.EXT`: each logo is committed on its own, atomically,
 * so an import stopped at any point leaves complete logos only, and a second run writes nothing
 * for logos already stored with the same bytes. A bad file is reported and skipped; the others are
 * still imported, and the exit status is 1 when any file failed.
 *
 * The files are untrusted: `add` and `import` hand them to imagecore only in an image pool's
 * worker (`imagecore/image_pool.ts`), each job bounded by {@link ADMIN_IMAGE_DEADLINE_MS} and the
 * pool's memory cap; a refused file's message is imagecore's reason. `import` starts one worker
 * per core (`defaultRenderWorkers`) and keeps {@link LOGOS_IN_FLIGHT_PER_WORKER} files per worker
 * in flight; each logo is one imagecore job (one decode). Its progress says logos/s and an ETA.
 * A logo already stored from the same bytes by the current recipe is skipped before any decoding
 * (`LogoStore.put`), so an interrupted import resumes for the price of reading and hashing the
 * files done. `logo rerender` is in `rerender_command.ts`.
 *
 * @module
 */
import { basename, join } from "node:path";
import {
  ADMIN_IMAGE_DEADLINE_MS,
  LOGOS_IN_FLIGHT_PER_WORKER,
  startAdminPool,
} from "./admin_pool.ts";
import { parseRerenderCommand } from "./rerender_command.ts";
import { checkInputSize, ImageCoreError } from "../../imagecore/mod.ts";
import { normalizeDomain } from "../domain_name.ts";
import { pool } from "../discovery/bounded_concurrency.ts";
import { defaultRenderWorkers } from "../server/render_pool.ts";
import { parseDiscoverCommand } from "./discover_command.ts";
import { LogoStore } from "../store/logo_store.ts";
import { DEFAULT_TYPE, type LogoType } from "../sdk/logo_options.ts";
import { describeLogo, listLogos, removeLogo, TYPE_OPTION, typeOption } from "./logo_types.ts";
import { type AdminCommand, type AdminContext, printJson } from "./io.ts";
import { ProgressBar } from "./progress_bar.ts";
import { IMAGE_EXTENSIONS } from "./image_extensions.ts";
import { FileArgumentError, parseCommandArgs, UsageError } from "./usage.ts";

export { ADMIN_IMAGE_DEADLINE_MS, IMAGE_EXTENSIONS };

/**
 * Parses `logo <subcommand> …` into a command, validating every argument first.
 *
 * @throws {UsageError} for an unknown subcommand or a bad argument.
 */
export function parseLogoCommand(args: string[]): AdminCommand {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case "add": {
      const { positionals, values } = parseCommandArgs(
        "logo add",
        rest,
        ["DOMAIN", "FILE"],
        TYPE_OPTION,
      );
      const domain = domainArgument("logo add", positionals[0]);
      const type = typeOption("logo add", values) ?? DEFAULT_TYPE;
      return { run: (context) => addLogo(context, domain, positionals[1], type) };
    }
    case "import": {
      const { positionals, values } = parseCommandArgs("logo import", rest, ["DIR"], TYPE_OPTION);
      const type = typeOption("logo import", values) ?? DEFAULT_TYPE;
      return { run: (context) => importLogos(context, positionals[0], type) };
    }
    case "rm": {
      const { positionals, values } = parseCommandArgs("logo rm", rest, ["DOMAIN"], TYPE_OPTION);
      const domain = domainArgument("logo rm", positionals[0]);
      const type = typeOption("logo rm", values);
      return { run: (context) => removeLogo(context, domain, type) };
    }
    case "list": {
      parseCommandArgs("logo list", rest, []);
      return { run: listLogos };
    }
    case "gc": {
      parseCommandArgs("logo gc", rest, []);
      return { run: collectGarbage };
    }
    case "discover":
      return parseDiscoverCommand(rest);
    case "rerender":
      return parseRerenderCommand(rest);
    case undefined:
      throw new UsageError(
        "logo: expected a subcommand: add, import, rerender, rm, list, gc or discover",
      );
    default:
      throw new UsageError(`logo: unknown subcommand "${subcommand}"`);
  }
}

function domainArgument(command: string, input: string): string {
  const domain = normalizeDomain(input);
  if (domain === undefined) {
    throw new UsageError(`${command}: invalid domain "${input}" (expected e.g. example.com)`);
  }
  return domain;
}

/** Reads an image file, refusing one over imagecore's input limit without reading it. */
async function readImageFile(path: string): Promise<Uint8Array> {
  const info = await Deno.stat(path);
  if (!info.isFile) throw new Error(`Cannot read ${path}: not a file`);
  checkInputSize(info.size);
  return await Deno.readFile(path);
}

function errorMessage(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "No such file";
  if (error instanceof Deno.errors.PermissionDenied) return "Permission denied";
  return error instanceof Error ? error.message : String(error);
}

async function addLogo(
  context: AdminContext,
  domain: string,
  file: string,
  type: LogoType,
): Promise<number> {
  let bytes: Uint8Array;
  try {
    bytes = await readImageFile(file);
  } catch (error) {
    if (error instanceof ImageCoreError) {
      context.stderr(`${file}: ${error.message}\n`);
      return 1;
    }
    throw new FileArgumentError(`logo add: cannot read "${file}": ${errorMessage(error)}`);
  }
  try {
    await using imaging = await startAdminPool();
    const { record, changed } = await new LogoStore(context.kv, { imaging }).put(domain, bytes, {
      source: `file:${basename(file)}`,
      type,
    });
    printJson(context, { ...describeLogo(record, type), changed });
    return 0;
  } catch (error) {
    if (!(error instanceof ImageCoreError)) throw error;
    context.stderr(`${file}: ${error.message}\n`);
    return 1;
  }
}

/** One file of an import directory, matched to its domain. */
interface ImportItem {
  file: string;
  domain: string;
}

/**
 * Lists `dir`'s candidate files, sorted by name: regular files (or links to them) named
 * `DOMAIN.EXT` with an image extension. Hidden files are ignored; other names and duplicate
 * domains are reported.
 */
async function scanImportDir(dir: string): Promise<{
  items: ImportItem[];
  failed: { file: string; error: string }[];
  skipped: string[];
}> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.startsWith(".")) continue;
    if (entry.isFile || (entry.isSymlink && (await Deno.stat(join(dir, entry.name))).isFile)) {
      names.push(entry.name);
    }
  }
  names.sort();
  const items: ImportItem[] = [];
  const failed: { file: string; error: string }[] = [];
  const skipped: string[] = [];
  const byDomain = new Map<string, string[]>();
  for (const name of names) {
    const dot = name.lastIndexOf(".");
    const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
    if (!IMAGE_EXTENSIONS.has(extension)) {
      skipped.push(name);
      continue;
    }
    const domain = normalizeDomain(name.slice(0, dot));
    if (domain === undefined) {
      failed.push({ file: name, error: `Invalid domain "${name.slice(0, dot)}" in the file name` });
      continue;
    }
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), name]);
  }
  for (const [domain, files] of byDomain) {
    if (files.length === 1) {
      items.push({ file: files[0], domain });
      continue;
    }
    for (const file of files) {
      failed.push({ file, error: `Several files for ${domain}: ${files.join(", ")}` });
    }
  }
  items.sort((a, b) => a.file.localeCompare(b.file));
  return { items, failed, skipped };
}

async function importLogos(context: AdminContext, dir: string, type: LogoType): Promise<number> {
  let scan;
  try {
    scan = await scanImportDir(dir);
  } catch (error) {
    throw new FileArgumentError(
      `logo import: cannot read directory "${dir}": ${errorMessage(error)}`,
    );
  }
  const { items, failed, skipped } = scan;
  const workers = Math.min(defaultRenderWorkers(), Math.max(1, items.length));
  await using imaging = await startAdminPool(workers);
  const logos = new LogoStore(context.kv, { imaging });
  const bar = new ProgressBar(items.length, {
    write: context.stderr,
    terminal: context.stderrIsTerminal,
    rate: { unit: "logos", clock: () => performance.now() },
  });
  for (const name of skipped) {
    bar.message(`skipped ${name}: not named DOMAIN.EXT with an image extension`);
  }
  for (const failure of failed) bar.message(`failed ${failure.file}: ${failure.error}`);
  let imported = 0;
  let unchanged = 0;
  // Each logo is still committed on its own.
  await pool(items, workers * LOGOS_IN_FLIGHT_PER_WORKER, async (item) => {
    let bytes: Uint8Array;
    try {
      bytes = await readImageFile(join(dir, item.file));
    } catch (error) {
      failed.push({ file: item.file, error: errorMessage(error) });
      bar.message(`failed ${item.file}: ${errorMessage(error)}`);
      bar.step("failed", item.domain);
      return;
    }
    try {
      const { changed } = await logos.put(item.domain, bytes, {
        source: `file:${item.file}`,
        type,
      });
      if (changed) imported++;
      else unchanged++;
      bar.step(changed ? "imported" : "unchanged", item.domain);
    } catch (error) {
      // Anything but a refused image (a KV failure) stops the import: later files would fail too.
      if (!(error instanceof ImageCoreError)) throw error;
      failed.push({ file: item.file, error: error.message });
      bar.message(`failed ${item.file}: ${error.message}`);
      bar.step("failed", item.domain);
    }
  });
  bar.done();
  printJson(context, { imported, unchanged, failed, skipped });
  return failed.length === 0 ? 0 : 1;
}

async function collectGarbage(context: AdminContext): Promise<number> {
  const deleted = await new LogoStore(context.kv).sweep();
  printJson(context, { deletedBlobs: deleted });
  return 0;
}
