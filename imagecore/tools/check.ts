/**
 * `deno task check:wasm`: fails when the committed WASM or its glue no longer match imagecore's
 * sources (run `deno task build:wasm` and commit imagecore/pkg/).
 * @module
 */
import { readStamp, sha256Hex, sourceHash } from "./source_hash.ts";

const pkg = new URL("../pkg/", import.meta.url);
const problems: string[] = [];
const glue = Deno.readTextFileSync(new URL("imagecore.js", pkg));
const stamp = readStamp(glue);
if (!stamp) {
  problems.push("imagecore/pkg/imagecore.js carries no build stamp");
} else {
  const source = await sourceHash();
  if (source !== stamp.source) {
    problems.push(`sources changed since the build (now ${source}, built ${stamp.source})`);
  }
  const wasm = await sha256Hex(Deno.readFileSync(new URL("imagecore_bg.wasm", pkg)));
  if (wasm !== stamp.wasm) {
    problems.push(`imagecore_bg.wasm is not the one the glue was built with (${wasm})`);
  }
}
if (problems.length > 0) {
  console.error("check:wasm: the committed WASM does not match imagecore's sources:");
  for (const problem of problems) console.error(`- ${problem}`);
  console.error("Rebuild with `deno task build:wasm` and commit imagecore/pkg/.");
  Deno.exit(1);
}
console.log(`check:wasm: imagecore/pkg matches the sources (${stamp!.source.slice(0, 12)}…)`);
