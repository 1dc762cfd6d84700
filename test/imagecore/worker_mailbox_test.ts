import assert from "node:assert/strict";
import {
  answerJob,
  createMailbox,
  DONE,
  POSTED,
  postJob,
  readAnswer,
  readJob,
} from "../../imagecore/worker_mailbox.ts";

Deno.test("worker mailbox: a job's options and input read back exactly as posted", () => {
  const box = createMailbox(64);
  const input = new Uint8Array([1, 2, 3, 4, 5]);
  const options = {
    width: 300,
    greyscale: true,
    theme: "dark",
    format: "webp",
    effort: "small",
  } as const;
  assert.equal(postJob(box, 7, "transform", input, options), true);
  assert.equal(Atomics.load(box.cells, POSTED), 7);
  const job = readJob(box);
  assert.deepEqual([job.op, [...job.input!], job.options], ["transform", [1, 2, 3, 4, 5], options]);
  assert.equal(postJob(box, 8, "probe", input, undefined), true);
  assert.deepEqual(readJob(box).options, {});
  assert.equal(postJob(box, 9, "transform", input, { width: 0 }), true, "refused in the worker");
  assert.deepEqual(readJob(box).options, { width: 0 });
});

Deno.test("worker mailbox: what cannot cross exactly is left to postMessage", () => {
  const box = createMailbox(4);
  const small = new Uint8Array(4);
  assert.equal(postJob(box, 1, "probe", new Uint8Array(5), undefined), false, "input too large");
  // deno-lint-ignore no-explicit-any
  const odd = (options: any) => postJob(box, 1, "transform", small, options);
  assert.equal(odd({ format: "gif" }), false, "unknown format keeps imagecore's own refusal");
  assert.equal(odd({ theme: "blue" }), false);
  assert.equal(odd({ effort: "best" }), false, "unknown effort keeps imagecore's own refusal");
  assert.equal(odd({ width: 1.5 }), false);
  assert.equal(odd({ width: -3 }), false);
  assert.equal(
    odd({ width: 64, sharpen: true }),
    false,
    "an option it does not know is not dropped",
  );
  assert.equal(
    postJob(box, 1, "test:hold", undefined, undefined),
    false,
    "its signal needs a message",
  );
  assert.equal(Atomics.load(box.cells, POSTED), 0, "nothing was posted");
  assert.equal(odd({ width: 64, theme: undefined }), true, "an option left undefined is no option");
});

Deno.test("worker mailbox: results, refusals and the worker's memory read back; big results go by message", () => {
  const box = createMailbox(16);
  const result = {
    bytes: new Uint8Array([9, 8, 7]),
    width: 3,
    height: 2,
    format: "jpeg",
    inverted: true,
  };
  assert.equal(answerJob(box, 4, { result }, 123_456_789), true);
  assert.equal(Atomics.load(box.cells, DONE), 4);
  assert.deepEqual(readAnswer(box), { result, memoryBytes: 123_456_789 });
  answerJob(box, 5, { result: { format: "ico", width: 48, height: 32 } }, 1);
  assert.deepEqual(readAnswer(box).result, { format: "ico", width: 48, height: 32 });
  answerJob(box, 6, { error: { code: "corrupt", message: "Cannot decode" } }, 1);
  assert.deepEqual(readAnswer(box).error, { code: "corrupt", message: "Cannot decode" });
  const big = { ...result, bytes: new Uint8Array(17) };
  assert.equal(answerJob(box, 7, { result: big }, 1), false);
  assert.equal(readAnswer(box).byMessage, true);
  assert.equal(Atomics.load(box.cells, DONE), 7, "the pool is still told the job is answered");
  const long = { code: "corrupt", message: "Cannot decode image: corrupt data" } as const;
  assert.equal(answerJob(box, 8, { error: long }, 1), false, "never a truncated message");
});
