import assert from "node:assert/strict";
import { parseAdminArgs, runAdmin } from "../../src/admin/main.ts";
import { UsageError } from "../../src/admin/usage.ts";
import { parseBulkDiscoverCommand } from "../../src/admin/bulk_discover_command.ts";
import { iconPng } from "../support/images.ts";
import { type FixtureSite, page, type Route, startSite } from "../support/discovery_sites.ts";
import { SITES_OPTIONS, sitesSettings, textStream } from "../support/bulk_discover.ts";
import { faultyKv } from "../support/faulty_kv.ts";

const ICON_ROUTES: Record<string, Route> = {
  "/": { body: page(`<link rel="apple-touch-icon" href="/touch.png">`) },
  "/touch.png": { body: iconPng(180, 180), type: "image/png" },
};

Deno.test("logo discover --from: at most --concurrency domains are discovered at once", async () => {
  const domains = Array.from({ length: 7 }, (_, i) => `d${i}.test`);
  const bound = 3;
  let inFlight = 0;
  let most = 0;
  let arrived = 0;
  let finished = 0; // domains whose JSON line the command has printed
  const early: string[] = [];
  let held: (() => void)[] = [];
  const releaseAll = () => {
    for (const release of held) release();
    held = [];
  };
  // Each home page is held until `bound` are in flight at once (or the last ones have arrived),
  // so a correct run reaches exactly `bound` whatever the machine's speed.
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    releaseAll();
  }, 30_000);
  const home: Route = async (request) => {
    // The k-th domain (from 0) may start only once k - bound + 1 domains have finished.
    if (arrived >= bound + finished) early.push(`${new URL(request.url).host} (${finished} done)`);
    inFlight++;
    arrived++;
    most = Math.max(most, inFlight);
    const wait = new Promise<void>((resolve) => held.push(resolve));
    if (inFlight >= bound || arrived === domains.length) releaseAll();
    await wait;
    inFlight--;
    return new Response(page(`<link rel="apple-touch-icon" href="/touch.png">`), {
      headers: { "content-type": "text/html" },
    });
  };
  const sites: Record<string, FixtureSite> = {};
  for (const domain of domains) sites[domain] = startSite({ ...ICON_ROUTES, "/": home });
  const kv = await Deno.openKv(":memory:");
  let stdout = "";
  try {
    const command = parseBulkDiscoverCommand(["--from", "-", "--concurrency", String(bound)], {
      ...SITES_OPTIONS,
      stdin: textStream(domains.join("\n")),
    });
    const code = await command.run({
      kv,
      settings: sitesSettings(sites),
      stdout: (text) => {
        stdout += text;
        if (text.includes('"domain"')) finished++;
      },
      stderr: () => {},
      stderrIsTerminal: false,
    });
    assert.equal(timedOut, false, `never ${bound} home pages in flight at once (most: ${most})`);
    assert.equal(code, 0);
    assert.deepEqual(early, [], `started before a domain finished`);
    assert.equal(most, bound, "the bound is reached and never exceeded");
    const summary = JSON.parse(stdout.trim().split("\n").at(-1)!).summary;
    assert.deepEqual(summary.outcomes, { stored: domains.length });
  } finally {
    clearTimeout(deadline);
    for (const site of Object.values(sites)) await site.close();
    kv.close();
  }
});

Deno.test("logo discover --from: a bad command line is a usage error (exit status 2)", async () => {
  for (
    const args of [
      ["--from"],
      ["--from", ""],
      ["--from", "list.txt", "a.test"],
      ["--from", "list.txt", "--concurrency", "0"],
      ["--from", "list.txt", "--concurrency", "33"],
      ["--from", "list.txt", "--concurrency", "two"],
      ["--from", "list.txt", "--parallel", "2"],
    ]
  ) {
    assert.throws(() => parseAdminArgs(["logo", "discover", ...args]), UsageError, args.join(" "));
  }
  assert.throws(
    () => parseAdminArgs(["logo", "discover", "--from", "l.txt", "--concurrency", "0"]),
    /--concurrency: expected 1 to 32, got 0/,
  );
  assert.doesNotThrow(() =>
    parseAdminArgs(["logo", "discover", "--from=l.txt", "--concurrency=8", "--force"])
  );
  let stderr = "";
  const env = {
    env: { LOGO_KV: ":memory:" },
    stdout: () => {},
    stderr: (t: string) => stderr += t,
    stderrIsTerminal: false,
  };
  const missing = "/nonexistent/customers.txt";
  assert.equal(await runAdmin(["logo", "discover", "--from", missing], env), 2);
  assert.match(stderr, /logo discover --from: cannot read "\/nonexistent\/customers\.txt"/);
});

Deno.test("logo discover --from: a store failure stops the run and is an error", async () => {
  const sites = { "a.test": startSite(ICON_ROUTES), "b.test": startSite(ICON_ROUTES) };
  const inner = await Deno.openKv(":memory:");
  const faulty = faultyKv(inner);
  faulty.reads = "down";
  let stdout = "";
  try {
    const command = parseBulkDiscoverCommand(
      ["--from", "-", "--concurrency", "1"],
      { ...SITES_OPTIONS, stdin: textStream("a.test\nb.test\n") },
    );
    const context = {
      kv: faulty.kv,
      settings: sitesSettings(sites),
      stdout: (t: string) => stdout += t,
      stderr: () => {},
      stderrIsTerminal: false,
    };
    await assert.rejects(command.run(context));
    const lines = stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines[0].domain, "a.test");
    assert.equal(lines[0].outcome, "error");
    assert.equal(lines.at(-1).summary.completed, false);
    assert.equal(lines.length, 2, "b.test is not started after the failure");
    assert.equal(sites["b.test"].requests.length, 0);
  } finally {
    for (const site of Object.values(sites)) await site.close();
    inner.close();
  }
});
