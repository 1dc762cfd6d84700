/**
 * Whether the process has file descriptors to spare for a new worker thread.
 *
 * Creating a Worker while every descriptor is taken makes Deno 2.9.6 panic
 * (`runtime/tokio_util.rs:66` or `ext/io/lib.rs:315`, "Too many open files") and the whole process
 * exits: the panic is on the new thread, outside anything JavaScript can catch. A thread's
 * runtime takes 6 descriptors, and `new Worker` returns only once it has them, so checking in the
 * same synchronous turn as `new Worker` leaves nothing on this thread (the listener included) that
 * could take them in between.
 *
 * @example
 * ```ts
 * import { hasDescriptorHeadroom } from "./descriptor_headroom.ts";
 * if (hasDescriptorHeadroom()) new Worker(new URL("data:text/javascript,"), { type: "module" });
 * ```
 * @module
 */

/** Descriptors a worker thread needs (6 measured on Deno 2.9.6), with a margin. */
export const WORKER_DESCRIPTORS = 16;

/**
 * Opens and closes `count` handles on the null device. True when all of them opened, or when the
 * check itself cannot run here (no such device, no read permission): then nothing is known and
 * the caller goes ahead as it would without the check.
 */
export function hasDescriptorHeadroom(count = WORKER_DESCRIPTORS): boolean {
  const held: Deno.FsFile[] = [];
  try {
    for (let i = 0; i < count; i++) held.push(Deno.openSync(NULL_DEVICE));
    return true;
  } catch (error) {
    return !isOutOfDescriptors(error);
  } finally {
    for (const file of held) file.close();
  }
}

const NULL_DEVICE = Deno.build.os === "windows" ? "NUL" : "/dev/null";

/** EMFILE (the process's limit) or ENFILE (the system's). */
function isOutOfDescriptors(error: unknown): boolean {
  const message = error instanceof Error ? error.message : "";
  return /Too many open files|os error 2[34]\b/.test(message);
}
