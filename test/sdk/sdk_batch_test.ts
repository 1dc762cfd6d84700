import assert from "node:assert/strict";
import { settleBounded } from "../../src/sdk/batch.ts";

/** A task whose completion the test controls: each call waits until `finish(input)` is called. */
function controlledTasks() {
  const pending = new Map<string, PromiseWithResolvers<string>>();
  const started: string[] = [];
  const aborted: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const startedOne = { ...Promise.withResolvers<void>() };
  let notify = startedOne;
  const task = async (input: string, signal: AbortSignal) => {
    started.push(input);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const p = Promise.withResolvers<string>();
    pending.set(input, p);
    const onAbort = () => {
      aborted.push(input);
      p.reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort);
    notify.resolve();
    try {
      return await p.promise;
    } finally {
      inFlight--;
      signal.removeEventListener("abort", onAbort);
    }
  };
  return {
    task,
    started,
    aborted,
    get maxInFlight() {
      return maxInFlight;
    },
    /** Resolves once another task has started. */
    nextStart() {
      notify = Promise.withResolvers<void>();
      return notify.promise;
    },
    finish(input: string, fail = false) {
      const p = pending.get(input)!;
      if (fail) p.reject(new Error(`${input} failed`));
      else p.resolve(input.toUpperCase());
    },
  };
}

Deno.test("settleBounded never runs more than `concurrency` tasks and yields in completion order", async () => {
  const t = controlledTasks();
  const inputs = ["a", "b", "c", "d", "e"];
  const results = settleBounded(inputs, 2, t.task);
  // Pull the first result; meanwhile exactly two tasks start.
  const first = results.next();
  while (t.started.length < 2) await t.nextStart();
  assert.deepEqual(t.started, ["a", "b"]);
  t.finish("b");
  assert.deepEqual((await first).value, { input: "b", ok: true, value: "B" });
  const second = results.next();
  while (t.started.length < 3) await t.nextStart();
  assert.deepEqual(t.started, ["a", "b", "c"]);
  t.finish("c", true);
  const failed = (await second).value;
  assert.equal(failed?.input, "c");
  assert.equal(failed?.ok, false);
  // The failure did not stop the batch: the rest still run.
  const rest = (async () => {
    const out = [];
    for await (const o of results) out.push(o.input);
    return out;
  })();
  while (t.started.length < 4) await t.nextStart();
  t.finish("a");
  while (t.started.length < 5) await t.nextStart();
  t.finish("e");
  t.finish("d");
  assert.deepEqual(await rest, ["a", "e", "d"]);
  assert.equal(t.maxInFlight, 2);
});

Deno.test("settleBounded reads inputs lazily from an async iterable", async () => {
  let pulled = 0;
  async function* source() {
    for (const d of ["x", "y", "z"]) {
      pulled++;
      yield d;
    }
  }
  const seen: string[] = [];
  for await (const o of settleBounded(source(), 1, (d) => Promise.resolve(d))) {
    seen.push(o.input);
    assert.ok(pulled <= seen.length + 1, `pulled ${pulled} inputs for ${seen.length} results`);
  }
  assert.deepEqual(seen, ["x", "y", "z"]);
});

Deno.test("settleBounded aborts and awaits tasks still in flight when the consumer stops early", async () => {
  const t = controlledTasks();
  const results = settleBounded(["a", "b", "c"], 3, t.task);
  const first = results.next();
  while (t.started.length < 3) await t.nextStart();
  t.finish("a");
  assert.equal((await first).value?.input, "a");
  await results.return();
  assert.deepEqual(t.aborted.sort(), ["b", "c"]);
});

Deno.test("settleBounded throws the signal's reason when the caller aborts", async () => {
  const t = controlledTasks();
  const controller = new AbortController();
  const results = settleBounded(["a", "b"], 2, t.task, controller.signal);
  const first = results.next();
  while (t.started.length < 2) await t.nextStart();
  const reason = new Error("user stopped");
  controller.abort(reason);
  await assert.rejects(first, (e) => e === reason);
});

Deno.test("settleBounded refuses a concurrency below 1 or not whole", async () => {
  for (const bad of [0, -1, 1.5, NaN]) {
    await assert.rejects(settleBounded(["a"], bad, (d) => Promise.resolve(d)).next(), RangeError);
  }
});
