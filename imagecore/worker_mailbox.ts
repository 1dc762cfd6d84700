/**
 * The shared-memory mailbox between the image pool (`image_pool.ts`) and one of its workers
 * (`image_worker.ts`): a `SharedArrayBuffer` holding one job and then its answer, so that a job
 * crosses threads without `postMessage`. The pool writes the job (operation, options, input
 * bytes), stores its sequence number in {@link POSTED} and wakes the worker with
 * `Atomics.notify`; the worker, waiting with `Atomics.waitAsync`, runs it, writes the answer over
 * the input and stores the same number in {@link DONE}; the pool, waiting on that cell with
 * `Atomics.waitAsync` and the job's deadline as its timeout, reads the answer.
 *
 * Why: in Deno 2.9 a `node:worker_threads` message round trip cost about 80–95 µs of CPU over both
 * threads (structured clone, the op, waking the other event loop) against about 12 µs for the same
 * round trip through `Atomics` (`bench/render_overhead_bench.ts`, docs/internals/render_pool.md).
 *
 * A job goes through the mailbox when its input fits ({@link MailboxOptions.bytes}) and its
 * options encode exactly (a whole width, a known theme and format); anything else, and a result
 * larger than the mailbox, still travels by message, so every input keeps its exact refusal.
 *
 * Layout: Int32 cells at byte 0 (below), the worker's WASM memory as a Float64 at byte 64, the
 * data (input, then output or an error message) from byte {@link DATA_OFFSET}.
 *
 * @example
 * ```ts
 * import { createMailbox, postJob } from "./worker_mailbox.ts";
 * const box = createMailbox(1024);
 * const posted = postJob(box, 1, "probe", new Uint8Array([0x89, 0x50]), undefined); // true
 * ```
 * @module
 */
import { LOGO_FORMATS, LOGO_THEMES } from "../src/sdk/logo_options.ts";
import { IMAGECORE_ERROR_CODES, type ImageCoreErrorCode } from "./refusals.ts";
import { ENCODE_EFFORTS } from "./transform_options.ts";
import type { ProbeResult, SourceFormat, TransformOptions, TransformResult } from "./mod.ts";

/** Cell: sequence number of the job last posted (written last by the pool). */
export const POSTED = 0;
/** Cell: sequence number of the job last answered (written last by the worker). */
export const DONE = 1;
const OP = 2;
const INPUT_LENGTH = 3;
const WIDTH = 4;
const FLAGS = 5;
const STATUS = 6;
const OUTPUT_LENGTH = 7;
const OUT_WIDTH = 8;
const OUT_HEIGHT = 9;
const OUT_FORMAT = 10;
const OUT_INVERTED = 11;
const ERROR_CODE = 12;
const MEMORY_OFFSET = 64;
/** Byte offset of the data area. */
export const DATA_OFFSET = 128;

/** Operations, by their code in the operation cell; `test:hold` needs its signal: by message. */
const OPS = [
  "probe",
  "transform",
  "test:spin",
  "test:heap",
  "test:grow",
  "test:trap",
  "test:exit",
] as const;
const SOURCE_FORMATS: readonly SourceFormat[] = ["png", "jpeg", "gif", "webp", "ico", "bmp", "svg"];
const NO_WIDTH = -1;

/** What the answer in a mailbox is (its status cell). */
const Status = {
  Transformed: 0,
  Probed: 1,
  Failed: 2,
  /** Too large for the mailbox (or not a probe or transform result): it comes by message. */
  ByMessage: 3,
} as const;

/** A mailbox: its buffer (posted to the worker once) and views of it. */
export interface Mailbox {
  /** Shared with the worker (in its `workerData`). */
  readonly buffer: SharedArrayBuffer;
  /** The Int32 cells. */
  readonly cells: Int32Array;
  /** Bytes the data area holds. */
  readonly capacity: number;
}

/** Options of {@link createMailbox}. */
export interface MailboxOptions {
  /** Bytes of the data area: the largest input and output that skip `postMessage`. */
  bytes?: number;
}

/** Default data area: 4 MiB, more than any stored rendition or rendered variant of a logo. */
export const DEFAULT_MAILBOX_BYTES = 4 * 1024 * 1024;

