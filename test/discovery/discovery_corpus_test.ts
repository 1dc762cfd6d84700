/**
 * Real discovery over the corpus of realistic sites (`test/fixtures/discovery_corpus/`, served on
 * loopback): prints each site's pick and the score, and requires at least 95% right (the best or
 * an equally good candidate) and never another organisation's logo.
 */
import assert from "node:assert/strict";
import { corpusHosts, hostPath, loadCorpus } from "../support/discovery_corpus.ts";
import { world } from "../support/discover_setup.ts";

const TARGET = 0.95;

Deno.test("discovery corpus: at least 95% of realistic sites get their brand's logo, never another organisation's", async () => {
  const sites = await loadCorpus();
  const w = await world(await corpusHosts(sites));
  try {
    const rows: string[] = [];
    let right = 0;
    const otherOrganisation: string[] = [];
    for (const site of sites) {
      const outcome = await w.discovery.discover(site.domain);
      const pick = outcome.source === undefined ? undefined : hostPath(outcome.source);
      let verdict = "none";
      if (pick !== undefined && site.expect.includes(pick)) {
        right++;
        verdict = pick === site.expect[0] ? "right" : "equal";
      } else if (pick !== undefined && site.forbid?.includes(pick)) {
        verdict = "OTHER ORGANISATION";
        otherOrganisation.push(site.name);
      } else if (pick !== undefined) verdict = "wrong";
      rows.push(`${verdict.padEnd(18)} ${site.name.padEnd(32)} ${pick ?? "-"}`);
    }
    const share = right / sites.length;
    console.log(rows.join("\n"));
    console.log(
      `Discovery corpus: ${right}/${sites.length} right (${(share * 100).toFixed(1)}%), ` +
        `${otherOrganisation.length} another organisation's logo`,
    );
    assert.deepEqual(otherOrganisation, []);
    assert.ok(share >= TARGET, `${right}/${sites.length} right, below ${TARGET * 100}%`);
  } finally {
    await w.close();
  }
});
