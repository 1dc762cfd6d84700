/**
 * `logo discover` stores the wordmark it finds, as the server does, and says so: the JSON's
 * `wordmark` (`status`, `meaning`, `source`, and what was `found`), one `wordmark` per bulk line;
 * an operator's wordmark (`logo add --type logo`) is kept. Run as an operator runs it (a
 * subprocess on a KV file) against a fixture site on loopback.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { LogoStore } from "../../src/store/logo_store.ts";
import { runAdminCli, runAdminJson } from "../support/admin_cli.ts";
import { runBulk } from "../support/bulk_discover.ts";
import { connectToValue, page, startSite } from "../support/discovery_sites.ts";
import { iconPng } from "../support/images.ts";
import { wideSvg } from "../support/wordmarks.ts";

const ROUTES = {
  "/": {
    body: page(
      `<link rel="icon" href="/i.png">`,
      `<header><a href="/"><img src="/w.svg"></a></header>`,
    ),
  },
  "/i.png": { body: iconPng(64, 64), type: "image/png" },
  "/w.svg": { body: wideSvg(400, 80), type: "image/svg+xml" },
};
const SOURCE = "http://acme.test/w.svg";

async function withStore(fn: (dir: string, kvPath: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "logo-discover-wordmark-" });
  try {
    await fn(dir, join(dir, "store.kv"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function storedWordmark(kvPath: string) {
  const kv = await Deno.openKv(kvPath);
  try {
    return await new LogoStore(kv).get("acme.test", "logo");
  } finally {
    kv.close();
  }
}

Deno.test("logo discover stores the wordmark found and shows what became of it", async () => {
  const site = startSite(ROUTES);
  const env = { LOGO_CONNECT_TO: connectToValue({ "acme.test": site }) };
  try {
    await withStore(async (_dir, kvPath) => {
      const outcome = await runAdminJson<Record<string, Record<string, unknown>>>(
        kvPath,
        ["--init", "logo", "discover", "acme.test"],
        env,
      );
      assert.equal(outcome.status as unknown, "stored");
      const { status, meaning, source, found } = outcome.wordmark;
      assert.deepEqual([status, source], ["stored", SOURCE]);
      assert.match(meaning as string, /found on the site and stored/);
      const { format, width, height, bytes } = found as Record<string, unknown>;
      assert.deepEqual([format, width, height], ["svg", 400, 80]);
      assert.equal(bytes, wideSvg(400, 80).length, "its length, not its bytes");
      assert.equal((await storedWordmark(kvPath))?.source, SOURCE);

      const again = await runAdminJson<Record<string, Record<string, unknown>>>(
        kvPath,
        ["logo", "discover", "acme.test"],
        env,
      );
      assert.equal(again.status as unknown, "fresh");
      assert.deepEqual([again.wordmark.status, again.wordmark.source], ["fresh", SOURCE]);
    });
  } finally {
    await site.close();
  }
});

Deno.test("logo discover keeps an operator's wordmark (logo add --type logo)", async () => {
  const site = startSite(ROUTES);
  const env = { LOGO_CONNECT_TO: connectToValue({ "acme.test": site }) };
  try {
    await withStore(async (dir, kvPath) => {
      await Deno.writeFile(join(dir, "ours.svg"), wideSvg(300, 100, "#aa0000"));
      const add = ["--init", "logo", "add", "acme.test", join(dir, "ours.svg"), "--type", "logo"];
      await runAdminJson(kvPath, add);
      const before = await storedWordmark(kvPath);
      const result = await runAdminCli(kvPath, ["logo", "discover", "acme.test"], env);
      assert.equal(result.code, 0, result.stderr);
      const outcome = JSON.parse(result.stdout);
      assert.equal(outcome.status, "stored", "the icon was missing");
      assert.equal(outcome.wordmark.status, "operator");
      assert.equal(outcome.wordmark.found.source, SOURCE, "found, not stored");
      assert.equal((await storedWordmark(kvPath))?.hash, before?.hash);
    });
  } finally {
    await site.close();
  }
});

Deno.test("logo discover --from: each line says what became of the wordmark", async () => {
  const acme = startSite(ROUTES);
  const bare = startSite({
    "/": { body: page(`<link rel="icon" href="/i.png">`) },
    "/i.png": ROUTES["/i.png"],
  });
  const kv = await Deno.openKv(":memory:");
  try {
    const stdin = ReadableStream.from([new TextEncoder().encode("acme.test\nbare.test\n")]);
    const result = await runBulk(kv, { "acme.test": acme, "bare.test": bare }, ["--from", "-"], {
      env: { stdin },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.byDomain.get("acme.test")?.wordmark, {
      status: "stored",
      source: SOURCE,
    });
    assert.deepEqual(result.byDomain.get("bare.test")?.wordmark, { status: "none" });
    assert.equal((await new LogoStore(kv).get("acme.test", "logo"))?.source, SOURCE);
  } finally {
    kv.close();
    await acme.close();
    await bare.close();
  }
});
