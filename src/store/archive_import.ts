/**
 * Restores a backup archive (`archive_format.ts`) into a store, in two passes over the file:
 *
 * 1. **Verify** — read the whole archive (`archive_reader.ts`: format, every field, every image's
 *    SHA-256, the trailer's counts and checksum), decode every image as `logo add` would check it
 *    (`archive_images.ts`), and compare each key and logo with the store, writing nothing. A
 *    truncated, corrupt or foreign file, a duplicate entry, an image imagecore cannot decode or not
 *    of the size and recipe `logo add` makes, a token that belongs to another key — in the store,
 *    live or revoked (`key_restore.ts`: a revoked token never authenticates again), or in the
 *    archive —, or, without `replace`, a key or logo that differs from the store's, stops the
 *    import here with the store unchanged: one bad entry refuses the whole archive.
 * 2. **Write** — record an {@link ImportMarker} (`["meta", "import"]`, with `["meta",
 *    "initialized"]` so a server starting meanwhile seeds no demo data), then read the archive again
 *    and write each key and logo in its own atomic commit (`key_restore.ts`, `logo_restore.ts`), so
 *    each appears whole or not at all; last, delete the marker.
 *
 * Existing data: an import adds to the store and never deletes. A key (by id) or logo (by domain)
 * equal to the archive's is left as is; a different one is refused, or replaced with `replace`. A
 * key the store holds revoked stays revoked, whatever the archive says (`key_restore.ts`).
 *
 * Interrupted (killed, power lost, KV gone): every key and logo is either fully there or absent —
 * Deno KV commits at most 1000 mutations or 800 KiB at once, so a whole archive cannot appear in one
 * commit. The marker stays and says so; running the same import again writes what is missing
 * (what the first run wrote is now equal, so it is left) and clears the marker. Images written for
 * a logo whose commit never came are invisible and collected by `logo gc`.
 *
 * @example
 * ```ts
 * import { importArchive } from "./archive_import.ts";
 * const kv = await Deno.openKv(":memory:");
 * const open = async () => (await Deno.open("backup.ndjson.gz")).readable;
 * const result = await importArchive(kv, open, { replace: false });
 * result.logos.added; // how many logos were added
 * ```
 * @module
 */
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { ArchiveError } from "./archive_format.ts";
import { ArchiveImages } from "./archive_images.ts";
import { ArchiveKeys } from "./archive_keys.ts";
import { readArchive } from "./archive_reader.ts";
import { IMPORT_KEY, INITIALIZED_KEY } from "./keyspace.ts";
import { planLogoRestore, restoreLogo, type RestoreOutcome } from "./logo_restore.ts";
import type { LogoType } from "./logo_store.ts";
import { initializedMarker } from "./store_meta.ts";

/** The value at `["meta", "import"]` while an import writes, or after one was interrupted. */
export interface ImportMarker {
  /** The archive's checksum (its trailer's `sha256`). */
  sha256: string;
  /** When the write pass started (epoch ms). */
  startedAt: number;
  /** Keys in the archive. */
  keys: number;
  /** Logos in the archive. */
  logos: number;
}

/** How many entries of one kind an import added, replaced or left unchanged. */
export interface ImportCounts {
  /** New in the store. */
  added: number;
  /** Replaced a different one (only with `replace`). */
  replaced: number;
  /** Already in the store, equal. */
  unchanged: number;
}

/** What {@link verifyArchive} found: the archive is sound, and what importing it would do. */
export interface ImportPlan {
  /** The archive's checksum. */
  sha256: string;
  /** What would happen to its keys. */
  keys: ImportCounts & { conflicts: number };
  /** What would happen to its logos. */
  logos: ImportCounts & { conflicts: number };
  /** The first few conflicting key ids and domains, for the message. */
  conflicting: string[];
}

/** What {@link importArchive} did. */
export interface ImportResult {
  /** The archive's checksum. */
  sha256: string;
  /** Its keys. */
  keys: ImportCounts;
  /** Its logos. */
  logos: ImportCounts;
  /** The marker of an earlier import that had been interrupted, if there was one. */
  interrupted?: ImportMarker;
}

