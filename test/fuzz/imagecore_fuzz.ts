/**
 * `deno task fuzz`: a seeded mutation fuzzer over imagecore/mod.ts's `probe` and `transform`, for
 * a bounded time. Prints the iterations, calls per second, the outcome histogram, the slowest
 * calls and every finding (untyped error, `internal` error, invalid result, a call over the slow
 * limit, a hang); saves each finding's input to a directory; exits 1 on any finding.
 *
 * Environment: FUZZ_SECONDS (60), FUZZ_SEED (random, printed), FUZZ_SLOW_MS (1000),
 * FUZZ_HANG_MS (10000), FUZZ_OUT (a new temporary directory), FUZZ_REPLAY=<iteration> (run that
 * one case of FUZZ_SEED in this process, print its calls and save its input), FUZZ_REPLAY_DIR=<dir>
 * (re-run the findings a run saved there, against the current imagecore), FUZZ_FORMATS (a
 * comma-separated list of seed formats to mutate, e.g. `png,jpeg`; default every format).
 *
 * @example
 * ```sh
 * FUZZ_SECONDS=300 FUZZ_SEED=42 deno task fuzz
 * FUZZ_SEED=42 FUZZ_REPLAY=1234 deno task fuzz
 * ```
 * @module
 */
import * as imagecore from "../../imagecore/mod.ts";
import { checkCall } from "./check_call.ts";
import { generate } from "./generate.ts";
import { type Finding, type FuzzReport, runFuzz } from "./run_fuzz.ts";
import { replayFindings } from "./replay_findings.ts";
import { makeSeeds } from "./seeds.ts";

function envNumber(name: string, fallback: number): number {
  const raw = Deno.env.get(name);
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`${name} must be a non-negative number, got "${raw}"`);
    Deno.exit(2);
  }
  return value;
}

const runSeed = envNumber("FUZZ_SEED", crypto.getRandomValues(new Uint32Array(1))[0]) >>> 0;
const seconds = envNumber("FUZZ_SECONDS", 60);
const slowMs = envNumber("FUZZ_SLOW_MS", 1000);
const hangMs = envNumber("FUZZ_HANG_MS", 10_000);
const replay = Deno.env.get("FUZZ_REPLAY");
let outDir = Deno.env.get("FUZZ_OUT");

async function out(): Promise<string> {
  outDir ??= await Deno.makeTempDir({ prefix: "imagecore-fuzz-" });
  await Deno.mkdir(outDir, { recursive: true });
  return outDir;
}

const replayDir = Deno.env.get("FUZZ_REPLAY_DIR");
if (replayDir !== undefined) {
  const failing = await replayFindings(replayDir, slowMs);
  console.log(failing ? `${failing} finding(s) still fail` : "every saved finding passes now");
  Deno.exit(failing ? 1 : 0);
}

const formats = Deno.env.get("FUZZ_FORMATS")?.split(",").map((f) => f.trim()).filter(Boolean);
const seeds = (await makeSeeds()).filter((s) =>
  formats === undefined || formats.includes(s.format)
);
if (seeds.length === 0) {
  console.error(`FUZZ_FORMATS=${formats?.join(",")} names no seed format`);
  Deno.exit(2);
}

if (replay !== undefined) {
  const c = generate(seeds, runSeed, Number(replay));
  console.log(
    `seed ${runSeed}, iteration ${c.iteration}: ${c.seed} (${c.format}), ${c.bytes.length} bytes`,
  );
  console.log(`mutations: ${c.mutations.join("; ")}`);
  for (const e of c.mutatorErrors) {
    console.log(
      `HARNESS ERROR: the ${e.mutator} mutator threw at ${
        e.where || "?"
      } on ${e.input.length} B: ${e.detail}`,
    );
  }
  const file = `${await out()}/replay-s${runSeed}-i${c.iteration}.${c.format}`;
  await Deno.writeFile(file, c.bytes);
  console.log(`input saved to ${file}`);
  for (const call of c.calls) {
    const { result: _, ...verdict } = checkCall(imagecore, call, c.bytes, slowMs);
    console.log(
      `${call.fn} ${JSON.stringify("options" in call ? call.options : {})}: ${verdict.outcome} in ${
        verdict.ms.toFixed(1)
      } ms${
        verdict.finding ? ` — FINDING ${verdict.finding.kind}: ${verdict.finding.detail}` : ""
      }`,
    );
  }
  Deno.exit(0);
}

console.log(
  `imagecore fuzz: seed ${runSeed} (FUZZ_SEED=${runSeed} repeats it), ${seconds} s, ${seeds.length} seeds, ` +
    `a call over ${slowMs} ms or a hang over ${hangMs} ms is a finding`,
);

