/**
 * An image pool's settings: {@link ImagePoolOptions} with every default filled in, declared here
 * once.
 *
 * @example
 * ```ts
 * import { poolSettings } from "./settings.ts";
 * poolSettings({ size: 2 }).deadlineMs; // 2000
 * ```
 * @module
 */
import { hasDescriptorHeadroom } from "../descriptor_headroom.ts";
import type { ImagePoolOptions } from "../image_pool_types.ts";
import { checkNiceness } from "../thread_niceness.ts";
import { DEFAULT_MAILBOX_BYTES } from "../worker_mailbox.ts";

/** Default JS heap cap of a worker, in MiB: room for the largest legal decode (16.8 MP). */
export const DEFAULT_MAX_HEAP_MB = 512;

const MIB = 1024 * 1024;

/** Every option of a pool, set. */
export type PoolSettings = Required<ImagePoolOptions>;

/**
 * `options` with their defaults (see {@link ImagePoolOptions}).
 *
 * @throws {RangeError} when `niceness` is out of range (`thread_niceness.ts`).
 */
export function poolSettings(options: ImagePoolOptions): PoolSettings {
  return {
    size: options.size ?? 1,
    deadlineMs: options.deadlineMs ?? 2000,
    maxQueue: options.maxQueue ?? 32,
    maxJobMemoryBytes: options.maxJobMemoryBytes ?? 256 * MIB,
    recycleAboveBytes: options.recycleAboveBytes ?? 64 * MIB,
    maxHeapMb: options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB,
    rss: options.rss ?? (() => Deno.memoryUsage().rss),
    mailboxBytes: options.mailboxBytes ?? DEFAULT_MAILBOX_BYTES,
    niceness: checkNiceness(options.niceness ?? 0),
    canStartWorker: options.canStartWorker ?? hasDescriptorHeadroom,
  };
}
