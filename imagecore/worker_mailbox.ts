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
 * The options cross as the numbers of `transform`'s WASM arguments (`TRANSFORM_ARGUMENTS`, from
 * the render spec), one cell each, -1 for an option not given; formats as the format registry
 * numbers them (`formats.ts`).
 *
 * Layout: Int32 cells at byte 0 (below), the worker's WASM memory as a Float64 at byte 64, the
 * options' cells after it, the data (input, then output or an error message) from byte
 * {@link DATA_OFFSET}.
 *
 * @example
 * ```ts
 * import { createMailbox, postJob } from "./worker_mailbox.ts";
 * const box = createMailbox(1024);
 * const posted = postJob(box, 1, "probe", new Uint8Array([0x89, 0x50]), undefined); // true
 * ```
 * @module
 */
import { OUTPUT_FORMATS, outputFormatCode, SOURCE_FORMATS } from "./formats.ts";
import { IMAGECORE_ERROR_CODES, type ImageCoreErrorCode } from "./refusals.ts";
import { TRANSFORM_ARGUMENTS } from "./transform_options.ts";
import type { ProbeResult, TransformOptions, TransformResult } from "./mod.ts";

/** Cell: sequence number of the job last posted (written last by the pool). */
export const POSTED = 0;
/** Cell: sequence number of the job last answered (written last by the worker). */
export const DONE = 1;
const OP = 2;
const INPUT_LENGTH = 3;
const STATUS = 4;
const OUTPUT_LENGTH = 5;
const OUT_WIDTH = 6;
const OUT_HEIGHT = 7;
const OUT_FORMAT = 8;
const OUT_INVERTED = 9;
const ERROR_CODE = 10;
const MEMORY_OFFSET = 64;
/** First cell of the options: one per argument of `TRANSFORM_ARGUMENTS`, after the memory. */
const OPTIONS = 18;
/** Byte offset of the data area. */
export const DATA_OFFSET = 128;
if (OPTIONS + TRANSFORM_ARGUMENTS.length > DATA_OFFSET / 4) {
  throw new Error("worker_mailbox.ts: the options' cells overrun the data area");
}

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
/** An option's cell when the option is not given. */
const UNSET = -1;

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

/** The options the mailbox carries; a job with any other goes by message, so none is dropped. */
const CARRIED = new Set<string>(TRANSFORM_ARGUMENTS.map((argument) => argument.key));

/**
 * The options' cells, or `undefined` when one does not encode exactly (an unknown format, a
 * fractional width, an option it does not know): by message, for imagecore's exact refusal.
 */
function encodeOptions(options: TransformOptions): number[] | undefined {
  const values = options as Record<string, unknown>;
  for (const key of Object.keys(values)) {
    if (!CARRIED.has(key) && values[key] !== undefined) return undefined;
  }
  const cells: number[] = [];
  for (const { key, codec } of TRANSFORM_ARGUMENTS) {
    const value = values[key];
    const code = value === undefined ? UNSET : codec.encode(value);
    if (code === undefined) return undefined;
    cells.push(code);
  }
  return cells;
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
  const optionCells = encodeOptions(options ?? {});
  if (code < 0 || optionCells === undefined || (input?.length ?? 0) > box.capacity) return false;
  const { cells } = box;
  cells[OP] = code;
  cells.set(optionCells, OPTIONS);
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
  const options: Record<string, unknown> = {};
  TRANSFORM_ARGUMENTS.forEach(({ key, codec }, i) => {
    const code = cells[OPTIONS + i];
    if (code !== UNSET) options[key] = codec.decode(code);
  });
  const length = cells[INPUT_LENGTH];
  const input = length < 0 ? undefined : new Uint8Array(box.buffer, DATA_OFFSET, length);
  return { op: OPS[cells[OP]], input, options: options as TransformOptions };
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
      cells[OUT_FORMAT] = outputFormatCode(format);
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
          format: OUTPUT_FORMATS[cells[OUT_FORMAT]],
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
