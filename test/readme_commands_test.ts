/**
 * The README as a newcomer types it (issue 32): every command of its `sh` blocks runs as written
 * on a machine with Node and no `deno` on the PATH — each through `bash -c` with a PATH holding
 * only node, npm, npx, bash, sh, env and curl, in a copy of the clone (`git ls-files`), against a
 * temporary store. `npx -y deno@2.9.6` comes from npm's cache (HOME is the user's, so a machine
 * that ran it once downloads nothing; a fresh CI machine downloads it on the first command).
 *
 * `task start` runs in the background until its demo URL is printed, then the other lines run in
 * order against it and it is stopped with SIGTERM. What the reader would paste is substituted:
 * `localhost:8000` by the port it listens on (`PORT=0`), `pk_…` by the demo key it printed,
 * `sk_…` and `key_…` by what `key create` printed (a line waits until the line giving its value
 * has run), the ETag by the one served. Discovery asks a local DNS server that knows no name
 * (`LOGO_DNS_SERVER`), as on a machine without network. A README line the test does not run is
 * in {@link SKIPPED} with its reason; any other line that fails fails the test.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { readmeCommands } from "./support/readme_commands.ts";
import { startDnsServer } from "./support/dns_server.ts";
import { lines } from "./support/lines.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const TOOLS = ["node", "npm", "npx", "bash", "sh", "env", "curl"];

/** README lines not run, and why. */
const SKIPPED: { pattern: RegExp; why: string }[] = [
  {
    pattern: /task test\b/,
    why: "the test suite, which this test is part of: not run recursively",
  },
  {
    pattern: /^denokv |kv\.internal/,
    why: "needs denokv and a KV Connect server on kv.internal (the server and the CLI against " +
      "denokv: test/support/denokv.ts and its tests)",
  },
];

/** README lines whose documented outcome is not exit status 0. */
const EXPECTED: { pattern: RegExp; code: number; stderr: RegExp; why: string }[] = [
  {
    pattern: /logo discover github\.com/,
    code: 1,
    stderr:
      /^No logo found for github\.com: Cannot resolve github\.com: DNS failure: [^\n]+; check [^\n]+$/m,
    why: "no network (the DNS server knows no name): one sentence saying what failed",
  },
];

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** A copy of the clone's tracked files (as they are in the working tree) in a new directory. */
async function copyClone(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "logo-readme-" });
  const listed = await new Deno.Command("git", { args: ["ls-files", "-z"], cwd: ROOT }).output();
  assert.equal(listed.code, 0, "git ls-files");
  for (const path of new TextDecoder().decode(listed.stdout).split("\0").filter(Boolean)) {
    const from = join(ROOT, path);
    if (!(await Deno.stat(from).then((s) => s.isFile, () => false))) continue; // deleted, uncommitted
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.copyFile(from, join(dir, path));
  }
  return dir;
}

/** A directory of links to {@link TOOLS}, the whole PATH of the commands: Node, no `deno`. */
async function nodeOnlyPath(into: string): Promise<string> {
  const bin = join(into, ".node-only-bin");
  await Deno.mkdir(bin);
  for (const tool of TOOLS) {
    const found = await new Deno.Command("bash", { args: ["-c", `command -v ${tool}`] }).output();
    const path = new TextDecoder().decode(found.stdout).trim();
    assert.ok(found.code === 0 && path.startsWith("/"), `${tool} is needed to run the README`);
    await Deno.symlink(path, join(bin, tool));
  }
  return bin;
}

