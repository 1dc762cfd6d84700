/**
 * `deno task build:wasm`: rebuilds imagecore/pkg/ (the WASM and its wasm-bindgen glue) from the
 * Rust sources. Sets the toolchain up first when needed (tools/setup_toolchain.sh).
 *
 * `deno task build:wasm --verify` builds into a temporary directory and fails unless the result
 * is byte-for-byte the committed one: the build is reproducible, and CI checks that.
 * @module
 */
import { readStamp, rustcId, sha256Hex, sourceHash, stampLine } from "./source_hash.ts";

const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const verify = Deno.args.includes("--verify");
const target = "wasm32-unknown-unknown";

async function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  const { code, stdout } = await new Deno.Command(cmd, {
    args,
    cwd: root,
    env,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (code !== 0) throw new Error(`${cmd} ${args.join(" ")} failed with exit code ${code}`);
  return new TextDecoder().decode(stdout);
}

const setup = await run("bash", ["tools/setup_toolchain.sh"]);
const rustc = /^RUSTC=(.*)$/m.exec(setup)?.[1];
if (!rustc) throw new Error("setup_toolchain.sh did not report a rustc");
// Recorded in the stamp: the WASM bytes depend on the compiler, so a --verify with another one
// says so instead of only "differs".
const compiler = rustcId(await run(rustc, ["-vV"]));

const home = Deno.env.get("CARGO_HOME") ?? `${Deno.env.get("HOME")}/.cargo`;
/**
 * Cap on each module's linear memory (wasm-ld's default is 4 GiB). The largest legal decode, a
 * 16.8-megapixel source transformed at 4096 px wide, peaks at 262 MiB (docs/internals/images.md), so a
 * decoder that escapes imagecore's limits fails to allocate here instead of growing the host's heap.
 */
const MAX_MEMORY_BYTES = 512 * 1024 * 1024;
// Paths are remapped so the WASM does not depend on where the clone or the registry lives.
const rustflags = [
  "-C",
  "target-feature=+simd128",
  "-C",
  `link-arg=--max-memory=${MAX_MEMORY_BYTES}`,
  `--remap-path-prefix=${root}=/imagecore`,
  `--remap-path-prefix=${home}=/cargo`,
].join("\x1f");
const env: Record<string, string> = { RUSTC: rustc, CARGO_ENCODED_RUSTFLAGS: rustflags };
if (rustc === "/usr/bin/rustc") env.CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER = "wasm-ld-22";
const out = await Deno.makeTempDir({ prefix: "imagecore-pkg-" });
const files: Record<string, Uint8Array> = {};
const source = await sourceHash();
// Two modules from one crate: the request path (default `raster` feature) and the lazily loaded
// SVG rasteriser (`svg` feature), each with its own wasm-bindgen glue.
for (
  const [name, features] of [["imagecore", []], ["imagecore_svg", [
    "--no-default-features",
    "--features",
    "svg",
  ]]] as const
) {
  await run(
    "cargo",
    ["build", "--release", "--locked", "--lib", "--target", target, ...features],
    env,
  );
  await run("wasm-bindgen", [
    "--target",
    "web",
    "--experimental-reset-state-function",
    "--out-dir",
    out,
    "--out-name",
    name,
    `target/${target}/release/imagecore.wasm`,
  ]);
  // Debian's binaryen (wasm-opt 108) predates wasm-bindgen's externref table and corrupts it, so
  // the WASM ships as rustc (LTO, opt-level 3) and wasm-bindgen leave it.
  const wasm = Deno.readFileSync(`${out}/${name}_bg.wasm`);
  const glue = Deno.readTextFileSync(`${out}/${name}.js`);
  const encoder = new TextEncoder();
  files[`${name}_bg.wasm`] = wasm;
  const stamp = stampLine({ source, wasm: await sha256Hex(wasm), rustc: compiler });
  files[`${name}.js`] = encoder.encode(`${stamp}\n${glue}`);
  files[`${name}.d.ts`] = encoder.encode(Deno.readTextFileSync(`${out}/${name}.d.ts`));
}

const pkg = `${root}/pkg`;
if (verify) {
  const differ = Object.entries(files).filter(([name, bytes]) => {
    let committed: Uint8Array;
    try {
      committed = Deno.readFileSync(`${pkg}/${name}`);
    } catch {
      return true;
    }
    return committed.length !== bytes.length || committed.some((b, i) => b !== bytes[i]);
  }).map(([name]) => name);
  await Deno.remove(out, { recursive: true });
  if (differ.length > 0) {
    console.error(`build:wasm --verify: a fresh build differs from imagecore/pkg in ${differ}`);
    const built = readStamp(Deno.readTextFileSync(`${pkg}/imagecore.js`))?.rustc;
    if (built !== compiler) {
      console.error(
        `  imagecore/pkg was built with rustc ${
          built || "(unrecorded)"
        }, this build used ${compiler}`,
      );
    }
    Deno.exit(1);
  }
  console.log("build:wasm --verify: a fresh build is byte-for-byte the committed imagecore/pkg");
} else {
  Deno.mkdirSync(pkg, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) Deno.writeFileSync(`${pkg}/${name}`, bytes);
  await Deno.remove(out, { recursive: true });
  const sizes = Object.entries(files).filter(([name]) => name.endsWith(".wasm"))
    .map(([name, bytes]) => `${name} ${(bytes.length / 1024).toFixed(0)} KiB`);
  console.log(`build:wasm: wrote imagecore/pkg (${sizes.join(", ")})`);
}
