/**
 * A progress bar for long admin commands, on stderr. On a terminal it redraws one line in place;
 * otherwise (a pipe, a log file, a test reading it) it prints one line per finished item, so a
 * reader sees each step as it happens.
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
}

/** Progress over a known number of items, or an unknown one (a count without a bar). */
export class ProgressBar {
  readonly #total: number | undefined;
  readonly #options: ProgressBarOptions;
  #done = 0;

  /** A bar for `total` items; `undefined` when the total is not known (a stream being read). */
  constructor(total: number | undefined, options: ProgressBarOptions) {
    this.#total = total;
    this.#options = options;
  }

  /** Records one finished item: `status` (e.g. "imported") and its `label`. */
  step(status: string, label: string): void {
    this.#done++;
    const total = this.#total;
    const count = total === undefined
      ? String(this.#done)
      : `${String(this.#done).padStart(String(total).length)}/${total}`;
    if (!this.#options.terminal) {
      this.#options.write(`[${count}] ${status} ${label}\n`);
      return;
    }
    if (total === undefined) {
      this.#options.write(`\r\x1b[2K${count} done, ${status} ${label}`);
      return;
    }
    const width = this.#options.width ?? 30;
    const filled = total === 0 ? width : Math.min(width, Math.round((this.#done / total) * width));
    const bar = "█".repeat(filled) + "░".repeat(width - filled);
    this.#options.write(`\r\x1b[2K${bar} ${count} ${status} ${label}`);
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
