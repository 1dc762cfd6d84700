/**
 * No module of `src/` or `imagecore/` imports itself back through others: each import cycle is
 * printed as the shortest round trip through it. A cycle means two modules are one idea split in
 * two (or a fact declared in the wrong one); type-only imports count, because the dependency they
 * state is as real to a reader as a value's. Static relative imports are read from the source
 * text, as `layering_test.ts` reads them.
 */
import { deepStrictEqual, ok } from "node:assert";
import { dirname, join, relative } from "node:path";
import { relativeImports, typeScriptFiles } from "./support/module_imports.ts";

const ROOT = new URL("../", import.meta.url).pathname;
/** Folders scanned, with the folders below them that are not the project's TypeScript. */
const SCANNED = ["src", "imagecore"];
const SKIPPED = new Set(["imagecore/pkg", "imagecore/target", "imagecore/vendor"]);

/** The project's import graph: each module (relative to the root) and the modules it imports. */
function importGraph(): Map<string, string[]> {
  const skip = (dir: string) => SKIPPED.has(relative(ROOT, dir));
  const files = SCANNED.flatMap((folder) => typeScriptFiles(join(ROOT, folder), skip));
  const known = new Set(files.map((file) => relative(ROOT, file)));
  return new Map(files.map((file) => [
    relative(ROOT, file),
    relativeImports(file).map((specifier) => relative(ROOT, join(dirname(file), specifier)))
      .filter((target) => known.has(target)),
  ]));
}

/**
 * Every cycle of `graph`, one per strongly connected component (Tarjan): the shortest round trip
 * from the component's first module, by name, back to itself, as "a.ts → b.ts → a.ts".
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = stack.splice(stack.indexOf(node));
    const selfImport = (graph.get(node) ?? []).includes(node);
    if (component.length > 1 || selfImport) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => roundTrip(graph, component)).sort();
}

/** The shortest path from `component[0]` back to itself, within `component`. */
function roundTrip(graph: ReadonlyMap<string, readonly string[]>, component: string[]): string {
  const start = component[0];
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const next of graph.get(queue[i]) ?? []) {
      if (next === start) {
        const path = [start, queue[i]];
        while (path.at(-1) !== start) path.push(cameFrom.get(path.at(-1)!)!);
        return path.reverse().join(" → ");
      }
      if (inside.has(next) && !cameFrom.has(next)) {
        cameFrom.set(next, queue[i]);
        queue.push(next);
      }
    }
  }
  return component.join(" ↔ "); // unreachable: a component has a round trip
}

Deno.test("import cycles: the finder reports each cycle once, and nothing else", () => {
  const graph = new Map([
    ["a.ts", ["b.ts", "d.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts"]],
    ["d.ts", []],
    ["e.ts", ["e.ts"]],
    ["f.ts", ["d.ts", "g.ts"]],
    ["g.ts", ["f.ts"]],
  ]);
  deepStrictEqual(importCycles(graph), [
    "a.ts → b.ts → c.ts → a.ts",
    "e.ts → e.ts",
    "f.ts → g.ts → f.ts",
  ]);
  deepStrictEqual(importCycles(new Map([["a.ts", ["b.ts"]], ["b.ts", []]])), []);
});

Deno.test("import cycles: no module of src/ or imagecore/ imports itself back", () => {
  const graph = importGraph();
  ok(graph.has("src/discovery/rank.ts"), "the scan reads src/");
  ok(graph.has("imagecore/pool/job_queue.ts"), "and imagecore/, its folders too");
  deepStrictEqual(importCycles(graph), []);
});
