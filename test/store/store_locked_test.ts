import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { isLocked, retryWhileLocked } from "../../src/store/store_locked.ts";

/** A store file with another connection holding SQLite's write lock. */
async function lockedStore() {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/store.kv`;
  const kv = await Deno.openKv(path);
  await kv.set(["ready"], true); // the schema exists before the other connection locks it
  const other = new DatabaseSync(path);
  other.exec("BEGIN IMMEDIATE");
  return {
    kv,
    [Symbol.asyncDispose]: async () => {
      other.exec("COMMIT");
      other.close();
      kv.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("a write while another connection holds the store file fails with database is locked (after Deno's 5 s wait)", async () => {
  await using store = await lockedStore();
  const error = await store.kv.set(["k"], 1).then(() => undefined, (e) => e);
  assert.ok(isLocked(error), `expected "database is locked", got ${error}`);
});

/** A KV over `kv` whose writes fail with "database is locked" the first `failures` times each. */
function flakyKv(kv: Deno.Kv, failures: number) {
  const calls = { set: 0, commit: 0 };
  const locked = () => Promise.reject(new Error("database is locked"));
  const fake = {
    get: kv.get.bind(kv),
    set: (key: Deno.KvKey, value: unknown) =>
      ++calls.set <= failures ? locked() : kv.set(key, value),
    atomic: () => {
      const op = kv.atomic();
      const flaky = {
        set: (key: Deno.KvKey, value: unknown) => (op.set(key, value), flaky),
        commit: () => ++calls.commit <= failures ? locked() : op.commit(),
      };
      return flaky;
    },
  };
  return { kv: fake as unknown as Deno.Kv, calls };
}

Deno.test("retryWhileLocked: set and an atomic commit are sent again until the lock is gone", async () => {
  using kv = await Deno.openKv(":memory:");
  const flaky = flakyKv(kv, 3);
  const retrying = retryWhileLocked(flaky.kv);
  await retrying.set(["a"], 1);
  assert.equal((await retrying.atomic().set(["b"], 2).commit()).ok, true);
  assert.deepEqual(flaky.calls, { set: 4, commit: 4 });
  assert.equal((await retrying.get(["a"])).value, 1);
  assert.equal((await kv.get(["b"])).value, 2);
  await assert.rejects(() => flakyKv(kv, 1).kv.set(["c"], 3), /database is locked/);
});

Deno.test("retryWhileLocked: other errors are not retried", async () => {
  using kv = await Deno.openKv(":memory:");
  const retrying = retryWhileLocked(kv);
  await assert.rejects(() => retrying.set([{} as string], 1), TypeError);
});
