/**
 * What the admin CLI says to a reader (issue 32): a failed discovery names what failed in one
 * sentence (no resolver debug text, not twice), `status` comes with its `meaning` and `retryAt` is
 * an ISO-8601 time; a file that cannot be read is one error line, not the usage; the usage lists
 * every format `logo import` takes.
 */
import assert from "node:assert/strict";
import { runAdminCli } from "../support/admin_cli.ts";
import { startDnsServer } from "../support/dns_server.ts";
import { IMAGE_EXTENSIONS } from "../../src/admin/logo_commands.ts";
import { wideSvg } from "../support/wordmarks.ts";

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">` +
  `<rect width="64" height="64" fill="#c33"/></svg>`;

async function tempStore(): Promise<{ dir: string; kv: string }> {
  const dir = await Deno.makeTempDir();
  return { dir, kv: `${dir}/store.kv` };
}

Deno.test("logo discover: a DNS failure is one sentence naming the name, the kind and what to check", async () => {
  const dns = await startDnsServer({}); // NXDOMAIN for every name
  const { dir, kv } = await tempStore();
  try {
    const env = { LOGO_DNS_SERVER: `127.0.0.1:${dns.port}` };
    const result = await runAdminCli(kv, ["--init", "logo", "discover", "acme.test"], env);
    assert.equal(result.code, 1, result.stderr);
    const outcome = JSON.parse(result.stdout);
    assert.equal(outcome.status, "not-found");
    assert.equal(outcome.failure, "unreachable");
    assert.equal(
      outcome.reason,
      "Cannot resolve acme.test: DNS failure: the name has no address (no A or AAAA record)",
    );
    assert.equal(outcome.pageError, undefined, "the home page's error is the reason: shown once");
    assert.match(outcome.check, /^check this machine's network connection and DNS server/);
    assert.match(outcome.meaning, /no usable logo was found/);
    assert.match(outcome.retryAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.doesNotMatch(result.stdout, /proto error|Query \{/);
    const lines = result.stderr.trim().split("\n");
    assert.equal(lines[0], `No logo found for acme.test: ${outcome.reason}; ${outcome.check}`);
  } finally {
    await dns.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("logo discover: an operator's logo is a status with its meaning, nothing fetched", async () => {
  const { dir, kv } = await tempStore();
  try {
    await Deno.writeTextFile(`${dir}/acme.svg`, SVG);
    await Deno.writeFile(`${dir}/wordmark.svg`, wideSvg(200, 50));
    const added = await runAdminCli(kv, ["--init", "logo", "add", "acme.test", `${dir}/acme.svg`]);
    assert.equal(added.code, 0, added.stderr);
    const wide = ["logo", "add", "acme.test", `${dir}/wordmark.svg`, "--type", "logo"];
    assert.equal((await runAdminCli(kv, wide)).code, 0);
    const result = await runAdminCli(kv, ["logo", "discover", "acme.test"]);
    assert.equal(result.code, 0, result.stderr);
    const outcome = JSON.parse(result.stdout);
    assert.equal(outcome.status, "operator");
    assert.match(outcome.meaning, /added by an operator .* discovery leaves it/);
    assert.deepEqual(outcome.tried, [], "an operator's icon and wordmark: nothing fetched");
    assert.equal(outcome.wordmark.status, "operator");
    assert.match(outcome.wordmark.meaning, /wordmark added by an operator/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("admin CLI: a file that cannot be read is one error line, exit 2, no usage", async () => {
  const { dir, kv } = await tempStore();
  try {
    assert.equal((await runAdminCli(kv, ["--init", "key", "list"])).code, 0);
    for (
      const args of [
        ["logo", "add", "acme.test", `${dir}/missing.svg`],
        ["logo", "import", `${dir}/missing`],
        ["logo", "discover", "--from", `${dir}/missing.txt`],
      ]
    ) {
      const result = await runAdminCli(kv, args);
      assert.equal(result.code, 2, args.join(" "));
      assert.match(result.stderr, /^error: logo (add|import|discover --from): cannot read /);
      assert.doesNotMatch(result.stderr, /Usage:/, args.join(" "));
      assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    }
    const usage = await runAdminCli(kv, ["logo", "add", "acme.test"]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /Usage:/, "a bad command line still shows the usage");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("admin CLI: the usage lists every extension logo import takes, svg included", async () => {
  const result = await runAdminCli("/nonexistent/store.kv", ["help"]);
  assert.equal(result.code, 0);
  assert.ok(IMAGE_EXTENSIONS.has("svg"));
  assert.match(result.stdout, new RegExp(`^ +${[...IMAGE_EXTENSIONS].join(", ")}$`, "m"));
});
