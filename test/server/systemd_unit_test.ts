/**
 * The systemd unit of `docs/operate/deploy.md` (`docs/operate/deploy/logo-lookup@.service`, included in the doc
 * verbatim) passes `systemd-analyze verify` with no warning: every key is known, every value
 * parses. systemd does not run in this sandbox, so the unit itself is not started here; its
 * command and settings are those the other tests run (`deno task start`, `LOGO_HOSTNAME`, `PORT`,
 * `LOGO_KV`).
 */
import assert from "node:assert/strict";
import { externalTool } from "../support/external_tool.ts";

const analyze = externalTool(
  "systemd-analyze",
  ["/usr/bin/systemd-analyze"],
  "apt-get install systemd",
);
const UNIT = new URL("../../docs/operate/deploy/logo-lookup@.service", import.meta.url);
const DOC = new URL("../../docs/operate/deploy.md", import.meta.url);

Deno.test("deploy.md includes docs/operate/deploy/logo-lookup@.service verbatim", async () => {
  const [doc, unit] = await Promise.all([Deno.readTextFile(DOC), Deno.readTextFile(UNIT)]);
  assert.ok(doc.includes("```ini\n" + unit + "```"), "the doc's unit block is the file");
});

Deno.test({
  name: "systemd unit: systemd-analyze verify passes with no warning",
  ignore: analyze.ignore,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "unit_" });
    try {
      // The one machine-specific path: where deno is installed (verify checks it is executable).
      const unit = (await Deno.readTextFile(UNIT)).split("/usr/local/bin/deno");
      assert.equal(unit.length, 2, "the unit names /usr/local/bin/deno once");
      await Deno.writeTextFile(`${dir}/logo-lookup@.service`, unit.join(Deno.execPath()));
      const output = await new Deno.Command(analyze.path, {
        args: ["verify", `${dir}/logo-lookup@1.service`],
        env: { SYSTEMD_LOG_COLOR: "0" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const said = new TextDecoder().decode(output.stderr) +
        new TextDecoder().decode(output.stdout);
      assert.equal(output.code, 0, said);
      assert.equal(said.trim(), "", "no warning");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
