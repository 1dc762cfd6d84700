/**
 * Imports go down the layers of docs/internals/architecture.md, never up: `src/` root ← `store/` ←
 * `limits/` ← `discovery/` ← `http/` ← `server/` and `settings/` (the settings table names the
 * parsers of `server/`, and the service takes the settings it defines) ← the entry points
 * (`main.ts`, `serve.ts`) and `admin/`. The SDK (`src/sdk/`, its
 * own JSR package) imports only its own folder; every layer may import the two modules of the
 * vocabulary it publishes, `sdk/domain_syntax.ts` and `sdk/logo_options.ts`, and nothing else of
 * it.
 *
 * imagecore sits below all of `src/`, with one exception below it: the option vocabulary,
 * `src/sdk/logo_options.ts`. It must live in the SDK's folder (a published package cannot import
 * outside its own), so it is kept a leaf, importing nothing, and imagecore may import it and no
 * other file of `src/`.
 */
import { deepStrictEqual, ok } from "node:assert";
import { basename, dirname, join, relative } from "node:path";
import {
  allImports,
  codeOf,
  relativeImports as imports,
  typeScriptFiles,
} from "./support/module_imports.ts";

const SRC = new URL("../src/", import.meta.url).pathname;
const IMAGECORE = new URL("../imagecore/", import.meta.url).pathname;
/** The leaf vocabulary: the one file outside imagecore/ that imagecore imports. */
const VOCABULARY = join(SRC, "sdk/logo_options.ts");
/** imagecore's folders that hold no TypeScript of its own: built glue, Rust, fixtures. */
const IMAGECORE_SKIPPED = new Set(["pkg", "target", "vendor", "tests", "examples", "src"]);
const LAYERS: Record<string, number> = {
  "": 0,
  store: 1,
  limits: 2,
  discovery: 3,
  observe: 2.5,
  http: 4,
  server: 5,
  settings: 5,
  admin: 6,
};
/** The entry points: `deno task start` and `deno serve` / Deno Deploy. */
const ENTRY_POINTS = new Set(["main.ts", "serve.ts"]);
/** The SDK's modules every layer may import: the vocabulary the server and the SDK share. */
const SDK_SHARED = new Set(["sdk/domain_syntax.ts", "sdk/logo_options.ts"]);

/** imagecore's own TypeScript, its skipped folders left out. */
function imagecoreFiles(): string[] {
  return typeScriptFiles(IMAGECORE, (dir) => IMAGECORE_SKIPPED.has(basename(dir)));
}

function folderOf(path: string): string {
  const folder = relative(SRC, dirname(path));
  return folder === "." ? "" : folder.split("/")[0];
}

function upwardImports(): string[] {
  const found: string[] = [];
  for (const file of typeScriptFiles(SRC)) {
    const from = folderOf(file);
    const rank = ENTRY_POINTS.has(relative(SRC, file)) ? 7 : LAYERS[from];
    for (const specifier of imports(file)) {
      const target = join(dirname(file), specifier);
      if (!target.startsWith(SRC)) continue; // imagecore/ sits below everything
      const to = folderOf(target);
      const edge = `${relative(SRC, file)} → ${relative(SRC, target)}`;
      if (from === "sdk") {
        if (to !== "sdk") found.push(edge);
      } else if (to === "sdk" ? !SDK_SHARED.has(relative(SRC, target)) : LAYERS[to] > rank) {
        found.push(edge);
      }
    }
  }
  return found;
}

Deno.test("every folder of src/ has a layer", () => {
  for (const file of typeScriptFiles(SRC)) {
    const folder = folderOf(file);
    ok(folder === "sdk" || folder in LAYERS, `${relative(SRC, file)}: folder without a layer`);
  }
});

Deno.test("no module of src/ imports from a layer above its own", () => {
  deepStrictEqual(upwardImports(), []);
});

/** imports of imagecore's TypeScript that leave imagecore/ for anything but the vocabulary. */
function imagecoreUpwardImports(): string[] {
  const found: string[] = [];
  for (const file of imagecoreFiles()) {
    for (const specifier of imports(file)) {
      const target = join(dirname(file), specifier);
      if (!target.startsWith(IMAGECORE) && target !== VOCABULARY) {
        found.push(`imagecore/${relative(IMAGECORE, file)} → ${relative(join(SRC, ".."), target)}`);
      }
    }
  }
  return found;
}

Deno.test("imagecore imports nothing above it: its own files and the leaf vocabulary only", () => {
  ok(imagecoreFiles().includes(join(IMAGECORE, "mod.ts")));
  deepStrictEqual(imagecoreUpwardImports(), []);
  deepStrictEqual(allImports(VOCABULARY), [], "the vocabulary stays a leaf: it imports nothing");
  ok(!/\bDeno\./.test(codeOf(VOCABULARY)), "the vocabulary uses no Deno API");
});
