/**
 * SQLite's "database is locked": a local KV file shared by several processes (instances, the
 * admin CLI beside a running server) reports it under write contention instead of waiting. A
 * write that reported it changed nothing, so running it again is safe. Declared here once: the
 * test for the error, a retry loop, and a KV whose single operations retry.
 *
 * @module
 */

/** How long {@link whileLocked} keeps retrying a store file that another process holds locked. */
export const LOCKED_STORE_WAIT_MS = 5_000;

/**
 * Whether `error` is SQLite's transient "database is locked" (SQLITE_BUSY).
 *
 * @example
 * ```ts
 * console.log(isLocked(new Error("database is locked"))); // true
 * ```
 */
export function isLocked(error: unknown): boolean {
  return error instanceof Error && /database (table )?is locked|SQLITE_BUSY/i.test(error.message);
}

/**
 * Runs `run` again while it fails with "database is locked" (several instances opening one new
 * store file at once; a write while another process writes), pausing 10 ms, doubling to 200 ms,
 * for at most {@link LOCKED_STORE_WAIT_MS}; then the error is thrown.
 *
 * @example
 * ```ts
 * const kv = await Deno.openKv(":memory:");
 * await whileLocked(() => kv.set(["k"], 1));
 * ```
 */
export async function whileLocked<T>(run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCKED_STORE_WAIT_MS;
  for (let pause = 10;; pause = Math.min(pause * 2, 200)) {
    try {
      return await run();
    } catch (error) {
      if (!isLocked(error) || Date.now() + pause > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** The KV methods that are one SQLite transaction each, retried by {@link retryWhileLocked}. */
const SINGLE_OPERATIONS = new Set<PropertyKey>(["get", "getMany", "set", "delete", "enqueue"]);

/**
 * `kv` with every single operation (`get`, `getMany`, `set`, `delete`, `enqueue`, and an
 * atomic operation's `commit`) run {@link whileLocked}; everything else as it is. For the admin
 * CLI, which writes to the store a server may be writing to at the same moment.
 *
 * @example
 * ```ts
 * const kv = retryWhileLocked(await Deno.openKv(":memory:"));
 * await kv.atomic().set(["k"], 1).commit();
 * console.log((await kv.get(["k"])).value); // 1
 * kv.close();
 * ```
 */
export function retryWhileLocked(kv: Deno.Kv): Deno.Kv {
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "atomic") return () => retryCommit(target.atomic());
      if (SINGLE_OPERATIONS.has(property)) {
        return (...args: unknown[]) => whileLocked(() => value.apply(target, args));
      }
      return value.bind(target);
    },
  });
}

/** `operation` whose `commit` is run {@link whileLocked} (a commit can be sent again). */
function retryCommit(operation: Deno.AtomicOperation): Deno.AtomicOperation {
  const wrapper: Deno.AtomicOperation = new Proxy(operation, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "commit") return () => whileLocked(() => target.commit());
      // The builder methods return the operation itself: return the wrapper instead.
      return (...args: unknown[]) => {
        const result = value.apply(target, args);
        return result === target ? wrapper : result;
      };
    },
  });
  return wrapper;
}
