import assert from "node:assert/strict";
import { join } from "node:path";
import { ADMIN_MAIN, REPO_ROOT, runAdminCli } from "../support/admin_cli.ts";
import { iconPng } from "../support/images.ts";
import { connectToValue, page, startSite } from "../support/discovery_sites.ts";

Deno.test("logo discover --from -: SIGINT abandons the domains in flight, remembers nothing, and a rerun does them", async () => {
  let hang = true;
  let arrived = 0;
  let bothArrived!: () => void;
  const arrival = new Promise<void>((resolve) => bothArrived = resolve);
  const routes = (held: () => Promise<void>) => ({
    "/": async () => {
      if (hang) {
        if (++arrived === 2) bothArrived();
        await held();
      }
      return new Response(page(`<link rel="apple-touch-icon" href="/touch.png">`), {
        headers: { "content-type": "text/html" },
      });
    },
    "/touch.png": { body: iconPng(180, 180), type: "image/png" },
  });
  const a = startSite(routes(() => a.held));
  const b = startSite(routes(() => b.held));
  const dir = await Deno.makeTempDir({ prefix: "bulk-interrupt-" });
  const kvPath = join(dir, "s.kv");
  const env = { LOGO_CONNECT_TO: connectToValue({ "a.test": a, "b.test": b }) };
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", ADMIN_MAIN, "--init", "logo", "discover", "--from", "-"],
      cwd: REPO_ROOT,
      env: { ...env, LOGO_KV: kvPath, NO_COLOR: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    // stdin stays open: the command must not wait for more lines once interrupted.
    await writer.write(new TextEncoder().encode("a.test\nb.test\n"));
    await arrival;
    child.kill("SIGINT");
    const output = await child.output();
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 130, stderr);
    const lines = stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.filter((l) => l.domain).map((l) => [l.domain, l.outcome]).sort(),
      [["a.test", "interrupted"], ["b.test", "interrupted"]],
    );
    assert.equal(lines.at(-1).summary.interrupted, true);
    assert.match(stderr, /Interrupted: rerun the same command to resume/);

    // Nothing was remembered of the abandoned domains: the rerun discovers both.
    hang = false;
    const list = join(dir, "list.txt");
    await Deno.writeTextFile(list, "a.test\nb.test\n");
    const rerun = await runAdminCli(kvPath, ["logo", "discover", "--from", list], env);
    assert.equal(rerun.code, 0, rerun.stderr);
    const outcomes = rerun.stdout.trim().split("\n").map((l) => JSON.parse(l))
      .filter((l) => l.domain).map((l) => l.outcome);
    assert.deepEqual(outcomes, ["stored", "stored"]);
  } finally {
    await a.close();
    await b.close();
    await Deno.remove(dir, { recursive: true });
  }
});