/** Findings with the same kind, seed format, call and message (digits aside) share a signature. */
function signature(f: Finding): string {
  return `${f.kind}|${f.format}|${f.call?.fn}|${f.detail.replace(/\d+/g, "#")}`;
}
const saved = new Map<string, number>();

async function save(f: Finding): Promise<void> {
  const key = signature(f);
  const n = (saved.get(key) ?? 0) + 1;
  saved.set(key, n);
  if (n > 3) return; // three inputs per signature are enough to reproduce it
  const base = `${await out()}/${f.kind}-s${runSeed}-i${f.iteration}`;
  await Deno.writeFile(`${base}.${f.format}`, f.bytes);
  const { bytes: _, ...meta } = f;
  await Deno.writeTextFile(
    `${base}.json`,
    JSON.stringify(
      {
        runSeed,
        size: f.bytes.length,
        ...meta,
        replay: `FUZZ_SEED=${runSeed} FUZZ_REPLAY=${f.iteration} deno task fuzz`,
      },
      null,
      2,
    ),
  );
}

const report: FuzzReport = await runFuzz({
  seeds,
  runSeed,
  seconds,
  slowMs,
  hangMs,
  onFinding: save,
  onProgress: (iterations, calls) =>
    console.log(
      `  … ${iterations} cases, ${calls} calls, process RSS ${
        (Deno.memoryUsage().rss / 2 ** 20).toFixed(0)
      } MiB`,
    ),
});

const histogram = (counts: Record<string, number>) =>
  Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(", ");
const s = report.elapsedMs / 1000;
console.log(
  `\n${report.iterations} cases, ${report.calls} calls in ${s.toFixed(1)} s: ${
    (report.calls / s).toFixed(1)
  } calls/s`,
);
console.log(`outcomes: ${histogram(report.outcomes)}`);
for (const [format, counts] of Object.entries(report.byFormat).sort()) {
  console.log(`  ${format.padEnd(5)} ${histogram(counts)}`);
}
console.log("slowest calls:");
for (const t of report.slowest) {
  const options = "options" in t.call ? ` ${JSON.stringify(t.call.options)}` : "";
  console.log(
    `  ${
      t.ms.toFixed(1).padStart(8)
    } ms  ${t.call.fn}${options}  ${t.seed} mutated, ${t.size} B (iteration ${t.iteration})`,
  );
}
if (report.brokenSeeds.length) {
  console.error(`\nseed corpus broken, nothing fuzzed:\n  ${report.brokenSeeds.join("\n  ")}`);
  Deno.exit(2);
}
// The fuzzer's own bugs: survived (the run went on), but each hides the mutation it skipped.
const harness = new Map<string, { count: number; first: number }>();
for (const e of report.harnessErrors) {
  const key = `${e.kind}${e.mutator ? ` ${e.mutator}` : ""} at ${e.where || "?"}: ${e.detail}`;
  const seen = harness.get(key) ?? { count: 0, first: e.iteration };
  harness.set(key, { count: seen.count + 1, first: Math.min(seen.first, e.iteration) });
}
if (harness.size === 0) console.log("harness errors: none");
else {
  console.log(
    `harness errors: ${report.harnessErrors.length} (${harness.size} distinct) — the fuzzer's own ` +
      "bugs, each survived and skipped:",
  );
  for (const [key, { count, first }] of harness) {
    console.log(`  ×${count} ${key}`);
    console.log(`      replay: FUZZ_SEED=${runSeed} FUZZ_REPLAY=${first} deno task fuzz`);
  }
}
if (report.findings.length === 0) {
  console.log("\nfindings: none");
  Deno.exit(harness.size ? 1 : 0);
}
console.log(`\nfindings: ${report.findings.length} (${saved.size} distinct), inputs in ${outDir}`);
const shown = new Set<string>();
for (const f of report.findings) {
  const key = signature(f);
  if (shown.has(key)) continue;
  shown.add(key);
  const options = f.call && "options" in f.call ? ` ${JSON.stringify(f.call.options)}` : "";
  console.log(
    `  [${f.kind}] ×${saved.get(key)} ${f.call?.fn}${options} on ${f.seed} mutated (${
      f.mutations.join("; ")
    }), ${f.bytes.length} B, ${f.ms.toFixed(0)} ms: ${f.detail}`,
  );
  console.log(`      replay: FUZZ_SEED=${runSeed} FUZZ_REPLAY=${f.iteration} deno task fuzz`);
}
Deno.exit(1);
