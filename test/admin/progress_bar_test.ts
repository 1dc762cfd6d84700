import assert from "node:assert/strict";
import { formatDuration, ProgressBar } from "../../src/admin/progress_bar.ts";

Deno.test("progress bar prints one line per item when not on a terminal", () => {
  let out = "";
  const bar = new ProgressBar(12, { write: (t) => out += t, terminal: false });
  bar.step("imported", "a.example");
  bar.message("failed b.png: Cannot decode image: corrupt data");
  bar.step("unchanged", "c.example");
  bar.done();
  assert.equal(
    out,
    "[ 1/12] imported a.example\nfailed b.png: Cannot decode image: corrupt data\n" +
      "[ 2/12] unchanged c.example\n",
  );
});

Deno.test("progress bar redraws one line in place on a terminal", () => {
  let out = "";
  const bar = new ProgressBar(2, { write: (t) => out += t, terminal: true, width: 4 });
  bar.step("imported", "a.example");
  bar.step("imported", "b.example");
  bar.done();
  assert.equal(
    out,
    "\r\x1b[2K██░░ 1/2 imported a.example\r\x1b[2K████ 2/2 imported b.example\n",
  );
});

Deno.test("progress bar with a rate says items per second so far and the time left", () => {
  let out = "";
  const now = { ms: 1_000 };
  const bar = new ProgressBar(100, {
    write: (t) => out += t,
    terminal: false,
    rate: { unit: "logos", clock: () => now.ms },
  });
  now.ms += 2_000;
  bar.step("imported", "a.example");
  now.ms += 2_000;
  for (let i = 0; i < 39; i++) bar.step("imported", "b.example");
  const lines = out.trimEnd().split("\n");
  // 1 logo in 2 s: 0.5 logos/s, 99 left: 198 s.
  assert.equal(lines[0], "[  1/100] imported a.example (0.5 logos/s, ETA 3 min 18 s)");
  // 40 logos in 4 s: 10 logos/s, 60 left: 6 s.
  assert.equal(lines.at(-1), "[ 40/100] imported b.example (10.0 logos/s, ETA 6 s)");
});

Deno.test("durations read as seconds, minutes or hours", () => {
  assert.equal(formatDuration(42.4), "42 s");
  assert.equal(formatDuration(185), "3 min 05 s");
  assert.equal(formatDuration(7_620), "2 h 07 min");
});
