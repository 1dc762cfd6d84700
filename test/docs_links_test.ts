/**
 * Links between the docs stay whole: every relative Markdown link in README.md, docs/, bench/,
 * imagecore/README.md and src/sdk/README.md names a file that exists (and, for a `#fragment` into a
 * Markdown file, a heading of it, slugged as GitHub does); every `docs/…` or `bench/results/…` path
 * named in the TypeScript of src/, imagecore/*.ts, test/ and bench/ (comments, messages, `--help`)
 * exists; and the index, docs/README.md, links every page. Pages move between docs/use,
 * docs/operate and docs/internals, and benchmark runs into bench/results/; a path left behind fails
 * here, not in a reader's browser.
 */
import { deepStrictEqual } from "node:assert";
import { dirname, join, normalize } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;

/** Markdown files whose links are checked, relative to the repository root. */
function markdownFiles(): string[] {
  return [
    "README.md",
    "imagecore/README.md",
    "src/sdk/README.md",
    ...walk("docs", ".md"),
    ...walk("bench", ".md"),
  ];
}

/**
 * TypeScript files whose `docs/…` and `bench/results/…` paths are checked: src/, test/, bench/ and
 * imagecore's own modules (not `imagecore/tools/`: `build.ts` is an input of the WASM build, whose
 * hash `check:wasm` compares, so it changes only with a rebuild). Not this file, whose last test
 * names missing paths on purpose.
 */
function sourceFiles(): string[] {
  const imagecore = [...Deno.readDirSync(join(ROOT, "imagecore"))]
    .filter((entry) => entry.isFile && entry.name.endsWith(".ts"))
    .map((entry) => `imagecore/${entry.name}`);
  return [...["src", "test", "bench"].flatMap((dir) => walk(dir, ".ts")), ...imagecore]
    .filter((file) => file !== "test/docs_links_test.ts");
}

/** Files under `dir` (a folder of the repository) whose names end in `suffix`. */
function walk(dir: string, suffix: string): string[] {
  return [...Deno.readDirSync(join(ROOT, dir))].flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) return walk(path, suffix);
    return entry.name.endsWith(suffix) ? [path] : [];
  });
}

/** How a checked file reads what it links to: the text of a file, or undefined when none exists. */
type ReadFile = (path: string) => string | undefined;

/** Reads a file of the repository (or says it is a directory), undefined when it does not exist. */
function readRepoFile(path: string): string | undefined {
  try {
    const info = Deno.statSync(join(ROOT, path));
    return info.isDirectory ? "" : Deno.readTextFileSync(join(ROOT, path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** `text` without its fenced code blocks (their lines kept empty, so line numbers hold). */
function withoutCodeBlocks(text: string): string {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  }).join("\n");
}

/**
 * The anchors of a Markdown file's headings as GitHub makes them: lower case, every character but
 * letters, digits, `_`, `-` and spaces dropped, spaces turned into `-`, `-1`, `-2`… on repeats.
 */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(markdown).split("\n")) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`/g, "");
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, "").replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/**
 * The broken relative links of the Markdown file at `path` (relative to the root): each as
 * `path:line: target (why)`. Links with a scheme (`https:`, `mailto:`) are not followed.
 */
function brokenLinks(path: string, read: ReadFile): string[] {
  const text = read(path) ?? "";
  const broken: string[] = [];
  withoutCodeBlocks(text).split("\n").forEach((line, index) => {
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [file, fragment] = target.split("#", 2);
      const resolved = file === "" ? path : normalize(join(dirname(path), file));
      const where = `${path}:${index + 1}: ${target}`;
      const linked = read(resolved);
      if (linked === undefined) {
        broken.push(`${where} (no such file)`);
      } else if (fragment && resolved.endsWith(".md") && !headingAnchors(linked).has(fragment)) {
        broken.push(`${where} (no heading #${fragment} in ${resolved})`);
      }
    }
  });
  return broken;
}

/**
 * The `docs/…` and `bench/results/…` paths named in the source file at `path` that do not exist,
 * each as `path:line: docs/…`. A path is taken where it starts (`docs/` not preceded by a letter,
 * `.`, `/` or `-`: `../../docs/x` in an import URL is the code's own business) up to the first
 * character no file name here has.
 */
function missingPaths(path: string, read: ReadFile): string[] {
  const text = read(path) ?? "";
  const missing: string[] = [];
  text.split("\n").forEach((line, index) => {
    for (const match of line.matchAll(/(?<![\w./-])(?:docs|bench\/results)\/[\w./@-]*/g)) {
      const named = match[0].replace(/[./-]+$/, "");
      if (read(named) === undefined) missing.push(`${path}:${index + 1}: ${named}`);
    }
  });
  return missing;
}

Deno.test("every relative link in README.md, docs/ and bench/ names a file and heading that exist", () => {
  const files = markdownFiles();
  deepStrictEqual(files.includes("docs/README.md"), true, "the docs index is checked");
  deepStrictEqual(files.flatMap((file) => brokenLinks(file, readRepoFile)), []);
});

Deno.test("docs/README.md, the index, links every page of docs/", () => {
  const index = readRepoFile("docs/README.md") ?? "";
  const linked = new Set(
    [...index.matchAll(/\]\(([^)#\s]+\.md)\)/g)].map((match) => normalize(join("docs", match[1]))),
  );
  const pages = walk("docs", ".md").filter((page) => page !== "docs/README.md");
  deepStrictEqual(pages.filter((page) => !linked.has(page)), []);
});

Deno.test("every docs/ and bench/results/ path named in src/, imagecore/*.ts, test/ and bench/ exists", () => {
  const files = sourceFiles();
  deepStrictEqual(
    ["src/main.ts", "imagecore/mod.ts"].every((file) => files.includes(file)),
    true,
    "the sources are found",
  );
  deepStrictEqual(files.flatMap((file) => missingPaths(file, readRepoFile)), []);
});

Deno.test("a link to a missing file or heading, or a missing docs/ path, is reported", () => {
  const files: Record<string, string> = {
    "docs/use/a.md": [
      "# A",
      "[ok](../operate/b.md#two-words) [ok](#a) [web](https://example.com/x.md)",
      "[gone](../b.md) [no heading](../operate/b.md#three)",
      "```",
      "[in a code block](nowhere.md)",
      "```",
    ].join("\n"),
    "docs/operate/b.md": "# Two words\n## Two words\n",
    "src/x.ts": "/** See docs/use/a.md and docs/render_pool.md. */\nnew URL('../../docs/gone.md');",
  };
  const read: ReadFile = (path) => files[path];
  deepStrictEqual(brokenLinks("docs/use/a.md", read), [
    "docs/use/a.md:3: ../b.md (no such file)",
    "docs/use/a.md:3: ../operate/b.md#three (no heading #three in docs/operate/b.md)",
  ]);
  deepStrictEqual(
    headingAnchors(files["docs/operate/b.md"]),
    new Set(["two-words", "two-words-1"]),
  );
  deepStrictEqual(missingPaths("src/x.ts", read), ["src/x.ts:1: docs/render_pool.md"]);
});
