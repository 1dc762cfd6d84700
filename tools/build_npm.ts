/**
 * `deno task build:npm [DIR]`: the SDK as an npm package, built from the same TypeScript as the JSR
 * package, into `dist/npm/` (git-ignored) or `DIR`: ESM JavaScript and `.d.ts` types emitted by the
 * TypeScript compiler (npm:typescript, a dev dependency of `deno.dev.json`), a `package.json` made
 * from `src/sdk/deno.json` (name, version, licence), and the SDK's `README.md` and `LICENSE`.
 *
 * The build refuses an SDK module that imports anything outside `src/sdk/` or names `Deno` in its
 * code: the package has no dependencies and runs on Node 20, Bun and Deno alike. Install it with
 * `npm install ./dist/npm` (or `npm pack` it first).
 *
 * It lives outside `src/`, whose checks run with the server's `deno.json` and lock: the compiler is
 * a dev dependency (`deno.dev.json`), as the benchmarks' and imagecore's tools are.
 *
 * @module
 */
import ts from "typescript";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The SDK's folder, where its `deno.json`, `mod.ts`, README and licence are. */
const SDK_DIR = fileURLToPath(new URL("../src/sdk/", import.meta.url));
/** Where `deno task build:npm` writes the package by default (git-ignored). */
export const DEFAULT_OUT_DIR: string = fileURLToPath(new URL("../dist/npm/", import.meta.url));

/** One-line description on npm (JSR takes it from the package settings instead). */
const DESCRIPTION =
  "Server SDK of Logo Lookup: company logos by domain with a secret key — one, many or streamed.";

/**
 * The compiler options, as a `tsconfig.json` would write them: ES2022 modules for Node 20, the
 * DOM's types for `fetch` and its kin (every supported runtime has them), `.ts` specifiers
 * rewritten to `.js`.
 */
const COMPILER_OPTIONS = {
  target: "ES2022",
  module: "ES2022",
  moduleResolution: "bundler",
  lib: ["ES2022", "DOM", "DOM.Iterable", "DOM.AsyncIterable"],
  types: [],
  strict: true,
  declaration: true,
  rewriteRelativeImportExtensions: true,
  newLine: "lf",
  skipLibCheck: true,
};

/** A file of the built package and its size. */
export interface BuiltFile {
  /** Path inside the package, `/`-separated. */
  path: string;
  /** Size in bytes. */
  bytes: number;
}

/** What {@link buildNpmPackage} wrote. */
export interface NpmBuild {
  /** The package folder. */
  dir: string;
  /** Its `package.json`, as written. */
  manifest: Record<string, unknown>;
  /** Every file, sorted by path. */
  files: BuiltFile[];
}

/**
 * Builds the npm package into `outDir`, which must be missing, empty, or an earlier build (it is
 * replaced). Throws with every problem found: a compiler error, a dependency, a use of `Deno`.
 *
 * @example
 * ```ts
 * import { buildNpmPackage } from "./build_npm.ts";
 * const build = await buildNpmPackage(await Deno.makeTempDir());
 * console.log(build.manifest.version, build.files.length);
 * ```
 */
