/**
 * The domains of a list, one per line, read as a stream (memory stays bounded however long the
 * list): blank lines and `#` comments are skipped, each other line is normalised into a domain or
 * reported as invalid, with its line number. Lines are split by `node:readline`, which reads
 * ahead only a bounded amount (it pauses its input while lines wait to be consumed).
 *
 * @example
 * ```ts
 * const input = ReadableStream.from([new TextEncoder().encode("# customers\nAcme.com\n\nnot a domain\n")]);
 * for await (const item of domainLines(input)) {
 *   console.log(item); // { line: 2, domain: "acme.com" }, then { line: 4, input: "not a domain", error: "…" }
 * }
 * ```
 * @module
 */
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { normalizeDomain } from "../domain_name.ts";

/** One meaningful line of a domain list: a normalised domain, or why the line is not one. */
export type DomainLine =
  | { line: number; domain: string }
  | { line: number; input: string; error: string };

/** Longest part of a bad line echoed back in its error. */
const ECHO_CHARS = 200;

/** Whether a line carries nothing: blank, or a `#` comment. */
export function isSkippedLine(text: string): boolean {
  const trimmed = text.trim();
  return trimmed === "" || trimmed.startsWith("#");
}

/** Reads `input` (UTF-8 bytes) as lines, `\n` or `\r\n` terminated. */
export function readLines(input: ReadableStream<Uint8Array>): AsyncIterable<string> {
  // deno-lint-ignore no-explicit-any -- node:stream's fromWeb wants its own ReadableStream type.
  const stream = Readable.fromWeb(input as any);
  return createInterface({ input: stream, crlfDelay: Infinity });
}

/** The meaningful lines of `input`, in order (see the module doc). */
export async function* domainLines(
  input: ReadableStream<Uint8Array>,
): AsyncGenerator<DomainLine> {
  let line = 0;
  for await (const text of readLines(input)) {
    line++;
    if (isSkippedLine(text)) continue;
    const trimmed = text.trim();
    const domain = normalizeDomain(trimmed);
    if (domain !== undefined) {
      yield { line, domain };
      continue;
    }
    const shown = trimmed.length > ECHO_CHARS ? `${trimmed.slice(0, ECHO_CHARS)}…` : trimmed;
    yield { line, input: shown, error: `Invalid domain "${shown}" (expected e.g. example.com)` };
  }
}

/** How many meaningful lines `input` has (for a progress bar's total). */
export async function countDomainLines(input: ReadableStream<Uint8Array>): Promise<number> {
  let count = 0;
  for await (const text of readLines(input)) if (!isSkippedLine(text)) count++;
  return count;
}
