/**
 * `deno task start` end to end: a real process on a fresh KV file seeds a demo key, prints a URL
 * that serves a logo, and stops cleanly on SIGTERM.
 */
import assert from "node:assert/strict";
import { exchange } from "../support/http.ts";
import { lines, readUntil } from "../support/lines.ts";

const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/** Reads the child's stdout until a line satisfies `match`; returns every line read. */
Deno.test("deno task start seeds an empty store, prints a working URL and stops on SIGTERM", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", CONFIG, MAIN],
      env: { PORT: "0", LOGO_KV: `${dir}/data/logo-lookup.kv`, LOGO_DISCOVERY: "off" },
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const output = lines(child.stdout);
    const printed = await readUntil(output, (line) => line.includes("token=pk_"));
    const url = printed.map((line) => line.trim()).find((line) => line.includes("token=pk_"));
    assert.ok(url, `no URL printed:\n${printed.join("\n")}`);
    assert.match(url, /^http:\/\/localhost:\d+\/[a-z0-9.-]+\?token=pk_[0-9A-Za-z]{24}$/);

    const result = await exchange(url);
    assert.equal(result.status, 200);
    assert.equal(result.headers.get("content-type"), "image/png");
    assert.ok((await Deno.stat(`${dir}/data/logo-lookup.kv`)).isFile);

    child.kill("SIGTERM");
    const rest = await readUntil(output, () => false);
    const status = await child.status;
    assert.equal(status.code, 0, rest.join("\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
