import assert from "node:assert/strict";
import { join } from "node:path";
import { LogoStore } from "../../src/store/logo_store.ts";
import { iconPng } from "../support/images.ts";
import { type FixtureSite, page, startSite } from "../support/discovery_sites.ts";
import { runBulk, textStream } from "../support/bulk_discover.ts";

/** A site whose apple-touch-icon is a 180-px PNG. */
function iconSite(): FixtureSite {
  return startSite({
    "/": { body: page(`<link rel="apple-touch-icon" href="/touch.png">`) },
    "/touch.png": { body: iconPng(180, 180), type: "image/png" },
  });
}

function requestCounts(sites: Record<string, FixtureSite>): Record<string, number> {
  return Object.fromEntries(Object.entries(sites).map(([host, s]) => [host, s.requests.length]));
}

const LIST = `# customers, pre-warmed
a.test
B.TEST.

c.test
http://bad.test/path
  # indented comment
a.test
empty.test
down.test
`;

Deno.test("logo discover --from FILE: one JSON line per domain, a rerun skips what is done, --force looks again", async () => {
  const sites = {
    "a.test": iconSite(),
    "b.test": iconSite(),
    "c.test": iconSite(),
    // Answers, declares nothing, and has no conventional icons: no usable icon.
    "empty.test": startSite({ "/": { body: page("") } }),
  };
  const kv = await Deno.openKv(":memory:");
  const dir = await Deno.makeTempDir({ prefix: "bulk-discover-" });
  try {
    const file = join(dir, "customers.txt");
    await Deno.writeTextFile(file, LIST);
    const first = await runBulk(kv, sites, ["--from", file]);
    assert.equal(first.code, 0);
    assert.equal(first.stderr, "", "no progress bar when stderr is not a terminal");
    // 5 distinct domains + 1 invalid line + the summary; the duplicate a.test is done once.
    assert.equal(first.lines.length, 7, JSON.stringify(first.lines));
    for (const domain of ["a.test", "b.test", "c.test"]) {
      const line = first.byDomain.get(domain)!;
      assert.equal(line.outcome, "stored", domain);
      assert.equal(line.source, `http://${domain}/touch.png`);
      assert.match(String(line.why), /^tier 3 of 0-8, square raster/);
      assert.equal(typeof line.ms, "number");
      assert.equal((await new LogoStore(kv).get(domain))?.width, 180);
    }
    assert.equal(first.byDomain.get("b.test")!.line, 3, "line numbers count every line");
    const empty = first.byDomain.get("empty.test")!;
    assert.deepEqual([empty.outcome, empty.failure], ["not-found", "no-icon"]);
    assert.match(String(empty.reason), /answered/);
    const down = first.byDomain.get("down.test")!;
    assert.deepEqual([down.outcome, down.failure], ["not-found", "unreachable"]);
    assert.match(String(down.retryAt), /^\d{4}-\d\d-\d\dT/);
    const invalid = first.lines.find((l) => l.outcome === "invalid")!;
    assert.deepEqual(invalid, {
      line: 6,
      input: "http://bad.test/path",
      outcome: "invalid",
      error: 'Invalid domain "http://bad.test/path" (expected e.g. example.com)',
    });
    assert.deepEqual(first.summary.outcomes, { stored: 3, "not-found": 2 });
    assert.equal(first.summary.domains, 5);
    assert.equal(first.summary.invalid, 1);
    assert.equal(first.summary.duplicates, 1);
    assert.equal(first.summary.completed, true);

    // Resume: everything is done (stored, or its failure remembered): nothing is fetched.
    const before = requestCounts(sites);
    const second = await runBulk(kv, sites, ["--from", file]);
    assert.equal(second.code, 0);
    assert.deepEqual(requestCounts(sites), before, "a rerun fetches nothing from done domains");
    assert.deepEqual(
      [..."abc"].map((x) => second.byDomain.get(`${x}.test`)!.outcome),
      ["fresh", "fresh", "fresh"],
    );
    assert.equal(second.byDomain.get("empty.test")!.outcome, "known-missing");
    assert.equal(second.byDomain.get("down.test")!.outcome, "known-missing");
    assert.equal(second.byDomain.get("down.test")!.failure, "unreachable");

    // --force: every site is read again.
    const forced = await runBulk(kv, sites, ["--from", file, "--force"]);
    assert.equal(forced.code, 0);
    const after = requestCounts(sites);
    for (const host of Object.keys(sites)) assert.ok(after[host] > before[host], host);
    assert.equal(forced.byDomain.get("a.test")!.outcome, "unchanged");
    assert.equal(forced.byDomain.get("empty.test")!.outcome, "not-found");
  } finally {
    for (const site of Object.values(sites)) await site.close();
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("logo discover --from -: reads stdin (CRLF too), draws a progress bar on a terminal", async () => {
  const sites = { "a.test": iconSite(), "b.test": iconSite() };
  const kv = await Deno.openKv(":memory:");
  try {
    const stdin = textStream("a.test\r\n# comment\r\nb.test\r\nnot a domain\r\n");
    const result = await runBulk(kv, sites, ["--from", "-"], { terminal: true, env: { stdin } });
    assert.equal(result.code, 0);
    assert.equal(result.byDomain.get("a.test")!.outcome, "stored");
    assert.equal(result.byDomain.get("b.test")!.outcome, "stored");
    assert.equal(result.lines.find((l) => l.outcome === "invalid")!.input, "not a domain");
    // stdin's length is unknown: a running count, redrawn in place, ended by a newline.
    const redraw = "\r\x1b[2K";
    assert.ok(result.stderr.startsWith(`${redraw}1 done, `), JSON.stringify(result.stderr));
    assert.match(result.stderr.split(redraw).at(-1)!, /^3 done, \S+ \S+\n$/);
  } finally {
    for (const site of Object.values(sites)) await site.close();
    kv.close();
  }
});

Deno.test("logo discover --from FILE on a terminal: a bar over the file's domain lines", async () => {
  const sites = { "a.test": iconSite() };
  const kv = await Deno.openKv(":memory:");
  const dir = await Deno.makeTempDir({ prefix: "bulk-discover-" });
  try {
    const file = join(dir, "list.txt");
    await Deno.writeTextFile(file, "# two domain lines\na.test\n\na.test\n");
    const result = await runBulk(kv, sites, ["--from", file], { terminal: true });
    assert.equal(result.code, 0);
    assert.match(result.stderr, / 2\/2 /, "the total counts the file's domain lines");
    assert.match(result.stderr, /duplicate a\.test/);
    assert.ok(result.stderr.endsWith("\n"));
  } finally {
    for (const site of Object.values(sites)) await site.close();
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
