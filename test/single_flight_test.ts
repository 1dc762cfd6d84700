import assert from "node:assert/strict";
import { SingleFlight } from "../src/single_flight.ts";

/** A promise settled from outside. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

Deno.test("single flight: concurrent callers of one key share one run; other keys run apart", async () => {
  const flights = new SingleFlight<string, string>();
  const gate = deferred<string>();
  let runs = 0;
  const work = () => {
    runs++;
    return gate.promise;
  };
  const a = flights.run("k", work);
  const b = flights.run("k", work);
  const other = flights.run("other", () => Promise.resolve("o"));
  assert.equal(a, b);
  assert.equal(flights.running("k"), a);
  assert.equal(await other, "o");
  gate.resolve("v");
  assert.deepEqual(await Promise.all([a, b]), ["v", "v"]);
  assert.equal(runs, 1);
  assert.equal(flights.size, 0);
  assert.equal(flights.running("k"), undefined);
});

Deno.test("single flight: once settled, the next caller runs the work again", async () => {
  const flights = new SingleFlight<string, number>();
  let runs = 0;
  assert.equal(await flights.run("k", () => ++runs), 1);
  assert.equal(await flights.run("k", () => ++runs), 2);
});

Deno.test("single flight: every waiter sees the error, and a failure is not remembered", async () => {
  const flights = new SingleFlight<string, number>();
  const gate = deferred<number>();
  const a = flights.run("k", () => gate.promise);
  const b = flights.run("k", () => Promise.resolve(0));
  gate.reject(new Error("boom"));
  await assert.rejects(a, /boom/);
  await assert.rejects(b, /boom/);
  assert.equal(await flights.run("k", () => 7), 7);
});

Deno.test("single flight: a synchronous throw becomes a rejection", async () => {
  const flights = new SingleFlight<string, number>();
  const run = flights.run("k", () => {
    throw new Error("sync");
  });
  await assert.rejects(run, /sync/);
  assert.equal(flights.size, 0);
});

Deno.test("single flight: work that asks for its own key joins itself instead of running twice", async () => {
  const flights = new SingleFlight<string, unknown>();
  let runs = 0;
  let inner: Promise<unknown> | undefined;
  const outer = flights.run("k", () => {
    runs++;
    inner = flights.run("k", () => runs++);
    return "outer";
  });
  assert.equal(await outer, "outer");
  assert.equal(inner, outer);
  assert.equal(runs, 1);
});
