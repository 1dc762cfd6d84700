import assert from "node:assert/strict";
import { join } from "node:path";
import { LogoStore } from "../../src/store/logo_store.ts";
import { runAdminCli, runAdminJson } from "../support/admin_cli.ts";
import { flatImage, noiseImage } from "../support/images.ts";
import { startTestServer } from "../support/server.ts";

interface CreatedKey {
  id: string;
  publishableKey: string;
  secretKey: string;
}

Deno.test("keys and logos made with the admin CLI are served by the app on the same KV", async () => {
  const dir = await Deno.makeTempDir({ prefix: "logo-cli-server-" });
  try {
    const kvPath = join(dir, "store.kv");
    const logosDir = join(dir, "logos");
    await Deno.mkdir(logosDir);
    await Deno.writeFile(join(logosDir, "example.com.png"), noiseImage(300, 150, 21));
    await Deno.writeFile(
      join(logosDir, "example.org.jpg"),
      flatImage(64, 64, [0, 0, 200, 255], "jpeg"),
    );
    const imported = await runAdminCli(kvPath, ["--init", "logo", "import", logosDir]);
    assert.equal(imported.code, 0, imported.stderr);

    const open = await runAdminJson<CreatedKey>(kvPath, ["key", "create"]);
    const revoked = await runAdminJson<CreatedKey>(kvPath, ["key", "create"]);
    await runAdminJson(kvPath, ["key", "revoke", revoked.id]);
    const restricted = await runAdminJson<CreatedKey>(kvPath, [
      "key",
      "create",
      "--allow",
      "https://app.example.com",
    ]);
    const attributed = await runAdminJson<CreatedKey>(kvPath, ["key", "create", "--attribution"]);
    const credited = await runAdminJson<CreatedKey>(kvPath, ["key", "create", "--attribution"]);
    await runAdminJson(kvPath, ["key", "attribution", credited.id, "https://example.net/credits"]);

    await using server = await startTestServer({ kvPath });
    const url = (domain: string, token: string) => `${server.url}/${domain}?token=${token}`;

    const ok = await fetch(url("example.com", open.publishableKey));
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get("content-type"), "image/png");
    const record = (await new LogoStore(server.kv).get("example.com"))!;
    const expected = await new LogoStore(server.kv).readRendition(record.renditions.default);
    assert.deepEqual(new Uint8Array(await ok.arrayBuffer()), expected, "the precomputed answer");

    const parent = await fetch(url("www.example.org", open.publishableKey));
    assert.equal(parent.status, 200);
    assert.equal(parent.headers.get("x-logo-domain"), "example.org");
    await parent.body?.cancel();

    const gone = await fetch(url("example.com", revoked.publishableKey));
    assert.equal(gone.status, 401);
    assert.equal(await gone.text(), "Missing or invalid token");

    const noOrigin = await fetch(url("example.com", restricted.publishableKey));
    assert.equal(noOrigin.status, 403);
    assert.equal(await noOrigin.text(), "Domain not allowed");
    const fromApp = await fetch(url("example.com", restricted.publishableKey), {
      headers: { Origin: "https://app.example.com" },
    });
    assert.equal(fromApp.status, 200);
    assert.equal(fromApp.headers.get("access-control-allow-origin"), "https://app.example.com");
    await fromApp.body?.cancel();

    const uncredited = await fetch(url("example.com", attributed.publishableKey));
    assert.equal(uncredited.status, 403);
    assert.equal(await uncredited.text(), "Attribution required");
    const withCredit = await fetch(url("example.com", credited.publishableKey));
    assert.equal(withCredit.status, 200);
    await withCredit.body?.cancel();

    const sdk = await fetch(`${server.url}/example.com?size=1000`, {
      headers: { Authorization: `Bearer ${open.secretKey}` },
    });
    assert.equal(sdk.status, 200);
    await sdk.body?.cancel();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
