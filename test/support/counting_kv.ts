/**
 * Counts KV commits: every `atomic().commit()`, `set` and `delete` on one `Deno.Kv`, so tests and
 * the load benchmark can report KV commits per request.
 *
 * @module
 */

/** A live count of the commits made through a Kv since {@link countCommits} wrapped it. */
export interface CommitCounter {
  /** Commits so far (atomic commits, sets and deletes). */
  readonly commits: number;
}

/**
 * Patches `kv` in place so that each commit it makes is counted, and returns the counter.
 *
 * @example
 * ```ts
 * const kv = await Deno.openKv(":memory:");
 * const counter = countCommits(kv);
 * await kv.set(["a"], 1);
 * console.log(counter.commits); // 1
 * ```
 */
export function countCommits(kv: Deno.Kv): CommitCounter {
  const counter = { commits: 0 };
  const atomic = kv.atomic.bind(kv);
  const set = kv.set.bind(kv);
  const remove = kv.delete.bind(kv);
  kv.atomic = () => {
    const operation = atomic();
    const commit = operation.commit.bind(operation);
    operation.commit = () => {
      counter.commits++;
      return commit();
    };
    return operation;
  };
  kv.set = (...args: Parameters<Deno.Kv["set"]>) => {
    counter.commits++;
    return set(...args);
  };
  kv.delete = (...args: Parameters<Deno.Kv["delete"]>) => {
    counter.commits++;
    return remove(...args);
  };
  return counter;
}
