/**
 * The SDK as an npm package: `buildNpmPackage` (what `deno task build:npm` runs) builds it, `npm
 * install <folder>` puts it into a scratch project — offline, with an empty npm cache, since the
 * package has no dependencies — and the consumer script runs under Node, then Bun (from npm, as
 * `npx -y bun@…`), against a real server: `get`, `getMany`, `getStream`, a `NotFoundError` caught
 * with `instanceof`, a retried 429. The package's `.d.ts` types are checked from that project as a
 * TypeScript user would resolve them (`moduleResolution: nodenext`, through `exports`).
 */
import assert from "node:assert/strict";
import ts from "typescript";
import { buildNpmPackage } from "../../tools/build_npm.ts";
import { externalTool } from "../support/external_tool.ts";
import {
  assertConsumerReport,
  consumerScript,
  startConsumerServer,
} from "../support/sdk_consumer.ts";

const INSTALL_NODE = "Node 20 or later, e.g. apt-get install nodejs npm";
const node = externalTool("node", [], INSTALL_NODE);
const npm = externalTool("npm", [], INSTALL_NODE);
const npx = externalTool("npx", [], INSTALL_NODE);
/** The Bun the script runs under, fetched by npx (into the usual npm cache, so once a machine). */
const BUN = "bun@1.4.5";

/** Runs `command` in `cwd`; its stdout, or a failure with everything it printed. */
async function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const output = await new Deno.Command(command, {
    args,
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, `${command} ${args.join(" ")} failed:\n${stderr}\n${stdout}`);
  return stdout;
}

/** The TypeScript errors of `file` compiled as an ES module of a Node project. */
function typeErrors(file: string): string[] {
  const { options } = ts.convertCompilerOptionsFromJson({
    target: "ES2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    lib: ["ES2022", "DOM", "DOM.Iterable", "DOM.AsyncIterable"],
    types: [],
    strict: true,
    noEmit: true,
  }, file);
  const program = ts.createProgram([file], options);
  return ts.getPreEmitDiagnostics(program).map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, "\n")
  );
}

Deno.test({
  name: "the npm package installs offline into a Node project and works there under Node and Bun",
  ignore: node.ignore || npm.ignore || npx.ignore,
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "logo-lookup-npm-" });
    try {
      const build = await buildNpmPackage(`${dir}/package`);
      const manifest = build.manifest;
      assert.equal(manifest.name, "@logo-lookup/sdk");
      assert.equal(manifest.type, "module");
      assert.ok(!("dependencies" in manifest), "the package must have no dependencies");
      const paths = build.files.map((file) => file.path);
      for (const path of ["package.json", "README.md", "LICENSE", "mod.js", "mod.d.ts"]) {
        assert.ok(paths.includes(path), `${path} missing from ${paths.join(", ")}`);
      }

      const project = `${dir}/project`;
      await Deno.mkdir(project);
      await Deno.writeTextFile(
        `${project}/package.json`,
        JSON.stringify({ name: "scratch", private: true, type: "module" }),
      );
      await run(npm.path, ["install", "--offline", "--no-audit", "--no-fund", build.dir], project, {
        npm_config_cache: `${dir}/npm-cache`,
      });

      /** Runs the consumer script with `command` against a server of its own. */
      const consume = async (command: string, args: string[]) => {
        await using server = await startConsumerServer();
        const script = consumerScript("@logo-lookup/sdk", server.config);
        await Deno.writeTextFile(`${project}/consumer.mjs`, script);
        assertConsumerReport(await run(command, [...args, "consumer.mjs"], project), server);
      };

      await t.step("the types resolve for a TypeScript user", async () => {
        const config = { baseUrl: "", secretKey: "", limitedKey: "", clockUrl: "" };
        const script = consumerScript("@logo-lookup/sdk", config);
        await Deno.writeTextFile(`${project}/consumer.mts`, script);
        assert.deepEqual(typeErrors(`${project}/consumer.mts`), []);
      });
      await t.step("Node", async () => {
        const version = await run(node.path, ["--version"], project);
        assert.ok(Number(/^v(\d+)/.exec(version)?.[1]) >= 20, `node ${version}`);
        await consume(node.path, []);
      });
      await t.step("Bun", async () => {
        const version = await run(npx.path, ["-y", BUN, "--version"], project);
        assert.equal(version.trim(), BUN.split("@")[1]);
        await consume(npx.path, ["-y", BUN]);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
