/**
 * `deno task admin logo discover --from FILE [--concurrency N] [--force]`: discovers the logo of
 * every domain listed in FILE (one a line; `-` reads stdin), to pre-warm a customer list.
 *
 * - Input is streamed (`domain_lines.ts`): blank lines and `#` comments are skipped; a line that is
 *   not a domain is reported (`"outcome": "invalid"`), not fatal; a domain listed again is
 *   discovered once (the domains seen are kept in memory, one short string each).
 * - At most N domains (default {@link DEFAULT_CONCURRENCY}, at most {@link MAX_CONCURRENCY}) are
 *   discovered at once; each discovery keeps its own limits (4 fetches at once, 10-s budget).
 * - stdout: one JSON line per domain, in the order they finish — `domain`, `outcome` (the
 *   discovery status), `source` and `why` (the winner's rank) or `failure`, `reason` and `retryAt`,
 *   `wordmark` (what became of the wordmark: `status`, and the stored one's `source`), `line` and
 *   `ms` — then one `{"summary": …}` line. A progress bar is drawn on stderr only when
 *   stderr is a terminal.
 * - Resume: nothing is recorded besides what discovery itself stores, and a rerun skips what that
 *   says is done: a logo is stored (`fresh` for 30 days, `operator`), or a failure is remembered
 *   (`known-missing`: "no usable icon" for a day; an unreachable site only until its retry time,
 *   1 min and growing, since it may answer now) — and its wordmark likewise (a domain whose
 *   wordmark was never looked for is searched for it alone). `--force` looks at every domain again.
 * - SIGINT stops reading, abandons the discoveries in flight (reported `interrupted`; nothing is
 *   remembered of them, so a rerun does them) and exits with status 130.
 * - Exit status 0 when the run completed, whatever each domain's outcome; 1 when the store failed
 *   (the run stops); 2 for a bad command line or an unreadable FILE.
 *
 * @module
 */
import type { AdminCommand, AdminContext } from "./io.ts";
import { isoTime } from "./io.ts";
import { FileArgumentError, parseCommandArgs, parseWholeNumber, UsageError } from "./usage.ts";
import { ProgressBar } from "./progress_bar.ts";
import { countDomainLines, type DomainLine, domainLines } from "./domain_lines.ts";
import { openAdminDiscovery } from "./admin_discovery.ts";
import { semaphore } from "../discovery/bounded_concurrency.ts";
import type { DiscoveryConfig, DiscoveryOutcome, WordmarkOutcome } from "../discovery/discover.ts";

/** Domains discovered at once unless `--concurrency` says otherwise. */
export const DEFAULT_CONCURRENCY = 4;
/** The largest `--concurrency` accepted. */
export const MAX_CONCURRENCY = 32;
/** Exit status of a run stopped by SIGINT (128 + 2, as shells report it). */
export const INTERRUPTED_EXIT = 130;

/** Options of the bulk command beyond the CLI's settings: what tests replace. */
export interface BulkDiscoverOptions {
  /** Further discovery configuration (tests inject a resolver or a small budget). */
  config?: Partial<DiscoveryConfig>;
  /** What `--from -` reads; default the process's stdin. */
  stdin?: ReadableStream<Uint8Array>;
  /** Aborted to interrupt the run; default: SIGINT. */
  interrupt?: AbortSignal;
}

/** Whether `logo discover` arguments ask for a list (`--from`). */
export function isBulkDiscover(args: string[]): boolean {
  return args.some((arg) => arg === "--from" || arg.startsWith("--from="));
}

/**
 * Parses `logo discover --from …` arguments (after the subcommand) into a command.
 *
 * @throws {UsageError} for a positional, an unknown option or a bad `--concurrency`.
 *
 * @example
 * ```ts
 * const command = parseBulkDiscoverCommand(["--from", "customers.txt", "--concurrency", "8"]);
 * ```
 */
