/**
 * Reads a backup archive (format: `archive_format.ts`) as a stream of checked entries, holding one
 * line at a time: gunzip (the platform's `DecompressionStream`), split into lines of at most
 * {@link MAX_LINE_BYTES}, check each line and each image's SHA-256, and at the end check the
 * trailer's counts and the SHA-256 of everything before it. A truncated, corrupt or foreign file
 * throws an {@link ArchiveError} — at the latest when the stream ends, so a caller that must not act
 * on a bad archive reads it to the end first (`archive_import.ts` does).
 *
 * @example
 * ```ts
 * import { readArchive } from "./archive_reader.ts";
 * const file = await Deno.open("backup.ndjson.gz");
 * for await (const { entry } of readArchive(file.readable)) console.log(entry.type);
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import {
  type ArchiveEntry,
  ArchiveError,
  checkLogoBlobs,
  MAX_LINE_BYTES,
  parseArchiveLine,
} from "./archive_format.ts";
import { sha256Hex } from "./sha256.ts";

/** One checked entry and its line number (from 1). */
export interface ReadEntry {
  /** The entry. */
  entry: ArchiveEntry;
  /** Its line number in the decompressed archive. */
  line: number;
}

const NEWLINE = 0x0a;

/**
 * Yields the header, every key and logo, and last the trailer of the archive in `stream`, each
 * checked. Throws {@link ArchiveError} on the first problem found.
 */
export async function* readArchive(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<ReadEntry, void, undefined> {
  const hash = createHash("sha256");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const counts = { keys: 0, logos: 0 };
  let number = 0;
  let ended = false;
  for await (
    const bytes of lines(stream.pipeThrough<Uint8Array>(new DecompressionStream("gzip")))
  ) {
    number++;
    if (ended) throw new ArchiveError(`line ${number}: data after the end of the archive`);
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new ArchiveError(`line ${number} is not UTF-8 text (not an archive?)`);
    }
    const entry = parseArchiveLine(text, number);
    if (number > 1 && entry.type === "header") {
      throw new ArchiveError(`line ${number}: a second archive header`);
    }
    if (entry.type === "end") {
      checkEnd(entry, counts, hash.digest("hex"));
      ended = true;
    } else {
      hash.update(bytes).update("\n");
      if (entry.type === "key") counts.keys++;
      if (entry.type === "logo") {
        await checkLogoBlobs(entry, number, sha256Hex);
        counts.logos++;
      }
    }
    yield { entry, line: number };
  }
  if (number === 0) throw new ArchiveError("the file is empty");
  if (!ended) {
    throw new ArchiveError(
      `the archive is truncated: it ends after line ${number}, with no end line`,
    );
  }
}

function checkEnd(
  end: { keys: number; logos: number; sha256: string },
  counts: { keys: number; logos: number },
  sha256: string,
): void {
  if (end.keys !== counts.keys || end.logos !== counts.logos) {
    throw new ArchiveError(
      `the archive holds ${counts.keys} keys and ${counts.logos} logos, but its end line says ` +
        `${end.keys} and ${end.logos}`,
    );
  }
  if (end.sha256 !== sha256) {
    throw new ArchiveError("the archive's checksum does not match its content (corrupt)");
  }
}

/**
 * Splits a byte stream into lines (without their `\n`). A last line without `\n` is yielded too.
 * Decompression failures become {@link ArchiveError}s.
 */
async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const reader = stream.getReader();
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw decompressionError(error);
      }
      if (chunk.done) break;
      let bytes = chunk.value;
      for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE)) {
        if (pendingBytes + at > MAX_LINE_BYTES) throw lineTooLong();
        pending.push(bytes.subarray(0, at));
        yield join(pending, pendingBytes + at);
        pending = [];
        pendingBytes = 0;
        bytes = bytes.subarray(at + 1);
      }
      if (bytes.length > 0) {
        pendingBytes += bytes.length;
        if (pendingBytes > MAX_LINE_BYTES) throw lineTooLong();
        pending.push(bytes.slice());
      }
    }
  } finally {
    reader.releaseLock();
    await stream.cancel().catch(() => undefined);
  }
  if (pendingBytes > 0) yield join(pending, pendingBytes);
}

function join(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function lineTooLong(): ArchiveError {
  return new ArchiveError(`a line is longer than ${MAX_LINE_BYTES} bytes (not an archive?)`);
}

function decompressionError(error: unknown): ArchiveError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ArchiveError(`the file is not gzip data or is cut short (${reason})`);
}
