/**
 * Imports go down the layers of docs/internals/architecture.md, never up: `src/` root ← `store/` ←
 * `limits/` ← `discovery/` ← `http/` ← `server/` and `settings/` (the settings table names the
 * parsers of `server/`, and the service takes the settings it defines) ← the entry points
 * (`main.ts`, `serve.ts`) and `admin/`. The SDK (`src/sdk/`, its
 * own JSR package) imports only its own folder; every layer may import the two modules of the
 * vocabulary it publishes, `sdk/domain_syntax.ts` and `sdk/logo_options.ts`, and nothing else of
 * it.
 */
import { deepStrictEqual, ok } from "node:assert";
import { dirname, join, relative } from "node:path";

const SRC = new URL("../src/", import.meta.url).pathname;
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

function sourceFiles(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((entry) =>
    entry.isDirectory
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
      ? [join(dir, entry.name)]
      : []
  );
}

/** Relative specifiers of the file's import and export statements (doc examples excluded). */
function imports(file: string): string[] {
  const code = Deno.readTextFileSync(file).split("\n")
    .filter((line) => !/^\s*(\*|\/\/)/.test(line)).join("\n");
  return [...code.matchAll(/(?:from|import)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g)].map((m) => m[1]);
}

function folderOf(path: string): string {
  const folder = relative(SRC, dirname(path));
  return folder === "." ? "" : folder.split("/")[0];
}

function upwardImports(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
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
  for (const file of sourceFiles(SRC)) {
    const folder = folderOf(file);
    ok(folder === "sdk" || folder in LAYERS, `${relative(SRC, file)}: folder without a layer`);
  }
});

Deno.test("no module of src/ imports from a layer above its own", () => {
  deepStrictEqual(upwardImports(), []);
});
