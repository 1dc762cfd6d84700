/**
 * Re-runs the findings a fuzz run saved (each `<kind>-s<seed>-i<iteration>.json` with its input
 * beside it) against the current imagecore, three times each, and prints the outcome and the
 * fastest time: to tell a decoder fix from a timing blip, or to check a rebuild.
 * @module
 */
import * as imagecore from "../../imagecore/mod.ts";
import { checkCall } from "./check_call.ts";
import type { Finding } from "./run_fuzz.ts";

/** Replays every finding saved in `dir`; returns how many still fail a check. */
export async function replayFindings(dir: string, slowMs: number): Promise<number> {
  let failing = 0;
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".json"))
    .sort();
  for (const name of names) {
    const meta = JSON.parse(await Deno.readTextFile(`${dir}/${name}`)) as Omit<Finding, "bytes">;
    const bytes = await Deno.readFile(`${dir}/${name.replace(/\.json$/, `.${meta.format}`)}`);
    let best = Infinity;
    let outcome = "";
    let finding: string | undefined;
    // A hang is run once, in this process: expect to wait for it.
    for (let i = 0; i < (meta.kind === "hang" ? 1 : 3); i++) {
      const { result: _, ...verdict } = checkCall(imagecore, meta.call, bytes, slowMs);
      best = Math.min(best, verdict.ms);
      outcome = verdict.outcome;
      finding = verdict.finding && verdict.finding.kind !== "slow"
        ? `${verdict.finding.kind}: ${verdict.finding.detail}`
        : undefined;
    }
    if (best > slowMs) finding ??= `slow: fastest of the runs took ${best.toFixed(0)} ms`;
    if (finding) failing++;
    const options = "options" in meta.call ? ` ${JSON.stringify(meta.call.options)}` : "";
    console.log(
      `${name.padEnd(32)} ${meta.call.fn}${options}: ${outcome}, fastest ${best.toFixed(0)} ms${
        finding ? ` — still ${finding}` : " — passes"
      }`,
    );
  }
  return failing;
}
