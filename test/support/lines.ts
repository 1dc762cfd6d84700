/**
 * Reading a child process's output line by line, for the tests and benchmarks that drive
 * `deno` subprocesses (Deno's `TextLineStream` is on JSR, which this project cannot reach).
 * @module
 */

/**
 * The lines of a byte stream, without their `\n`; a last unterminated line is yielded too.
 *
 * @example
 * ```ts
 * for await (const line of lines(child.stdout)) console.log(line);
 * ```
 */
export async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buffered = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      yield buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
    }
  }
  if (buffered) yield buffered;
}

/**
 * Reads lines from `source` until one satisfies `match` (it is the last one returned) or the
 * stream ends. `source` stays open, so a later call reads on from there.
 *
 * @example
 * ```ts
 * const output = lines(child.stdout);
 * const read = await readUntil(output, (line) => line.includes("listening"));
 * ```
 */
export async function readUntil(
  source: AsyncIterator<string>,
  match: (line: string) => boolean,
): Promise<string[]> {
  const read: string[] = [];
  for (;;) {
    const { value, done } = await source.next();
    if (done) return read;
    read.push(value);
    if (match(value)) return read;
  }
}