/** Options of {@link importArchive} and {@link verifyArchive}. */
export interface ImportOptions {
  /** Replace keys and logos that differ from the archive's instead of refusing. */
  replace: boolean;
  /** Epoch-ms clock; default `Date.now`. */
  clock?: () => number;
  /**
   * Where the archive's images are decoded (`archive_images.ts`): an image pool for a file from
   * outside, as `logo add` uses; default in this isolate.
   */
  imaging?: ImageWork;
  /** Called once the archive is verified, before the first write. */
  onVerified?: (plan: ImportPlan) => void;
  /** Called after each key or logo is written (or found equal). */
  onEntry?: (kind: "key" | "logo", label: string, outcome: RestoreOutcome) => void;
}

/** An archive that is sound but would overwrite different data without `replace`. */
export class ImportConflict extends Error {
  /** The plan that found the conflicts. */
  readonly plan: ImportPlan;
  /** Creates the error for `plan`. */
  constructor(plan: ImportPlan) {
    const { keys, logos, conflicting } = plan;
    super(
      `Cannot import: ${keys.conflicts} keys and ${logos.conflicts} logos in the archive differ ` +
        `from the store's (${conflicting.join(", ")}${
          keys.conflicts + logos.conflicts > conflicting.length ? ", …" : ""
        }). Give --replace to replace them with the archive's; nothing was written.`,
    );
    this.name = "ImportConflict";
    this.plan = plan;
  }
}

/** Conflicting names kept for the message. */
const NAMED_CONFLICTS = 5;

function counts(): ImportCounts & { conflicts: number } {
  return { added: 0, replaced: 0, unchanged: 0, conflicts: 0 };
}

function tally(c: ImportCounts & { conflicts?: number }, outcome: RestoreOutcome): void {
  if (outcome === "conflict") c.conflicts = (c.conflicts ?? 0) + 1;
  else c[outcome]++;
}

/**
 * Pass 1: reads the whole archive `open()` returns, decodes its images with `images`, and
 * compares it with the store, writing nothing.
 *
 * @throws {ArchiveError} for a truncated, corrupt or foreign file, a duplicate entry or token, an
 *   image `logo add` would refuse, or a key whose token is another key's in the store.
 */
export async function verifyArchive(
  kv: Deno.Kv,
  open: () => Promise<ReadableStream<Uint8Array<ArrayBuffer>>>,
  options: Pick<ImportOptions, "replace" | "imaging">,
  images: ArchiveImages = new ArchiveImages(options.imaging),
): Promise<ImportPlan> {
  const plan: ImportPlan = { sha256: "", keys: counts(), logos: counts(), conflicting: [] };
  const seen = new Set<string>();
  const once = (name: string, line: number) => {
    if (seen.has(name)) throw new ArchiveError(`line ${line}: ${name} appears twice`);
    seen.add(name);
  };
  const keys = await ArchiveKeys.of(kv);
  for await (const { entry, line } of readArchive(await open())) {
    let outcome: RestoreOutcome;
    let name: string;
    if (entry.type === "key") {
      name = `key ${entry.key.id}`;
      once(name, line);
      outcome = await keys.plan(entry.key, line, { replace: options.replace });
      tally(plan.keys, outcome);
    } else if (entry.type === "logo") {
      name = logoLabel(entry.record.domain, entry.logoType);
      once(name, line);
      await images.verify(entry, line);
      outcome = await planLogoRestore(kv, entry.record, { ...options, type: entry.logoType });
      tally(plan.logos, outcome);
    } else {
      if (entry.type === "end") plan.sha256 = entry.sha256;
      continue;
    }
    if (outcome === "conflict" && plan.conflicting.length < NAMED_CONFLICTS) {
      plan.conflicting.push(name);
    }
  }
  return plan;
}

