/**
 * The image pool of one admin command (`logo add`, `logo import`, `logo rerender`): the files are
 * untrusted, so imagecore runs only in an image pool's workers (`imagecore/image_pool.ts`), each
 * job bounded by {@link ADMIN_IMAGE_DEADLINE_MS} and the pool's memory cap.
 *
 * @example
 * ```ts
 * import { startAdminPool } from "./admin_pool.ts";
 * await using imaging = await startAdminPool(2);
 * ```
 * @module
 */
import { type ImagePool, startImagePool } from "../../imagecore/image_pool.ts";

/** Wall-clock cap on one imagecore job on an operator's file, in ms. */
export const ADMIN_IMAGE_DEADLINE_MS = 10_000;

/**
 * Logos in flight per image worker in `logo import` and `logo rerender`: while one logo's blobs
 * are written to KV and hashed on the main thread, the worker renders the next.
 */
export const LOGOS_IN_FLIGHT_PER_WORKER = 2;

/** Starts the image pool for one command and waits until its workers have loaded imagecore. */
export async function startAdminPool(size = 1): Promise<ImagePool> {
  const imaging = startImagePool({ size, deadlineMs: ADMIN_IMAGE_DEADLINE_MS });
  try {
    await imaging.ready();
  } catch (error) {
    await imaging.close();
    throw error;
  }
  return imaging;
}