export async function buildNpmPackage(outDir: string = DEFAULT_OUT_DIR): Promise<NpmBuild> {
  const config = JSON.parse(await Deno.readTextFile(join(SDK_DIR, "deno.json")));
  await clearOutDir(outDir, config.name);

  const { options, errors } = ts.convertCompilerOptionsFromJson(COMPILER_OPTIONS, SDK_DIR);
  if (errors.length > 0) throw new Error(`Cannot build the npm package: ${format(errors)}`);
  const entry = join(SDK_DIR, config.exports);
  const program = ts.createProgram([entry], { ...options, rootDir: SDK_DIR, outDir });
  const problems = [
    ...ts.getPreEmitDiagnostics(program).map((d) => format([d])),
    ...program.getSourceFiles().filter((file) => file.fileName.startsWith(SDK_DIR))
      .flatMap(portabilityProblems),
  ];
  if (problems.length === 0) {
    const emitted = program.emit(undefined, undefined, undefined, undefined, {
      afterDeclarations: [jsSpecifiersInDeclarations],
    });
    problems.push(...emitted.diagnostics.map((d) => format([d])));
  }
  if (problems.length > 0) {
    throw new Error(`Cannot build the npm package:\n${problems.map((p) => `- ${p}`).join("\n")}`);
  }

  const main = config.exports.replace(/^\.\//, "").replace(/\.ts$/, "");
  const manifest = {
    name: config.name,
    version: config.version,
    description: DESCRIPTION,
    license: config.license,
    type: "module",
    exports: { ".": { types: `./${main}.d.ts`, import: `./${main}.js` } },
    types: `./${main}.d.ts`,
    engines: { node: ">=20" },
    sideEffects: false,
  };
  await Deno.writeTextFile(join(outDir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const name of ["README.md", "LICENSE"]) {
    await Deno.copyFile(join(SDK_DIR, name), join(outDir, name));
  }
  return { dir: outDir, manifest, files: await listFiles(outDir) };
}

/**
 * What keeps a module from running outside Deno or outside this repository: an import that is not
 * a relative one inside the SDK (a dependency, a `node:` or `jsr:` module), or code naming `Deno`.
 */
function portabilityProblems(file: ts.SourceFile): string[] {
  const problems: string[] = [];
  const where = (node: ts.Node) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    return `${relative(SDK_DIR, file.fileName)}:${line + 1}`;
  };
  const visit = (node: ts.Node): void => {
    const specifier = ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
      ? node.moduleSpecifier
      : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
      ? node.arguments[0]
      : undefined;
    if (specifier !== undefined) {
      const target = ts.isStringLiteral(specifier) ? specifier.text : "";
      const resolved = join(file.fileName, "..", target);
      if (!target.startsWith(".") || !resolved.startsWith(SDK_DIR)) {
        problems.push(`${where(node)}: imports ${specifier.getText(file)}, outside the SDK`);
      }
    }
    if (ts.isIdentifier(node) && node.text === "Deno") {
      problems.push(`${where(node)}: uses Deno, which Node and Bun do not have`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return problems;
}

/**
 * Rewrites `./x.ts` to `./x.js` in the `.d.ts` files, as `rewriteRelativeImportExtensions` does in
 * the JavaScript: declaration emit keeps the source's specifiers, which a TypeScript user's
 * resolver (older than 5.7, or not allowing `.ts` imports) would not follow.
 */
function jsSpecifiersInDeclarations(
  context: ts.TransformationContext,
): (node: ts.SourceFile | ts.Bundle) => ts.SourceFile | ts.Bundle {
  const { factory } = context;
  const js = (specifier: ts.Expression | undefined) =>
    specifier !== undefined && ts.isStringLiteral(specifier) &&
      /^\.\.?\/.*\.ts$/.test(specifier.text)
      ? factory.createStringLiteral(specifier.text.replace(/\.ts$/, ".js"))
      : undefined;
  const visit = (node: ts.Node): ts.Node => {
    if (ts.isImportDeclaration(node)) {
      const specifier = js(node.moduleSpecifier);
      if (specifier !== undefined) {
        return factory.updateImportDeclaration(
          node,
          node.modifiers,
          node.importClause,
          specifier,
          node.attributes,
        );
      }
    }
    if (ts.isExportDeclaration(node)) {
      const specifier = js(node.moduleSpecifier);
      if (specifier !== undefined) {
        return factory.updateExportDeclaration(
          node,
          node.modifiers,
          node.isTypeOnly,
          node.exportClause,
          specifier,
          node.attributes,
        );
      }
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const specifier = js(node.argument.literal);
      if (specifier !== undefined) {
        return factory.updateImportTypeNode(
          node,
          factory.createLiteralTypeNode(specifier),
          node.attributes,
          node.qualifier,
          node.typeArguments,
          node.isTypeOf,
        );
      }
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (node) => ts.isSourceFile(node) ? ts.visitEachChild(node, visit, context) : node;
}

/** Empties `dir` for a new build, refusing a folder that holds something else. */
async function clearOutDir(dir: string, name: string): Promise<void> {
  let entries: string[];
  try {
    entries = [...Deno.readDirSync(dir)].map((entry) => entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    await Deno.mkdir(dir, { recursive: true });
    return;
  }
  if (entries.length === 0) return;
  let previous: string | undefined;
  try {
    previous = JSON.parse(await Deno.readTextFile(join(dir, "package.json"))).name;
  } catch {
    previous = undefined;
  }
  if (previous !== name) {
    throw new Error(`Cannot build the npm package: ${dir} is not empty and holds no build of it`);
  }
  await Deno.remove(dir, { recursive: true });
  await Deno.mkdir(dir, { recursive: true });
}

async function listFiles(dir: string, prefix = ""): Promise<BuiltFile[]> {
  const files: BuiltFile[] = [];
  for await (const entry of Deno.readDir(join(dir, prefix))) {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory) files.push(...await listFiles(dir, path));
    else files.push({ path, bytes: (await Deno.stat(join(dir, path))).size });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

function format(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => SDK_DIR,
    getNewLine: () => "\n",
  }).trim();
}

if (import.meta.main) {
  const out = Deno.args[0] === undefined ? DEFAULT_OUT_DIR : resolve(Deno.args[0]);
  const build = await buildNpmPackage(out).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    Deno.exit(1);
  });
  const total = build.files.reduce((sum, file) => sum + file.bytes, 0);
  for (const file of build.files) console.log(`${String(file.bytes).padStart(8)}  ${file.path}`);
  console.log(`${String(total).padStart(8)}  bytes in ${build.files.length} files`);
  console.log(`${build.manifest.name}@${build.manifest.version} built in ${build.dir}`);
  console.log(`Install it with: npm install ${relative(Deno.cwd(), build.dir) || "."}`);
}