/** A mailbox with a data area of `capacity` bytes (pages are committed only once written). */
export function createMailbox(capacity: number = DEFAULT_MAILBOX_BYTES): Mailbox {
  return openMailbox(new SharedArrayBuffer(DATA_OFFSET + capacity));
}

/** Views of a mailbox made by {@link createMailbox}, on the worker's side. */
export function openMailbox(buffer: SharedArrayBuffer): Mailbox {
  return {
    buffer,
    cells: new Int32Array(buffer, 0, DATA_OFFSET / 4),
    capacity: buffer.byteLength - DATA_OFFSET,
  };
}

/** Code of a value in `list` (1-based; 0 for undefined); -1 when not in it. */
function codeOf(list: readonly string[], value: string | undefined): number {
  if (value === undefined) return 0;
  const index = list.indexOf(value);
  return index < 0 ? -1 : index + 1;
}

/** The options the mailbox carries; a job with any other goes by message, so none is dropped. */
const CARRIED = new Set(["width", "greyscale", "theme", "format", "effort"]);

function encodeFlags(options: TransformOptions): number | undefined {
  for (const key of Object.keys(options)) {
    if (!CARRIED.has(key) && options[key as keyof TransformOptions] !== undefined) return undefined;
  }
  const theme = codeOf(LOGO_THEMES, options.theme);
  const format = codeOf(LOGO_FORMATS, options.format);
  const effort = codeOf(ENCODE_EFFORTS, options.effort);
  // Unknown: by message, for the exact refusal.
  if (theme < 0 || format < 0 || effort < 0) return undefined;
  return (options.greyscale === true ? 1 : 0) | theme << 1 | format << 4 | effort << 7;
}

/**
 * Writes a job into `box` and wakes its worker; `false` (nothing written) when it must go by
 * message: an input larger than the mailbox, options that do not encode exactly, or `test:hold`.
 */
export function postJob(
  box: Mailbox,
  seq: number,
  op: string,
  input: Uint8Array | undefined,
  options: TransformOptions | undefined,
): boolean {
  const code = (OPS as readonly string[]).indexOf(op);
  const width = options?.width ?? NO_WIDTH;
  const flags = encodeFlags(options ?? {});
  if (code < 0 || flags === undefined || (input?.length ?? 0) > box.capacity) return false;
  if (width !== NO_WIDTH && !(Number.isInteger(width) && width >= 0 && width < 2 ** 31)) {
    return false;
  }
  const { cells } = box;
  cells[OP] = code;
  cells[WIDTH] = width;
  cells[FLAGS] = flags;
  cells[INPUT_LENGTH] = input === undefined ? -1 : input.length;
  if (input !== undefined) new Uint8Array(box.buffer, DATA_OFFSET, input.length).set(input);
  Atomics.store(cells, POSTED, seq);
  Atomics.notify(cells, POSTED);
  return true;
}

/** A job as the worker reads it from its mailbox. */
export interface MailboxJob {
  /** The operation. */
  op: (typeof OPS)[number];
  /** The input, a view of the mailbox's data area. */
  input?: Uint8Array;
  /** Options of `transform`. */
  options: TransformOptions;
}

/** Reads the job posted in `box` (worker side). */
export function readJob(box: Mailbox): MailboxJob {
  const { cells } = box;
  const flags = cells[FLAGS];
  const theme = (flags >> 1) & 7;
  const format = (flags >> 4) & 7;
  const effort = (flags >> 7) & 3;
  const options: TransformOptions = {};
  if (cells[WIDTH] !== NO_WIDTH) options.width = cells[WIDTH];
  if (flags & 1) options.greyscale = true;
  if (theme > 0) options.theme = LOGO_THEMES[theme - 1];
  if (format > 0) options.format = LOGO_FORMATS[format - 1];
  if (effort > 0) options.effort = ENCODE_EFFORTS[effort - 1];
  const length = cells[INPUT_LENGTH];
  const input = length < 0 ? undefined : new Uint8Array(box.buffer, DATA_OFFSET, length);
  return { op: OPS[cells[OP]], input, options };
}

