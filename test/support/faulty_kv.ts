/**
 * A `Deno.Kv` stand-in whose reads and commits can be made to fail or hang on demand, to test
 * how the service behaves when KV is down or unreachable.
 *
 * @module
 */

/** How the wrapped KV answers reads (`get`, `getMany`, `list`) and commits. */
export type KvMode = "up" | "down" | "hang";

/** Controls of a {@link faultyKv}. */
export interface FaultyKv {
  /** Pass this wherever a `Deno.Kv` is expected. */
  readonly kv: Deno.Kv;
  /** How reads answer; "down" rejects, "hang" waits until {@link release}. */
  reads: KvMode;
  /** How commits answer; "down" rejects, "hang" waits until {@link release}. */
  commits: KvMode;
  /** Reads and commits attempted so far, whatever their outcome. */
  readonly calls: number;
  /** Lets every hung call proceed against the real KV. */
  release(): void;
}

/**
 * Wraps `inner` so each read and commit first consults the current mode.
 *
 * @example
 * ```ts
 * const faulty = faultyKv(await Deno.openKv(":memory:"));
 * faulty.reads = "down";
 * await faulty.kv.get(["a"]).catch((e) => console.log(e.message)); // "KV unreachable"
 * ```
 */
export function faultyKv(inner: Deno.Kv): FaultyKv {
  const hung: Array<() => void> = [];
  const control = {
    reads: "up" as KvMode,
    commits: "up" as KvMode,
    calls: 0,
    release() {
      for (const resume of hung.splice(0)) resume();
    },
    kv: undefined as unknown as Deno.Kv,
  };

  function gate<T>(mode: KvMode, run: () => Promise<T>): Promise<T> {
    control.calls++;
    if (mode === "down") return Promise.reject(new Error("KV unreachable"));
    if (mode === "hang") {
      return new Promise<T>((resolve, reject) => hung.push(() => run().then(resolve, reject)));
    }
    return run();
  }

  function call(target: Deno.Kv, property: string | symbol, args: unknown[]): Promise<unknown> {
    const method = Reflect.get(target, property) as (...a: unknown[]) => Promise<unknown>;
    return method.apply(target, args);
  }

  function wrapAtomic(operation: Deno.AtomicOperation): Deno.AtomicOperation {
    const proxy: Deno.AtomicOperation = new Proxy(operation, {
      get(target, property) {
        if (property === "commit") return () => gate(control.commits, () => target.commit());
        const value = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  }

  control.kv = new Proxy(inner, {
    get(target, property) {
      switch (property) {
        case "get":
        case "getMany":
          return (...args: unknown[]) => gate(control.reads, () => call(target, property, args));
        case "set":
        case "delete":
          return (...args: unknown[]) => gate(control.commits, () => call(target, property, args));
        case "atomic":
          return () => wrapAtomic(target.atomic());
        default: {
          const value = Reflect.get(target, property);
          return typeof value === "function" ? value.bind(target) : value;
        }
      }
    },
  });
  return control;
}
