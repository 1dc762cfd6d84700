/**
 * A progress bar for long admin commands, on stderr. On a terminal it redraws one line in place;
 * otherwise (a pipe, a log file, a test reading it) it prints one line per finished item, so a
 * reader sees each step as it happens. With `rate`, each step also says the items per second so
 * far and, for a known total, the time left at that rate: `[ 40/100] imported a.example (20.0
 * logos/s, ETA 3 s)`.
 *
 * @example
 * ```ts
 * const bar = new ProgressBar(3, { write: (t) => Deno.stderr.writeSync(new TextEncoder().encode(t)), terminal: true });
 * bar.step("imported", "example.com");
 * bar.done();
 * ```
 * @module
 */

/** Options of {@link ProgressBar}. */
export interface ProgressBarOptions {
  /** Where the bar is drawn (stderr). */
  write(text: string): void;
  /** Whether `write` goes to a terminal: redraw in place. */
  terminal: boolean;
  /** Bar width in characters; default 30. */
  width?: number;
  /** Show the rate and the time left: `unit` names the items, `clock` gives ms (`performance.now`). */
  rate?: { unit: string; clock: () => number };
}

/** A duration in seconds as "42 s", "3 min 05 s" or "2 h 07 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}

/** Progress over a known number of items, or an unknown one (a count without a bar). */
export class ProgressBar {
  readonly #total: number | undefined;
  readonly #options: ProgressBarOptions;
  readonly #startedAt: number | undefined;
  #done = 0;

  /** A bar for `total` items; `undefined` when the total is not known (a stream being read). */
  constructor(total: number | undefined, options: ProgressBarOptions) {
    this.#total = total;
    this.#options = options;
    this.#startedAt = options.rate?.clock();
  }

  /** " (R unit/s, ETA …)" after a step, or "" without `rate` or before any time has passed. */
  #rate(): string {
    const rate = this.#options.rate;
    if (rate === undefined || this.#startedAt === undefined) return "";
    const seconds = (rate.clock() - this.#startedAt) / 1000;
    if (!(seconds > 0)) return "";
    const perSecond = this.#done / seconds;
    const left = this.#total === undefined
      ? ""
      : `, ETA ${formatDuration((this.#total - this.#done) / perSecond)}`;
    return ` (${perSecond.toFixed(1)} ${rate.unit}/s${left})`;
  }

  /** Records one finished item: `status` (e.g. "imported") and its `label`. */
  step(status: string, label: string): void {
    this.#done++;
    const total = this.#total;
    const count = total === undefined
      ? String(this.#done)
      : `${String(this.#done).padStart(String(total).length)}/${total}`;
    const rate = this.#rate();
    if (!this.#options.terminal) {
      this.#options.write(`[${count}] ${status} ${label}${rate}\n`);
      return;
    }
    if (total === undefined) {
      this.#options.write(`\r\x1b[2K${count} done, ${status} ${label}${rate}`);
      return;
    }
    const width = this.#options.width ?? 30;
    const filled = total === 0 ? width : Math.min(width, Math.round((this.#done / total) * width));
    const bar = "█".repeat(filled) + "░".repeat(width - filled);
    this.#options.write(`\r\x1b[2K${bar} ${count} ${status} ${label}${rate}`);
  }

  /** Prints a message above the bar (on a terminal, the bar is redrawn by the next step). */
  message(text: string): void {
    this.#options.write(this.#options.terminal ? `\r\x1b[2K${text}\n` : `${text}\n`);
  }

  /** Ends the bar's line. */
  done(): void {
    if (this.#options.terminal && this.#done > 0) this.#options.write("\n");
  }
}
