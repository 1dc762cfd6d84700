import assert from "node:assert/strict";
import { ProgressBar } from "../../src/admin/progress_bar.ts";

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