/** The environment of the README's commands. */
function commandEnv(bin: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { PATH: bin, NO_COLOR: "1", ...extra };
  // The user's caches: npx's copy of Deno and Deno's npm packages, downloaded once.
  for (const name of ["HOME", "XDG_CACHE_HOME", "DENO_DIR", "npm_config_cache", "TMPDIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

async function runLine(line: string, cwd: string, bin: string, env: Record<string, string>) {
  const output = await new Deno.Command(join(bin, "bash"), {
    args: ["-c", line],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Starts the README's `task start` line; resolves with its port and demo key once printed. */
async function startServer(line: string, cwd: string, bin: string, env: Record<string, string>) {
  const child = new Deno.Command(join(bin, "bash"), {
    args: ["-c", line],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const printed: string[] = [];
  const { promise: ready, resolve } = Promise.withResolvers<{ port: number; pk: string }>();
  let port = 0;
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const text of lines(stream)) {
      printed.push(text);
      port ||= Number(/listening on http:\/\/[^\s]+:(\d+)/.exec(text)?.[1] ?? 0);
      const pk = /token=(pk_[\w-]+)/.exec(text)?.[1];
      if (port && pk) resolve({ port, pk });
    }
  };
  const collected = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const exited = child.status.then(async (status) => {
    await collected;
    throw new Error(`"${line}" exited ${status.code}:\n${printed.join("\n")}`);
  });
  const { port: listening, pk } = await Promise.race([ready, exited]);
  exited.catch(() => {}); // stopped below
  return {
    port: listening,
    pk,
    printed,
    async stop(): Promise<number> {
      child.kill("SIGTERM");
      const { code } = await child.status;
      await collected;
      return code;
    },
  };
}

/** What a curl line wrote, checked as the README says. */
async function checkCurl(line: string, cwd: string, ran: Ran): Promise<void> {
  const file = /-o (\S+)/.exec(line)?.[1];
  if (file !== undefined) {
    const bytes = await Deno.readFile(join(cwd, file));
    const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
    const image = (bytes[0] === 0x89 && ascii(1, 4) === "PNG") ||
      (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP");
    assert.ok(image, `${line}: ${file} is not a PNG or WebP image: ${ascii(0, 12)}`);
  } else if (/ -I /.test(line)) {
    assert.match(ran.stdout, /^HTTP\/1\.1 200 /, line);
  } else if (/If-None-Match/.test(line)) {
    assert.match(ran.stdout, /^HTTP\/1\.1 304 /, line);
  }
}

/** Runs every README command; resolves with the lines run and those skipped. */
async function runReadme(readme: string): Promise<{ ran: string[]; skipped: string[] }> {
  const commands = readmeCommands(readme);
  const clone = await copyClone();
  const dns = await startDnsServer({}); // knows no name: a machine without network
  const bin = await nodeOnlyPath(clone);
  const env = commandEnv(bin, {
    LOGO_KV: join(clone, "store", "logo-lookup.kv"),
    PORT: "0",
    LOGO_DNS_SERVER: `127.0.0.1:${dns.port}`,
    LOGO_RENDER_DEADLINE_MS: "30000", // a suite shares its cores (test/support/main_process.ts)
  });
  const noDeno = await runLine("command -v deno", clone, bin, env);
  assert.notEqual(noDeno.code, 0, `deno is on the commands' PATH: ${noDeno.stdout}`);
  // The reader's own files, which the README's commands name.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">` +
    `<rect width="64" height="64" fill="#2a6"/></svg>`;
  await Deno.writeTextFile(join(clone, "acme.svg"), svg);
  await Deno.writeTextFile(
    join(clone, "wordmark.svg"),
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50">` +
      `<rect width="200" height="50" fill="#2a6"/></svg>`,
  );
  await Deno.mkdir(join(clone, "logos"));
  await Deno.writeTextFile(join(clone, "logos", "acme.org.svg"), svg);

  const ran: string[] = [];
  const skipped: string[] = [];
  const values = new Map<string, string>();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const startLine = commands.find((line) => /^npx -y deno@2\.9\.6 task start(\s|$)/.test(line));
    assert.ok(startLine, "the README says how to start the server");
    server = await startServer(startLine, clone, bin, env);
    ran.push(startLine);
    values.set("localhost:8000", `localhost:${server.port}`);
    values.set("pk_…", server.pk);
    const served = await fetch(`http://localhost:${server.port}/example.com?token=${server.pk}`);
    await served.body?.cancel();
    values.set("v2-…-128-png", (served.headers.get("etag") ?? "").replaceAll('"', ""));

    const waiting: string[] = [];
    const run = async (line: string) => {
      let typed = line;
      for (const [placeholder, value] of values) typed = typed.replaceAll(placeholder, value);
      // A value a later line gives (a trailing comment may say "…" in prose).
      if (typed.replace(/\s+#\s.*$/, "").includes("…")) return false;
      const result = await runLine(typed, clone, bin, env);
      const expected = EXPECTED.find(({ pattern }) => pattern.test(line));
      const said = `${line}\n${result.stdout}${result.stderr}`;
      assert.equal(result.code, expected?.code ?? 0, said);
      if (expected) assert.match(result.stderr, expected.stderr, said);
      if (line.startsWith("curl ")) await checkCurl(typed, clone, result);
      if (/task admin (--init )?key create/.test(line)) {
        const key = JSON.parse(result.stdout);
        values.set("sk_…", key.secretKey);
        values.set("key_…", key.id);
      }
      ran.push(line);
      return true;
    };
    for (const line of commands) {
      if (line === startLine) continue;
      const skip = SKIPPED.find(({ pattern }) => pattern.test(line));
      if (skip) {
        skipped.push(`${line}  — ${skip.why}`);
        continue;
      }
      if (!(await run(line))) waiting.push(line);
      for (const held of [...waiting]) {
        if (await run(held)) waiting.splice(waiting.indexOf(held), 1);
      }
    }
    assert.deepEqual(waiting, [], "lines whose placeholder no README line gives");
    if (commands.some((line) => line.includes("/acme.example?"))) {
      // What the README says the reader sees for its monogram example.
      assert.ok(
        server.printed.some((text) => /Discovery could not reach acme\.example /.test(text)),
        server.printed.join("\n"),
      );
    }
    assert.equal(await server.stop(), 0, `SIGTERM stops the server:\n${server.printed.join("\n")}`);
    server = undefined;
  } finally {
    await server?.stop();
    await dns.close();
    await Deno.remove(clone, { recursive: true });
  }
  return { ran, skipped };
}

Deno.test("README: every command runs as typed on a machine with Node and no deno", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const { ran, skipped } = await runReadme(readme);
  console.log(`ran ${ran.length}:\n  ${ran.join("\n  ")}\nskipped ${skipped.length}:`);
  console.log(`  ${skipped.join("\n  ")}`);
  const commands = readmeCommands(readme);
  assert.equal(ran.length + skipped.length, commands.length, "every command run or skipped");
  assert.ok(ran.some((line) => /task admin key create/.test(line)));
});

Deno.test("README check: a bare `deno task` line fails it (deno is not on the PATH)", async () => {
  const readme = "```sh\nnpx -y deno@2.9.6 task start\ndeno task admin key list\n```\n";
  await assert.rejects(() => runReadme(readme), /deno task admin key list\n.*command not found/s);
});
