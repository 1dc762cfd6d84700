/**
 * The build stamp at the top of imagecore's committed glue records the rustc that compiled the
 * WASM, beside the source and WASM hashes (imagecore/tools/source_hash.ts).
 */
import assert from "node:assert/strict";
import { readStamp, rustcId, stampLine } from "../../imagecore/tools/source_hash.ts";

const VERBOSE = `rustc 1.96.0 (ac68faa20 2026-05-25) (built from a source tarball)
binary: rustc
commit-hash: ac68faa20c58cbccd01ee7208bf3b6e93a7d7f96
commit-date: 2026-05-25
host: x86_64-unknown-linux-gnu
release: 1.96.0
LLVM version: 22.1.8
`;

Deno.test("rustcId is the release and the short commit of `rustc -vV`", () => {
  assert.equal(rustcId(VERBOSE), "1.96.0-ac68faa20");
  assert.equal(rustcId("release: 1.97.0-nightly\ncommit-hash: unknown\n"), "1.97.0-nightly");
  assert.throws(() => rustcId("binary: rustc\n"), /printed no release/);
});

Deno.test("a stamp line reads back as written; an older stamp reads with no rustc", () => {
  const stamp = { source: "a".repeat(64), wasm: "b".repeat(64), rustc: "1.96.0-ac68faa20" };
  assert.deepEqual(readStamp(`${stampLine(stamp)}\nexport const x = 1;\n`), stamp);
  const old = `// imagecore-build: source-sha256=${"a".repeat(64)} wasm-sha256=${"b".repeat(64)}`;
  assert.deepEqual(readStamp(`${old}\n`), { ...stamp, rustc: "" });
  assert.equal(readStamp("// no stamp here\n"), undefined);
});

Deno.test("the committed glue of both WASM modules records the rustc that built them", async () => {
  for (const name of ["imagecore", "imagecore_svg"]) {
    const glue = await Deno.readTextFile(
      new URL(`../../imagecore/pkg/${name}.js`, import.meta.url),
    );
    assert.match(readStamp(glue)?.rustc ?? "", /^\d+\.\d+\.\d+(-[0-9a-z.]+)?$/, name);
  }
});
