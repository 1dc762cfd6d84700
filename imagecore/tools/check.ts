/**
 * `deno task check:wasm`: fails when the committed WASM or its glue no longer match imagecore's
 * sources (run `deno task build:wasm` and commit imagecore/pkg/).
 * @module
 */
import { readStamp, sha256Hex, sourceHash } from "./source_hash.ts";

const pkg = new URL("../pkg/", import.meta.url);
const problems: string[] = [];
const source = await sourceHash();
for (const name of ["imagecore", "imagecore_svg"]) {
  const glue = Deno.readTextFileSync(new URL(`${name}.js`, pkg));
  const stamp = readStamp(glue);
  if (!stamp) {
    problems.push(`imagecore/pkg/${name}.js carries no build stamp`);
    continue;
  }
  if (stamp.rustc === "") problems.push(`imagecore/pkg/${name}.js does not record its rustc`);
  if (source !== stamp.source) {
    problems.push(
      `${name}: sources changed since the build (now ${source}, built ${stamp.source})`,
    );
  }
  const wasm = await sha256Hex(Deno.readFileSync(new URL(`${name}_bg.wasm`, pkg)));
  if (wasm !== stamp.wasm) {
    problems.push(`${name}_bg.wasm is not the one its glue was built with (${wasm})`);
  }
}
if (problems.length > 0) {
  console.error("check:wasm: the committed WASM does not match imagecore's sources:");
  for (const problem of problems) console.error(`- ${problem}`);
  console.error("Rebuild with `deno task build:wasm` and commit imagecore/pkg/.");
  Deno.exit(1);
}
console.log(`check:wasm: imagecore/pkg matches the sources (${source.slice(0, 12)}…)`);
