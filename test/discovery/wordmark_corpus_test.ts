/**
 * Real discovery over the wordmark corpus (`test/fixtures/wordmark_corpus/`: real pages from public
 * test suites, reduced to what discovery reads; sources and licences in its `SOURCES.md`), served
 * on loopback with generated stand-in images of each logo's shape and type. Prints each site's
 * wordmark pick and the score — the site's own wordmark chosen, over the sites that show or
 * declare one — and requires at least 90%, never another organisation's logo, nothing chosen where
 * the site declares no wordmark, and every site's pick as pinned in its `site.json` (`pick`).
 */
import assert from "node:assert/strict";
import { corpusHosts, loadCorpus, type RouteSpec } from "../support/discovery_corpus.ts";
import { world } from "../support/discover_setup.ts";

const TARGET = 0.9;
const CORPUS = new URL("../fixtures/wordmark_corpus/", import.meta.url);

/** One wordmark corpus site, as its `site.json` declares it. */
interface WordmarkSite {
  name: string;
  domain: string;
  about: string;
  /** The site's own wordmarks as `host/path` (`host/path#inline-svg-N`); empty: none declared. */
  own: string[];
  /** Other organisations' logos on the page: choosing one is the worst mistake. */
  forbid?: string[];
  /** The pick this corpus pins (what discovery chooses today), or null for none. */
  pick: string | null;
  routes: Record<string, RouteSpec>;
}

/** `host/path` and the fragment of a URL, the form `own`, `forbid` and `pick` use. */
function key(url: string): string {
  const parsed = new URL(url);
  return parsed.host + parsed.pathname + parsed.hash;
}

Deno.test("wordmark corpus: at least 90% of real sites that show a wordmark get their own, never another organisation's", async () => {
  const sites = await loadCorpus<WordmarkSite>(CORPUS);
  const sources = await Deno.readTextFile(new URL("SOURCES.md", CORPUS));
  const unlisted = sites.filter((site) => !sources.includes(`| \`${site.name}\``));
  assert.deepEqual(unlisted.map((site) => site.name), [], "every page's source is in SOURCES.md");
  const w = await world(await corpusHosts(sites, CORPUS));
  try {
    const rows: string[] = [];
    const picks: Record<string, string | null> = {};
    const pins: Record<string, string | null> = {};
    const otherOrganisation: string[] = [];
    const pickedWhereNone: string[] = [];
    let declaring = 0;
    let right = 0;
    for (const site of sites) {
      const outcome = await w.discovery.discover(site.domain);
      const pick = outcome.wordmark ? key(outcome.wordmark.source) : null;
      picks[site.name] = pick;
      pins[site.name] = site.pick;
      let verdict = "none";
      if (site.own.length > 0) declaring++;
      if (pick !== null && site.own.includes(pick)) {
        right++;
        verdict = "own";
      } else if (pick !== null && site.forbid?.includes(pick)) {
        verdict = "OTHER ORGANISATION";
        otherOrganisation.push(site.name);
      } else if (pick !== null && site.own.length === 0) {
        verdict = "PICKED, NONE DECLARED";
        pickedWhereNone.push(site.name);
      } else if (pick !== null) verdict = "wrong";
      else if (site.own.length === 0) verdict = "none (right)";
      rows.push(`${verdict.padEnd(20)} ${site.name.padEnd(24)} ${pick ?? "-"}`);
    }
    const share = right / declaring;
    console.log(rows.join("\n"));
    console.log(
      `Wordmark corpus: ${right}/${declaring} sites that declare one get their own ` +
        `(${(share * 100).toFixed(1)}%); ${sites.length - declaring} declare none; ` +
        `${otherOrganisation.length} another organisation's logo`,
    );
    assert.deepEqual(otherOrganisation, []);
    assert.deepEqual(pickedWhereNone, []);
    assert.ok(share >= TARGET, `${right}/${declaring} right, below ${TARGET * 100}%`);
    assert.deepEqual(picks, pins);
  } finally {
    await w.close();
  }
});
