/**
 * What the benchmarks' command lines and reports share: reading a whole-number option, and
 * printing a Markdown table with numbers right-aligned.
 *
 * @example
 * ```ts
 * import { printTable, wholeNumber } from "./bench_cli.ts";
 * const count = wholeNumber("count", "1000", 1); // 1000; exits 2 with a message on "ten"
 * printTable(["store", "req/s"], [["file", String(count)]]);
 * ```
 * @module
 */

/** `text` as a whole number of at least `min`; otherwise prints why and exits with status 2. */
export function wholeNumber(name: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) {
    console.error(`Invalid --${name} "${text}": expected a whole number of at least ${min}`);
    Deno.exit(2);
  }
  return n;
}

/** Prints a Markdown table: the first column left-aligned, the others right-aligned. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")
    } |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => "-".repeat(w + 1) + (i === 0 ? "-" : ":")).join("|")}|`);
  for (const row of rows) console.log(line(row));
}
