/**
 * `deno task admin logo rerender [--all] [--from DOMAIN]`: re-renders stored logos from their
 * stored `source` rendition after the rendition recipe changed (`PIPELINE_VERSION` of
 * `src/store/logo_ingest.ts`), without the original files.
 *
 * - Which: by default the records made by an older recipe; `--all` every record (after an
 *   imagecore change that kept the recipe's version); `--from DOMAIN` starts at DOMAIN in domain
 *   order, which is the order of the progress lines (to resume an interrupted `--all`). Icons and
 *   wordmarks both, a domain's icon first (its wordmark's progress line says `DOMAIN (logo)`);
 *   `--type icon` or `--type logo` only those.
 * - Resumable: each logo is committed on its own, atomically (`LogoStore.rerender`), so a reader
 *   sees the old renditions or the new ones, never a mix, and a re-run without `--all` skips what
 *   is done.
 * - Fast: one image worker per core, {@link LOGOS_IN_FLIGHT_PER_WORKER} logos each in flight; the
 *   progress (stderr) says logos/s and an ETA. The summary (stdout) counts what happened.
 *
 * @example
 * ```ts
 * import { parseRerenderCommand } from "./rerender_command.ts";
 * const command = parseRerenderCommand(["--all"]);
 * ```
 * @module
 */
import { ImageCoreError } from "../../imagecore/mod.ts";
import { pool } from "../discovery/bounded_concurrency.ts";
import { defaultRenderWorkers } from "../server/render_pool.ts";
import { PIPELINE_VERSION } from "../store/logo_ingest.ts";
import { LogoStore } from "../store/logo_store.ts";
import { LOGOS_IN_FLIGHT_PER_WORKER, startAdminPool } from "./admin_pool.ts";
import { listBoth, TYPE_OPTION, typeOption } from "./logo_types.ts";
import type { LogoType } from "../sdk/logo_options.ts";
import { type AdminCommand, type AdminContext, printJson } from "./io.ts";
import { ProgressBar } from "./progress_bar.ts";
import { parseCommandArgs } from "./usage.ts";

/** What `logo rerender` was asked. */
export interface RerenderOptions {
  /** Every record, not only those of an older recipe. */
  all: boolean;
  /** First domain (in domain order) to look at. */
  from?: string;
  /** Only the records of this type; default both. */
  type?: LogoType;
}

/**
 * Parses the arguments after `logo rerender`.
 *
 * @throws {UsageError} for an unknown option or a positional argument.
 */
export function parseRerenderCommand(args: string[]): AdminCommand {
  const { values } = parseCommandArgs("logo rerender", args, [], {
    all: { type: "boolean" },
    from: { type: "string" },
    ...TYPE_OPTION,
  });
  const options: RerenderOptions = {
    all: values.all === true,
    from: typeof values.from === "string" ? values.from.trim().toLowerCase() : undefined,
    type: typeOption("logo rerender", values),
  };
  return { run: (context) => rerenderLogos(context, options) };
}

/** Re-renders the chosen logos; see the module documentation. */
export async function rerenderLogos(
  context: AdminContext,
  options: RerenderOptions,
): Promise<number> {
  const reader = new LogoStore(context.kv);
  // The list first, so the progress has a total; re-checked per logo when it is re-rendered.
  const domains: { domain: string; type: LogoType }[] = [];
  let current = 0;
  for await (const [record, type] of listBoth(reader)) {
    if (options.type !== undefined && type !== options.type) continue;
    if (options.from !== undefined && record.domain < options.from) continue;
    if (options.all || record.pipeline !== PIPELINE_VERSION) {
      domains.push({ domain: record.domain, type });
    } else current++;
  }
  const counts = { rerendered: 0, current, changed: 0, missing: 0 };
  const failed: { domain: string; error: string }[] = [];
  if (domains.length > 0) {
    const workers = Math.min(defaultRenderWorkers(), domains.length);
    await using imaging = await startAdminPool(workers);
    const logos = new LogoStore(context.kv, { imaging });
    const bar = new ProgressBar(domains.length, {
      write: context.stderr,
      terminal: context.stderrIsTerminal,
      rate: { unit: "logos", clock: () => performance.now() },
    });
    await pool(domains, workers * LOGOS_IN_FLIGHT_PER_WORKER, async ({ domain, type }) => {
      const label = type === "icon" ? domain : `${domain} (${type})`;
      try {
        const status = await logos.rerender(domain, { all: options.all, type });
        counts[status]++;
        bar.step(status, label);
      } catch (error) {
        // A KV failure stops the run (later logos would fail too); a refused source is reported.
        if (!(error instanceof ImageCoreError)) throw error;
        failed.push({ domain: label, error: error.message });
        bar.message(`failed ${label}: ${error.message}`);
        bar.step("failed", label);
      }
    });
    bar.done();
  }
  printJson(context, { pipeline: PIPELINE_VERSION, ...counts, failed });
  return failed.length === 0 ? 0 : 1;
}
