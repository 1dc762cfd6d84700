/**
 * Worker side of {@link ./image_pool.ts}: loads and instantiates both WASM modules, posts
 * `{ type: "ready" }`, then answers one job at a time with its result or its error's code and
 * message, and the linear memory it holds afterwards (the pool replaces a worker left large).
 * Besides imagecore's calls it draws monogram tiles (`monogram`: `monogramSvg`, then `transform`)
 * and recolours `format=svg` documents (`themeSvg`, which draws the document to plan the theme),
 * so the isolate that serves requests never loads the SVG module for them.
 *
 * The `test:` operations exist so that tests can show the pool's limits acting on a real worker:
 * a job that never returns, one that exhausts the JS heap, one that keeps growing WASM memory,
 * one that traps, one that ends the worker (`test:exit`), and one that holds the worker until the
 * test releases it (`test:hold`: waits on the job's `signal` until its first cell is not 0).
 * @module
 */
import process from "node:process";
import { parentPort, workerData } from "node:worker_threads";
import {
  ImageCoreError,
  monogramSvg,
  probe,
  type RenditionsOptions,
  renditionsPacked,
  setMemoryHighWater,
  transform,
  type TransformOptions,
  trapForTests,
  warmUp,
  wasmMemoryBytes,
} from "./mod.ts";
import { lowerThreadPriority } from "./thread_niceness.ts";
import { type SvgThemeOptions, themeSvg } from "./svg_theme.ts";
import { answerJob, type Mailbox, openMailbox, POSTED, readJob } from "./worker_mailbox.ts";

/** Operations a job may ask for. */
export type ImageOp =
  | "probe"
  | "transform"
  | "renditions"
  | "monogram"
  | "themeSvg"
  | "test:spin"
  | "test:heap"
  | "test:grow"
  | "test:trap"
  | "test:exit"
  | "test:hold";

/** A job as posted to the worker. */
export interface ImageJob {
  /** Matches the answer to the job. */
  id: number;
  /** What to do. */
  op: ImageOp;
  /**
   * Encoded image (for `probe` and `transform`), as a whole `ArrayBuffer`: Deno 2.9's
   * `node:worker_threads` passes a `Uint8Array` about 40× slower than its buffer (about 14 ms
   * against 0.3 ms of CPU for 56 kB, `bench/render_overhead_bench.ts`).
   */
  input?: ArrayBuffer;
  /** Options of `transform`, of `renditions` (`./renditions.ts`), of `monogram` or `themeSvg`. */
  options?: TransformOptions | RenditionsOptions | MonogramOptions | ThemeSvgOptions;
  /** `test:hold` waits until the first Int32 cell of this buffer is not 0. */
  signal?: SharedArrayBuffer;
}

/** A `monogram` job's options: the tile's letter and colour sources, and `transform`'s options. */
export interface MonogramOptions extends TransformOptions {
  /** The brand label whose first letter is drawn (`monogramSvg`'s `label`). */
  label: string;
  /** The domain that picks the colour (`monogramSvg`'s `domain`). */
  domain: string;
}

/** A `themeSvg` job's options: the sanitised SVG text and `themeSvg`'s options. */
export interface ThemeSvgOptions extends SvgThemeOptions {
  /** The document (`themeSvg`'s `svgText`). */
  svg: string;
}

/** What the pool passes each worker as `workerData`. */
export interface WorkerSetup {
  /** The worker's shared-memory mailbox (`worker_mailbox.ts`), if it has one. */
  mailbox?: SharedArrayBuffer;
  /** Nice value the worker thread gives itself (`thread_niceness.ts`); 0 keeps it. */
  niceness: number;
}

/** What the worker posts: once `ready`, then one `done` per job. */
export type WorkerMessage =
  | {
    type: "ready";
    memoryBytes: number;
    /** The thread's nice value once set, or `null` where it was not (niceness 0) or could not be. */
    niceness: number | null;
  }
  | {
    type: "done";
    /** The job's `id`, or, for a job posted in the mailbox, minus its sequence number. */
    id: number;
    /**
     * The result; the `bytes` of a `transform` (or the packed images of `renditions`) come as a
     * whole `ArrayBuffer` (see `input`).
     */
    result?: unknown;
    error?: { code: ImageCoreError["code"]; message: string };
    memoryBytes: number;
  };

const port = parentPort;
if (port === null) throw new Error("image_worker.ts runs as a node:worker_threads Worker only");

