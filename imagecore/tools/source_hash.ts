/**
 * The hash that ties the committed WASM to imagecore's sources: SHA-256 over every input of the
 * build (Rust sources, manifests, lock file, cargo config, build script), path and content.
 * @module
 */

const ROOT = new URL("../", import.meta.url);

/**
 * Files (relative to imagecore/) whose content determines the built WASM: the Rust sources, the
 * fonts they embed (`fonts/*.ttf`, `include_bytes!` in `src/svg/font.rs`), and the vendored
 * crates `Cargo.toml` patches in (`vendor/*`: their manifests and sources).
 */
export function buildInputs(): string[] {
  const files = ["Cargo.toml", "Cargo.lock", ".cargo/config.toml", "tools/build.ts"];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(new URL(dir, ROOT))) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) walk(`${path}/`);
      else if (/\.(rs|ttf)$|^Cargo\.toml$/.test(entry.name)) files.push(path);
    }
  };
  walk("src/");
  walk("fonts/");
  walk("vendor/");
  return files.sort();
}

/** Hex SHA-256 of bytes. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * SHA-256 over the build inputs: each path, a NUL, its content (a text file's with CRLF folded to
 * LF; a font's as is), a NUL.
 */
export async function sourceHash(): Promise<string> {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (const path of buildInputs()) {
    const content = path.endsWith(".ttf")
      ? Deno.readFileSync(new URL(path, ROOT))
      : encoder.encode(Deno.readTextFileSync(new URL(path, ROOT)).replaceAll("\r\n", "\n"));
    parts.push(encoder.encode(`${path}\0`), content, encoder.encode("\0"));
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  return await sha256Hex(all);
}

/** What the build stamp records: the sources, the WASM they gave, and the compiler that built it. */
export interface BuildStamp {
  /** {@link sourceHash} of the build inputs. */
  source: string;
  /** SHA-256 of the `_bg.wasm` file. */
  wasm: string;
  /** The rustc that compiled it, `<release>-<commit>` (e.g. `1.96.0-ac68faa20`); "" if unrecorded. */
  rustc: string;
}

/**
 * The rustc of `rustc -vV` output, as the stamp records it: `<release>-<first 9 of commit-hash>`.
 *
 * @example
 * ```ts
 * rustcId("release: 1.96.0\ncommit-hash: ac68faa20c58cbccd01ee7208bf3b6e93a7d7f96\n"); // "1.96.0-ac68faa20"
 * ```
 */
export function rustcId(verbose: string): string {
  const release = /^release: (\S+)$/m.exec(verbose)?.[1];
  const commit = /^commit-hash: ([0-9a-f]+)$/m.exec(verbose)?.[1];
  if (release === undefined) throw new Error("rustc -vV printed no release");
  return commit === undefined ? release : `${release}-${commit.slice(0, 9)}`;
}

/** The stamp line the build writes at the top of the committed glue. */
export function stampLine(stamp: BuildStamp): string {
  return `// imagecore-build: source-sha256=${stamp.source} wasm-sha256=${stamp.wasm} rustc=${stamp.rustc}`;
}

/** Reads the stamp of a glue file, or undefined when there is none. */
export function readStamp(glue: string): BuildStamp | undefined {
  const match =
    /^\/\/ imagecore-build: source-sha256=([0-9a-f]{64}) wasm-sha256=([0-9a-f]{64})(?: rustc=(\S+))?$/m
      .exec(glue);
  return match ? { source: match[1], wasm: match[2], rustc: match[3] ?? "" } : undefined;
}
