/**
 * The project's modules and their imports as the structure tests read them (`layering_test.ts`,
 * `import_cycles_test.ts`): TypeScript files found by walking folders, and the specifiers of their
 * static and dynamic imports and re-exports, read from the source text with doc examples and line
 * comments left out.
 *
 * @module
 */
import { join } from "node:path";

/** Every `.ts` file under `dir`, depth first; a folder for which `skip(path)` is true is left out. */
export function typeScriptFiles(
  dir: string,
  skip: (path: string) => boolean = () => false,
): string[] {
  if (skip(dir)) return [];
  return [...Deno.readDirSync(dir)].flatMap((entry) =>
    entry.isDirectory
      ? typeScriptFiles(join(dir, entry.name), skip)
      : entry.name.endsWith(".ts")
      ? [join(dir, entry.name)]
      : []
  );
}

/** The file's code, doc comments and line comments left out. */
export function codeOf(file: string): string {
  return Deno.readTextFileSync(file).split("\n")
    .filter((line) => !/^\s*(\*|\/\/)/.test(line)).join("\n");
}

/** Specifiers of the file's import and export statements (doc examples excluded). */
export function allImports(file: string): string[] {
  return [...codeOf(file).matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]);
}

/** Relative specifiers of the file's import and export statements (doc examples excluded). */
export function relativeImports(file: string): string[] {
  return allImports(file).filter((specifier) => /^\.\.?\//.test(specifier));
}