/** Runs a `test:` operation; never returns for spin, heap and grow. */
function testOp(op: ImageOp, signal?: SharedArrayBuffer): unknown {
  if (op === "test:hold") return Atomics.wait(new Int32Array(signal!), 0, 0);
  if (op === "test:exit") process.exit(1);
  if (op === "test:trap") {
    trapForTests();
    throw new Error("trapForTests returned");
  }
  if (op === "test:heap") {
    const keep: number[][] = [];
    for (let i = 0;; i++) keep.push(new Array(100_000).fill(i));
  }
  if (op === "test:grow") {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 65_536 });
    for (;;) {
      memory.grow(256); // 16 MiB a step, each page written so it counts in RSS
      new Uint8Array(memory.buffer).fill(1, memory.buffer.byteLength - 256 * 65_536);
    }
  }
  for (;;) { /* test:spin: a job that never returns */ }
}

/**
 * The bytes as an `ArrayBuffer` of exactly their length, to post (see {@link ImageJob.input}):
 * their own buffer when they fill it, else a copy.
 */
export function wholeBuffer(bytes: Uint8Array): ArrayBuffer {
  const { buffer, byteOffset, byteLength } = bytes;
  if (buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength) {
    return buffer;
  }
  return bytes.slice().buffer;
}

function run(
  op: ImageOp,
  input?: Uint8Array,
  options?: TransformOptions | RenditionsOptions | MonogramOptions | ThemeSvgOptions,
  signal?: SharedArrayBuffer,
) {
  switch (op) {
    case "probe":
      return probe(input!);
    case "transform":
      return transform(input!, (options ?? {}) as TransformOptions);
    case "renditions":
      return renditionsPacked(input!, options as RenditionsOptions);
    case "monogram": {
      const { label, domain, ...transformOptions } = options as MonogramOptions;
      return transform(monogramSvg(label, domain), transformOptions);
    }
    case "themeSvg": {
      const { svg, ...themeOptions } = options as ThemeSvgOptions;
      return themeSvg(svg, themeOptions);
    }
    default:
      return testOp(op, signal);
  }
}

/** Runs a job: its result, or its error's code and message. */
function attempt(job: () => unknown): Pick<WorkerMessage & { type: "done" }, "result" | "error"> {
  try {
    return { result: job() };
  } catch (error) {
    const e = error instanceof ImageCoreError
      ? error
      : new ImageCoreError("internal", `Cannot process image: ${error}`);
    return { error: { code: e.code, message: e.message } };
  }
}

/** Posts an answer as a message, a `transform`'s bytes as a transferred whole buffer. */
function postAnswer(id: number, answer: ReturnType<typeof attempt>): void {
  const transfer: ArrayBuffer[] = [];
  let result = answer.result;
  const bytes = (result as { bytes?: Uint8Array } | undefined)?.bytes;
  if (bytes !== undefined) {
    const buffer = wholeBuffer(bytes);
    transfer.push(buffer);
    result = { ...result as object, bytes: buffer };
  }
  const message: WorkerMessage = {
    type: "done",
    id,
    ...answer,
    result,
    memoryBytes: wasmMemoryBytes(),
  };
  port!.postMessage(message, transfer);
}

/** Answers the jobs posted in the mailbox (see `worker_mailbox.ts`), one at a time. */
async function serveMailbox(box: Mailbox): Promise<void> {
  let seen = Atomics.load(box.cells, POSTED);
  for (;;) {
    const wait = Atomics.waitAsync(box.cells, POSTED, seen);
    if (wait.async) await wait.value;
    seen = Atomics.load(box.cells, POSTED);
    const job = readJob(box);
    const answer = attempt(() => run(job.op, job.input, job.options));
    if (!answerJob(box, seen, answer, wasmMemoryBytes())) postAnswer(-seen, answer);
  }
}

const setup = workerData as WorkerSetup;
const niceness = lowerThreadPriority(setup.niceness);
setMemoryHighWater(Infinity);
warmUp();
port.on("message", (job: ImageJob) => {
  const input = job.input === undefined ? undefined : new Uint8Array(job.input);
  postAnswer(job.id, attempt(() => run(job.op, input, job.options, job.signal)));
});
if (setup.mailbox !== undefined) void serveMailbox(openMailbox(setup.mailbox));
port.postMessage(
  { type: "ready", memoryBytes: wasmMemoryBytes(), niceness } satisfies WorkerMessage,
);
