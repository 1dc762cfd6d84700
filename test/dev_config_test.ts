/**
 * The server's dependency graph stays free of benchmark and test-only packages: `deno task start`
 * on an empty Deno cache installs every npm package of `deno.lock` (whatever the server imports), so
 * `sharp` (and libvips, about 38 MB) and the napi-rs WASM peer live only in `deno.dev.json` /
 * `deno.dev.lock`, which the test, bench and fuzz tasks use. The dev config repeats the server's imports; this pins that they agree.
 */
import { deepStrictEqual, ok } from "node:assert";

const root = new URL("../", import.meta.url);
const readJson = async (name: string) =>
  JSON.parse(await Deno.readTextFile(new URL(name, root))) as Record<string, unknown>;

const DEV_ONLY = [
  "sharp",
  "@napi-rs/image-wasm32-wasi",
  "dns-packet",
  "puppeteer-core",
  "typescript",
];

Deno.test("deno.json and deno.lock hold no benchmark or test-only package", async () => {
  const server = await readJson("deno.json");
  const imports = server.imports as Record<string, string>;
  const lock = await Deno.readTextFile(new URL("deno.lock", root));
  for (const name of DEV_ONLY) {
    ok(!(name in imports), `deno.json imports ${name}`);
    ok(!lock.includes(`npm:${name}@`), `deno.lock holds ${name}`);
  }
});

Deno.test("deno.dev.json imports the server's packages at the same versions, plus the dev-only ones", async () => {
  const server = (await readJson("deno.json")).imports as Record<string, string>;
  const dev = (await readJson("deno.dev.json")).imports as Record<string, string>;
  const shared = Object.fromEntries(
    Object.entries(dev).filter(([name]) => !DEV_ONLY.includes(name)),
  );
  deepStrictEqual(shared, server);
  for (const name of DEV_ONLY) ok(name in dev, `deno.dev.json lacks ${name}`);
});

Deno.test("every task that runs tests, benchmarks or checks uses deno.dev.json", async () => {
  const tasks = (await readJson("deno.json")).tasks as Record<string, string>;
  for (const [name, command] of Object.entries(tasks)) {
    if (/^(test|bench|fuzz)/.test(name)) {
      ok(command.includes("--config deno.dev.json"), `task ${name} lacks --config deno.dev.json`);
    }
  }
  ok(!tasks.start.includes("deno.dev.json"), "the server must not use the dev config");
});
