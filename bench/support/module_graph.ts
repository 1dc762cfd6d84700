/**
 * What an entry point loads before its first line runs, from `deno info --json`: the repository
 * files reached by static imports (dynamic `import()` and type-only imports are not loaded at
 * start-up), the npm packages and `node:` modules they import, and which are reached only through
 * a dynamic `import()` (loaded later, if ever). `bench/serve_bench.ts` times each of them.
 *
 * @example
 * ```ts
 * import { moduleGraph } from "./module_graph.ts";
 * const graph = await moduleGraph("src/main.ts", "deno.json");
 * console.log(graph.external.filter((e) => !e.lazy).map((e) => e.specifier));
 * ```
 * @module
 */

/** A bare or `node:` specifier the repository's code imports. */
export interface ExternalImport {
  /** As written in the source: `tldts`, `node:worker_threads`. */
  specifier: string;
  /** `npm` (through deno.json's import map) or `node` (a built-in module). */
  kind: "npm" | "node";
  /** The npm package it resolved to, `tldts@7.5.4`; the specifier for `node:`. */
  resolved: string;
  /** Repository files (paths) that import it, `(lazy)` after those loaded only on demand. */
  importers: string[];
  /** Only reached through a dynamic `import()`: not loaded at start-up. */
  lazy: boolean;
}

/** The graph of one entry point. */
export interface ModuleGraph {
  /** Repository files loaded at start-up (static imports), in depth-first import order. */
  files: string[];
  /** Their source bytes. */
  bytes: number;
  /** Repository files reached only through a dynamic `import()`. */
  lazyFiles: string[];
  /** The targets of those dynamic imports that start-up code names (`src/discovery/service.ts`). */
  lazyRoots: string[];
  /** For each of {@link ModuleGraph.lazyRoots}, the start-up files that `import()` it. */
  dynamicImporters: Map<string, string[]>;
  /** Bare and `node:` imports, static first, each in first-import order. */
  external: ExternalImport[];
  /** The direct static imports (repository paths) of each repository file. */
  imports: Map<string, string[]>;
}

interface InfoDependency {
  specifier: string;
  code?: { specifier: string };
  isDynamic?: boolean;
}

interface InfoModule {
  kind: string;
  specifier: string;
  size?: number;
  npmPackage?: string;
  dependencies?: InfoDependency[];
}

/** `entry`'s module graph (both paths relative to the repository root). */
export async function moduleGraph(entry: string, config: string): Promise<ModuleGraph> {
  const root = new URL("../../", import.meta.url);
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "info",
      "--json",
      "--config",
      new URL(config, root).pathname,
      new URL(entry, root).pathname,
    ],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`deno info failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    roots: string[];
    modules: InfoModule[];
    redirects: Record<string, string>;
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const target = (specifier: string) => bySpecifier.get(info.redirects[specifier] ?? specifier);
  const path = (url: string) => url.startsWith(root.href) ? url.slice(root.href.length) : url;

  const files: string[] = [];
  const lazyFiles: string[] = [];
  const lazyRoots: InfoModule[] = [];
  const imports = new Map<string, string[]>();
  const dynamicImporters = new Map<string, string[]>();
  const external = new Map<string, ExternalImport>();
  const seen = new Set<string>();
  const isFile = (module: InfoModule) =>
    module.kind === "esm" && module.specifier.startsWith("file:");
  const addExternal = (
    dependency: InfoDependency,
    found: InfoModule,
    file: string,
    lazy: boolean,
  ) => {
    const importer = lazy ? `${file} (lazy)` : file;
    const known = external.get(dependency.specifier);
    if (known) {
      if (!known.importers.includes(importer)) known.importers.push(importer);
      if (!lazy) known.lazy = false;
      return;
    }
    external.set(dependency.specifier, {
      specifier: dependency.specifier,
      kind: found.kind as "npm" | "node",
      resolved: found.npmPackage ?? found.specifier,
      importers: [importer],
      lazy,
    });
  };
  // Static imports first (what loads before the entry's first line), then what dynamic imports
  // reach (both their static and dynamic imports).
  const walk = (module: InfoModule, lazy: boolean) => {
    if (seen.has(module.specifier)) return;
    seen.add(module.specifier);
    const file = path(module.specifier);
    (lazy ? lazyFiles : files).push(file);
    const direct: string[] = [];
    imports.set(file, direct);
    for (const dependency of module.dependencies ?? []) {
      if (dependency.code === undefined) continue; // type-only
      const found = target(dependency.code.specifier);
      if (found === undefined) continue;
      if (isFile(found)) {
        if (dependency.isDynamic && !lazy) {
          lazyRoots.push(found);
          const to = path(found.specifier);
          dynamicImporters.set(to, [...dynamicImporters.get(to) ?? [], file]);
        } else {
          direct.push(path(found.specifier));
          walk(found, lazy);
        }
      } else if (found.kind === "npm" || found.kind === "node") {
        addExternal(dependency, found, file, lazy || dependency.isDynamic === true);
      }
    }
  };
  const entryModule = target(info.roots[0]);
  if (entryModule === undefined) throw new Error(`deno info: no module for ${entry}`);
  walk(entryModule, false);
  const roots = lazyRoots.filter((module) => !seen.has(module.specifier));
  for (const module of roots) walk(module, true);
  const bytes = files.reduce((sum, file) => sum + (target(new URL(file, root).href)?.size ?? 0), 0);
  const list = [...external.values()];
  return {
    files,
    bytes,
    lazyFiles,
    lazyRoots: [...new Set(roots.map((module) => path(module.specifier)))],
    dynamicImporters,
    external: [...list.filter((e) => !e.lazy), ...list.filter((e) => e.lazy)],
    imports,
  };
}
