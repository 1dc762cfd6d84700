import assert from "node:assert/strict";
import { FrequencySketch, MAX_COUNT } from "../src/frequency_sketch.ts";

Deno.test("FrequencySketch never estimates a key below its count, up to the ceiling", () => {
  const sketch = new FrequencySketch(1_000);
  const counts = new Map<string, number>();
  // 300 keys asked 1…12 times each: 1,950 increments, under the 10,000 that halve the counters.
  for (let i = 0; i < 300; i++) counts.set(`d${i}.example`, 1 + (i % 12));
  for (const [key, count] of counts) for (let n = 0; n < count; n++) sketch.increment(key);
  let exact = 0;
  for (const [key, count] of counts) {
    const estimate = sketch.estimate(key);
    assert.ok(estimate >= count, `${key}: ${estimate} < ${count}`);
    if (estimate === count) exact++;
  }
  // Four rows of 1,024 counters for 300 keys: nearly every estimate is exact.
  assert.ok(exact >= 290, `only ${exact} of 300 estimates exact`);
  assert.equal(sketch.estimate("never.example"), 0);
});

Deno.test("FrequencySketch saturates at 15", () => {
  const sketch = new FrequencySketch(100);
  for (let n = 0; n < 40; n++) sketch.increment("hot.example");
  assert.equal(sketch.estimate("hot.example"), MAX_COUNT);
});

Deno.test("FrequencySketch halves its counters every sampleSize increments", () => {
  const sketch = new FrequencySketch(1_000, 20);
  for (let n = 0; n < 8; n++) sketch.increment("hot.example");
  assert.equal(sketch.estimate("hot.example"), 8);
  for (let n = 0; n < 11; n++) sketch.increment(`tail-${n}.example`);
  assert.equal(sketch.estimate("hot.example"), 8, "19 increments: not yet");
  sketch.increment("tail-last.example"); // the 20th: everything is halved once
  assert.equal(sketch.estimate("hot.example"), 4);
  assert.equal(sketch.estimate("tail-0.example"), 0);
});

Deno.test("FrequencySketch by default halves after 10 increments per counter of a row", () => {
  // 100 entries: rows of 128 counters, halved after 1,280 increments.
  const sketch = new FrequencySketch(100);
  for (let n = 0; n < 10; n++) sketch.increment("hot.example");
  // 10 keys asked 127 times each would saturate; count distinct keys once each instead.
  for (let n = 0; n < 1_269; n++) sketch.increment(`tail-${n}.example`);
  const before = sketch.estimate("hot.example");
  assert.ok(before >= 10);
  sketch.increment("tail-last.example");
  assert.equal(sketch.estimate("hot.example"), before >> 1);
});

Deno.test("FrequencySketch admits a candidate only when asked for more often than the victim", () => {
  const sketch = new FrequencySketch(100);
  for (let n = 0; n < 3; n++) sketch.increment("popular.example");
  sketch.increment("once.example");
  assert.equal(sketch.admits("once.example", "popular.example"), false);
  assert.equal(sketch.admits("popular.example", "once.example"), true);
  sketch.increment("twice.example");
  sketch.increment("twice.example");
  sketch.increment("once.example");
  assert.equal(sketch.admits("once.example", "twice.example"), false, "a tie keeps the victim");
});