export function parseBulkDiscoverCommand(
  args: string[],
  options: BulkDiscoverOptions = {},
): AdminCommand {
  const name = "logo discover --from";
  const parsed = parseCommandArgs(name, args, [], {
    from: { type: "string" },
    force: { type: "boolean" },
    concurrency: { type: "string" },
  });
  const from = parsed.values.from as string;
  if (from === "") throw new UsageError(`${name}: expected FILE or - (stdin)`);
  const given = parsed.values.concurrency as string | undefined;
  const concurrency = given === undefined
    ? DEFAULT_CONCURRENCY
    : parseWholeNumber("concurrency", given);
  if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency: expected 1 to ${MAX_CONCURRENCY}, got ${given}`);
  }
  const force = parsed.values.force === true;
  return {
    async run(context: AdminContext): Promise<number> {
      const input = from === "-" ? options.stdin ?? Deno.stdin.readable : await openList(from);
      // The bar's total: a file is counted first (streamed too); stdin cannot be read twice.
      const total = context.stderrIsTerminal && from !== "-"
        ? await countDomainLines(await openList(from))
        : undefined;
      const bar = context.stderrIsTerminal
        ? new ProgressBar(total, { write: context.stderr, terminal: true })
        : undefined;
      const stop = new AbortController();
      const interrupt = () => {
        stop.abort();
        // A pending read of the process's stdin would keep the process alive: end it.
        if (from === "-" && options.stdin === undefined) closeStdin();
      };
      if (options.interrupt) options.interrupt.addEventListener("abort", interrupt, { once: true });
      else Deno.addSignalListener("SIGINT", interrupt);
      try {
        await using admin = await openAdminDiscovery(context.kv, context.settings, {
          ...options.config,
          maxConcurrent: concurrency,
          signal: stop.signal,
        });
        const run = { context, bar, stop: stop.signal, concurrency, force };
        return await discoverAll(input, admin.discovery, run);
      } finally {
        if (options.interrupt) options.interrupt.removeEventListener("abort", interrupt);
        else Deno.removeSignalListener("SIGINT", interrupt);
      }
    },
  };
}

/** Opens a list file for reading. @throws {UsageError} when it cannot be read. */
async function openList(path: string): Promise<ReadableStream<Uint8Array>> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) throw new Error("not a file");
    return (await Deno.open(path)).readable;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new FileArgumentError(`logo discover --from: cannot read "${path}": ${reason}`);
  }
}

interface BulkRun {
  context: AdminContext;
  bar: ProgressBar | undefined;
  stop: AbortSignal;
  concurrency: number;
  force: boolean;
}

/** Discovers every domain of `input`; resolves to the exit status, rejects on a store failure. */
async function discoverAll(
  input: ReadableStream<Uint8Array>,
  discovery: { discover(domain: string, options: { force: boolean }): Promise<DiscoveryOutcome> },
  run: BulkRun,
): Promise<number> {
  const started = performance.now();
  const { context, bar, stop } = run;
  const emit = (value: unknown) => context.stdout(JSON.stringify(value) + "\n");
  const outcomes: Record<string, number> = {};
  const seen = new Set<string>();
  let invalid = 0;
  let duplicates = 0;
  let failure: { error: unknown } | undefined;
  const acquire = semaphore(run.concurrency);
  const inFlight = new Set<Promise<void>>();

  async function one(domain: string, line: number, release: () => void): Promise<void> {
    const begun = performance.now();
    try {
      const outcome = await discovery.discover(domain, { force: run.force });
      const result = describeOutcome(outcome, stop.aborted);
      outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
      emit({ ...result, line, ms: Math.round(performance.now() - begun) });
      bar?.step(result.outcome, domain);
    } catch (error) {
      failure ??= { error };
      emit({ domain, outcome: "error", error: errorMessage(error), line });
      bar?.step("error", domain);
    } finally {
      release();
    }
  }

  // Raced against the interrupt: stdin may wait for a line that never comes.
  const items = domainLines(input);
  const stopped = new Promise<IteratorResult<DomainLine>>((resolve) => {
    const end = () => resolve({ done: true, value: undefined });
    if (stop.aborted) end();
    else stop.addEventListener("abort", end, { once: true });
  });
  for (;;) {
    const next = await Promise.race([items.next(), stopped]);
    if (next.done || stop.aborted || failure) break;
    const item = next.value;
    if ("error" in item) {
      invalid++;
      emit({ line: item.line, input: item.input, outcome: "invalid", error: item.error });
      bar?.step("invalid", item.input);
      continue;
    }
    if (seen.has(item.domain)) {
      duplicates++;
      bar?.step("duplicate", item.domain);
      continue;
    }
    seen.add(item.domain);
    const release = await acquire();
    if (stop.aborted || failure) {
      release();
      break;
    }
    const task = one(item.domain, item.line, release);
    inFlight.add(task);
    task.finally(() => inFlight.delete(task));
  }
  // Not awaited: after an interrupt it would wait for the pending read.
  items.return(undefined).catch(() => {});
  await Promise.all(inFlight);
  bar?.done();
  const interrupted = stop.aborted && failure === undefined;
  emit({
    summary: {
      domains: seen.size,
      outcomes,
      invalid,
      duplicates,
      completed: !interrupted && failure === undefined,
      ...(interrupted ? { interrupted: true } : {}),
      ms: Math.round(performance.now() - started),
    },
  });
  if (failure) throw failure.error;
  if (interrupted) {
    context.stderr("Interrupted: rerun the same command to resume (done domains are skipped)\n");
    return INTERRUPTED_EXIT;
  }
  return 0;
}

/** One domain's JSON line (without `line` and `ms`). */
function describeOutcome(outcome: DiscoveryOutcome, interrupted: boolean): {
  domain: string;
  outcome: string;
  [field: string]: unknown;
} {
  const { domain, status, source, why, failure, reason, retryAt, wordmarkOutcome } = outcome;
  // Cut short by the interrupt: discovery remembered nothing, so a rerun looks again.
  if (interrupted && status === "not-found") return { domain, outcome: "interrupted" };
  return {
    domain,
    outcome: status,
    ...(source ? { source } : {}),
    ...(why?.[0] ? { why: why[0] } : {}),
    ...(failure ? { failure } : {}),
    ...(reason ? { reason } : {}),
    ...(retryAt !== undefined ? { retryAt: isoTime(retryAt) } : {}),
    ...(wordmarkOutcome ? { wordmark: wordmarkLine(wordmarkOutcome) } : {}),
  };
}

/** The `wordmark` of a domain's line: its status, and the stored wordmark's source. */
function wordmarkLine({ status, source }: WordmarkOutcome): Record<string, string> {
  return { status, ...(source ? { source } : {}) };
}

function closeStdin(): void {
  try {
    Deno.stdin.close();
  } catch {
    // Already closed.
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
