/**
 * A store that has ever held data is never seeded with demo data again (issue #10 item 4): the
 * marker `["meta", "initialized"]` outlives the keys and logos, and `deno task start` on such a
 * store says it is empty instead of creating a demo key.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { EMPTIED_STORE_MESSAGE, seedIfEmpty } from "../../src/store/seed.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { INITIALIZED_KEY } from "../../src/store/keyspace.ts";
import type { InitializedMarker } from "../../src/store/store_meta.ts";
import { runAdminCli } from "../support/admin_cli.ts";
import { exchange } from "../support/http.ts";
import { lines, readUntil } from "../support/lines.ts";
import { flatImage } from "../support/images.ts";

const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/** Deletes every entry but the store's own `["meta", …]` records: keys, logos, blobs, limits. */
async function deleteAllData(kv: Deno.Kv): Promise<void> {
  for await (const entry of kv.list({ prefix: [] })) {
    if (entry.key[0] !== "meta") await kv.delete(entry.key);
  }
}

async function isEmpty(kv: Deno.Kv): Promise<boolean> {
  return (await new KeyStore(kv).isEmpty()) && (await new LogoStore(kv).isEmpty());
}

Deno.test("a seeded store that was emptied is not seeded again", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const first = await seedIfEmpty(kv);
    assert.equal(first?.created, true);
    assert.equal((await kv.get<InitializedMarker>(INITIALIZED_KEY)).value?.by, "seed");
    await deleteAllData(kv);
    assert.ok(await isEmpty(kv));

    const printed: string[] = [];
    assert.equal(await seedIfEmpty(kv, { log: (line) => printed.push(line) }), null);
    assert.deepEqual(printed, [EMPTIED_STORE_MESSAGE]);
    assert.ok(await isEmpty(kv), "no demo key or logo created");
  } finally {
    kv.close();
  }
});

Deno.test("a store with data from before the marker is marked, then never seeded", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await new KeyStore(kv).create({}); // written straight to KV, as an older version did
    assert.equal((await kv.get(INITIALIZED_KEY)).value, null);
    assert.equal(await seedIfEmpty(kv), null);
    assert.equal((await kv.get<InitializedMarker>(INITIALIZED_KEY)).value?.by, "server");
    await deleteAllData(kv);
    const printed: string[] = [];
    assert.equal(await seedIfEmpty(kv, { log: (line) => printed.push(line) }), null);
    assert.deepEqual(printed, [EMPTIED_STORE_MESSAGE]);
    assert.ok(await isEmpty(kv));
  } finally {
    kv.close();
  }
});

Deno.test("deno task start on a store emptied with the admin CLI makes no demo key", async () => {
  const dir = await Deno.makeTempDir({ prefix: "logo-seed-marker-" });
  try {
    const path = join(dir, "store.kv");
    const file = join(dir, "acme.png");
    await Deno.writeFile(file, flatImage(64, 32, [10, 20, 30, 255]));
    const added = await runAdminCli(path, ["--init", "logo", "add", "acme.example", file]);
    assert.equal(added.code, 0, added.stderr);
    const removed = await runAdminCli(path, ["logo", "rm", "acme.example"]);
    assert.equal(removed.code, 0, removed.stderr);

    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", CONFIG, MAIN],
      env: { PORT: "0", LOGO_KV: path, LOGO_DISCOVERY: "off", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const output = lines(child.stdout);
    const printed = await readUntil(output, (line) => line.includes("listening on"));
    const port = /listening on http:\/\/[^\s]+:(\d+)/.exec(printed.at(-1) ?? "")?.[1];
    assert.ok(port !== undefined, printed.join("\n"));
    // Answered, so main.ts is past installing its SIGTERM handler (set up after onListen).
    const live = await exchange(`http://127.0.0.1:${port}/healthz`);
    assert.equal(live.status, 200);
    child.kill("SIGTERM");
    printed.push(...await readUntil(output, () => false));
    assert.equal((await child.status).code, 0, printed.join("\n"));
    assert.ok(printed.some((line) => line.includes("listening on")), printed.join("\n"));
    assert.ok(printed.includes(EMPTIED_STORE_MESSAGE), printed.join("\n"));
    assert.ok(!printed.some((line) => line.includes("token=")), printed.join("\n"));

    const kv = await Deno.openKv(path);
    try {
      assert.ok(await isEmpty(kv), "no demo key or logo in the store");
    } finally {
      kv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