/**
 * Writes the answer to job `seq` (worker side) and wakes the pool. Returns `false`, having
 * written only that the answer comes by message, when the result must be posted instead.
 */
export function answerJob(
  box: Mailbox,
  seq: number,
  answer: { result?: unknown; error?: { code: ImageCoreErrorCode; message: string } },
  memoryBytes: number,
): boolean {
  const { cells } = box;
  let status: number = Status.ByMessage;
  if (answer.error) {
    const text = new TextEncoder().encode(answer.error.message);
    if (text.length <= box.capacity) {
      new Uint8Array(box.buffer, DATA_OFFSET).set(text);
      cells[OUTPUT_LENGTH] = text.length;
      cells[ERROR_CODE] = IMAGECORE_ERROR_CODES.indexOf(answer.error.code);
      status = Status.Failed;
    }
  } else if (isTransformResult(answer.result)) {
    const { bytes, width, height, format, inverted } = answer.result;
    if (bytes.length <= box.capacity) {
      new Uint8Array(box.buffer, DATA_OFFSET).set(bytes);
      cells[OUTPUT_LENGTH] = bytes.length;
      cells[OUT_WIDTH] = width;
      cells[OUT_HEIGHT] = height;
      cells[OUT_FORMAT] = LOGO_FORMATS.indexOf(format);
      cells[OUT_INVERTED] = inverted ? 1 : 0;
      status = Status.Transformed;
    }
  } else if (isProbeResult(answer.result)) {
    cells[OUT_WIDTH] = answer.result.width;
    cells[OUT_HEIGHT] = answer.result.height;
    cells[OUT_FORMAT] = SOURCE_FORMATS.indexOf(answer.result.format);
    status = Status.Probed;
  }
  cells[STATUS] = status;
  new Float64Array(box.buffer, MEMORY_OFFSET, 1)[0] = memoryBytes;
  Atomics.store(cells, DONE, seq);
  Atomics.notify(cells, DONE);
  return status !== Status.ByMessage;
}

function isTransformResult(result: unknown): result is TransformResult {
  return (result as TransformResult | undefined)?.bytes instanceof Uint8Array;
}

function isProbeResult(result: unknown): result is ProbeResult {
  const probe = result as ProbeResult | undefined;
  return typeof probe?.width === "number" && SOURCE_FORMATS.includes(probe.format);
}

/** An answer as the pool reads it: a result, an error, or `byMessage` (wait for the message). */
export interface MailboxAnswer {
  /** The result of a probe or a transform (its bytes copied out of the mailbox). */
  result?: ProbeResult | TransformResult;
  /** imagecore's refusal. */
  error?: { code: ImageCoreErrorCode; message: string };
  /** The result was too large for the mailbox: the worker posts it as a message. */
  byMessage?: true;
  /** The worker's WASM memory after the job. */
  memoryBytes: number;
}

/** Reads the answer to the job last posted in `box` (pool side). */
export function readAnswer(box: Mailbox): MailboxAnswer {
  const { cells } = box;
  const memoryBytes = new Float64Array(box.buffer, MEMORY_OFFSET, 1)[0];
  const data = () => new Uint8Array(box.buffer, DATA_OFFSET, cells[OUTPUT_LENGTH]);
  switch (cells[STATUS]) {
    case Status.Transformed:
      return {
        result: {
          bytes: data().slice(),
          width: cells[OUT_WIDTH],
          height: cells[OUT_HEIGHT],
          format: LOGO_FORMATS[cells[OUT_FORMAT]],
          inverted: cells[OUT_INVERTED] === 1,
        },
        memoryBytes,
      };
    case Status.Probed: {
      const format = SOURCE_FORMATS[cells[OUT_FORMAT]];
      return {
        result: { format, width: cells[OUT_WIDTH], height: cells[OUT_HEIGHT] },
        memoryBytes,
      };
    }
    case Status.Failed: {
      const code = IMAGECORE_ERROR_CODES[cells[ERROR_CODE]] ?? "internal";
      return { error: { code, message: new TextDecoder().decode(data().slice()) }, memoryBytes };
    }
    default:
      return { byMessage: true, memoryBytes };
  }
}