/**
 * Verifies the archive `open()` returns (pass 1), then writes it (pass 2); see the module
 * documentation. `open` is called once per pass.
 *
 * @throws {ArchiveError} for a bad archive, an image `logo add` would refuse, or a key whose
 *   token is another key's (nothing written).
 * @throws {ImportConflict} for differing data without `replace` (nothing written).
 */
export async function importArchive(
  kv: Deno.Kv,
  open: () => Promise<ReadableStream<Uint8Array<ArrayBuffer>>>,
  options: ImportOptions,
): Promise<ImportResult> {
  const clock = options.clock ?? Date.now;
  const images = new ArchiveImages(options.imaging);
  const plan = await verifyArchive(kv, open, options, images);
  if (plan.keys.conflicts + plan.logos.conflicts > 0) throw new ImportConflict(plan);
  options.onVerified?.(plan);

  const previous = (await kv.get<ImportMarker>(IMPORT_KEY)).value;
  const initialized = await kv.get(INITIALIZED_KEY);
  await writeMarker(kv, {
    sha256: plan.sha256,
    startedAt: clock(),
    keys: plan.keys.added + plan.keys.replaced + plan.keys.unchanged,
    logos: plan.logos.added + plan.logos.replaced + plan.logos.unchanged,
  }, initialized.versionstamp === null ? clock : undefined);

  const result: ImportResult = {
    sha256: plan.sha256,
    keys: counts(),
    logos: counts(),
    ...(previous === null ? {} : { interrupted: previous }),
  };
  const keys = await ArchiveKeys.of(kv);
  for await (const { entry, line } of readArchive(await open())) {
    if (entry.type === "end" && entry.sha256 !== plan.sha256) {
      throw new ArchiveError("the file changed during the import; import it again");
    }
    if (entry.type !== "key" && entry.type !== "logo") continue;
    if (entry.type === "logo") images.verified(entry, line);
    const outcome = entry.type === "key"
      ? await keys.restore(entry.key, line, { replace: options.replace })
      : await restoreLogo(kv, entry.record, entry.blobs, {
        replace: options.replace,
        clock,
        type: entry.logoType,
      });
    const name = entry.type === "key"
      ? `key ${entry.key.id}`
      : logoLabel(entry.record.domain, entry.logoType);
    if (outcome === "conflict") {
      throw new Error(
        `Cannot import: ${name} changed in the store during the import; import again ` +
          "(with --replace to replace it)",
      );
    }
    tally(entry.type === "key" ? result.keys : result.logos, outcome);
    options.onEntry?.(entry.type, entry.type === "key" ? entry.key.id : name, outcome);
  }
  await kv.delete(IMPORT_KEY);
  return {
    ...result,
    keys: withoutConflicts(result.keys),
    logos: withoutConflicts(result.logos),
  };
}

/** How a logo is named in messages: its domain, and ` (logo)` for a wordmark. */
function logoLabel(domain: string, type: LogoType): string {
  return type === "icon" ? domain : `${domain} (${type})`;
}

function withoutConflicts(c: ImportCounts): ImportCounts {
  return { added: c.added, replaced: c.replaced, unchanged: c.unchanged };
}

/**
 * Records `marker` at `["meta", "import"]`; with `initializedBy` a clock, also the store's
 * `["meta", "initialized"]` (same commit), so no server seeds demo data into a store being
 * restored.
 */
export async function writeMarker(
  kv: Deno.Kv,
  marker: ImportMarker,
  initializedBy?: () => number,
): Promise<void> {
  const op = kv.atomic().set(IMPORT_KEY, marker);
  if (initializedBy !== undefined) {
    op.check({ key: INITIALIZED_KEY, versionstamp: null })
      .set(INITIALIZED_KEY, initializedMarker("admin", initializedBy));
  }
  // A failed check: another process marked the store at the same moment; mark the import alone.
  if (!(await op.commit()).ok) await kv.set(IMPORT_KEY, marker);
}

/** The marker of an import under way or interrupted, or `null`. */
export async function unfinishedImport(kv: Deno.Kv): Promise<ImportMarker | null> {
  return (await kv.get<ImportMarker>(IMPORT_KEY)).value;
}
