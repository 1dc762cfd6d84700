/**
 * The fuzz loop, run inside a Worker so the parent can terminate it when a call hangs. It checks
 * that every seed decodes (first start only), then generates and runs cases until the deadline,
 * posting a heartbeat before each call and a summary after each case.
 * @module
 */
import { checkCall, type FuzzTarget } from "./check_call.ts";
import { type Call, type Case, describeError, type generate } from "./generate.ts";
import type { Seed } from "./seeds.ts";
import type { ProbeResult } from "../../imagecore/mod.ts";

/** What the parent sends to start the loop. */
export interface StartMessage {
  /** The seed corpus. */
  seeds: Seed[];
  /** The run's seed. */
  runSeed: number;
  /** First iteration to run. */
  from: number;
  /** Milliseconds to fuzz for, counted once the target has loaded and the seeds are checked. */
  ms: number;
  /** A call slower than this is a finding. */
  slowMs: number;
  /** Module to fuzz (imagecore/mod.ts, or a stand-in). */
  target: string;
  /** Module exporting `generate` (./generate.ts, or a stand-in whose mutators fail). */
  generator: string;
  /** Check the seeds decode before fuzzing. */
  checkSeeds: boolean;
}

/** One call's outcome in a case summary. */
export interface CallSummary {
  /** The call. */
  call: Call;
  /** "ok" or the error code. */
  outcome: string;
  /** Milliseconds. */
  ms: number;
  /** Set when the call is a finding. */
  finding?: { kind: string; detail: string };
}

/** A bug of the fuzzer itself, met while building or running a case (see `run_fuzz.ts`). */
export interface HarnessError {
  /** "mutator": a mutator threw, that mutation was skipped; "case": the case loop threw, the
   * case was skipped; "worker": the Worker died outside any call. */
  kind: "mutator" | "case" | "worker";
  /** Iteration of the case. */
  iteration: number;
  /** The mutator ("structure (gif)"), or "" for the other kinds. */
  mutator: string;
  /** The error, e.g. "TypeError: Cannot read properties of undefined (reading 'toString')". */
  detail: string;
  /** Where in test/fuzz/ it was thrown, e.g. "structure.ts:109:81" ("" when unknown). */
  where: string;
}

/** Messages the worker posts. */
export type WorkerMessage =
  | { type: "ready" }
  /** A heartbeat before each call (`index` into the case's calls; -1: building the case). */
  | { type: "call"; iteration: number; index: number }
  | {
    type: "case";
    iteration: number;
    seed: string;
    format: string;
    size: number;
    mutations: string[];
    calls: CallSummary[];
    harnessErrors: HarnessError[];
  }
  | { type: "case-failed"; error: HarnessError }
  | { type: "seed-failed"; seed: string; detail: string }
  | { type: "finished"; next: number };

const scope = self as unknown as {
  onmessage: (event: MessageEvent<StartMessage>) => void;
  postMessage(message: WorkerMessage): void;
};

function checkSeeds(target: FuzzTarget, seeds: Seed[]): boolean {
  let healthy = true;
  for (const seed of seeds) {
    for (const call of [{ fn: "probe" }, { fn: "transform", options: { width: 64 } }] as Call[]) {
      const verdict = checkCall(target, call, seed.bytes, Infinity);
      if (verdict.outcome !== "ok") {
        scope.postMessage({
          type: "seed-failed",
          seed: seed.name,
          detail: `${call.fn}: ${verdict.outcome} ${verdict.finding?.detail ?? ""}`,
        });
        healthy = false;
      }
    }
  }
  return healthy;
}

scope.onmessage = async (event) => {
  const start = event.data;
  const target = await import(start.target) as FuzzTarget;
  const generator = await import(start.generator) as { generate: typeof generate };
  scope.postMessage({ type: "ready" });
  if (start.checkSeeds && !checkSeeds(target, start.seeds)) {
    scope.postMessage({ type: "finished", next: start.from });
    return;
  }
  const until = Date.now() + start.ms;
  let iteration = start.from;
  for (; Date.now() < until; iteration++) {
    try {
      runCase(target, generator.generate, start, iteration);
    } catch (error) {
      // The harness's own bug (imagecore's errors are caught by checkCall): skip the case, go on.
      scope.postMessage({ type: "case-failed", error: harnessError("case", iteration, error) });
    }
  }
  scope.postMessage({ type: "finished", next: iteration });
};

function runCase(
  target: FuzzTarget,
  generate: (seeds: Seed[], runSeed: number, iteration: number) => Case,
  start: StartMessage,
  iteration: number,
): void {
  scope.postMessage({ type: "call", iteration, index: -1 });
  const c = generate(start.seeds, start.runSeed, iteration);
  const calls: CallSummary[] = [];
  let probed: ProbeResult | undefined;
  c.calls.forEach((call, index) => {
    scope.postMessage({ type: "call", iteration, index });
    const { result, ...verdict } = checkCall(target, call, c.bytes, start.slowMs, probed);
    if (call.fn === "probe" && verdict.outcome === "ok") probed = result as ProbeResult;
    calls.push({ call, ...verdict });
  });
  scope.postMessage({
    type: "case",
    iteration,
    seed: c.seed,
    format: c.format,
    size: c.bytes.length,
    mutations: c.mutations,
    calls,
    harnessErrors: c.mutatorErrors.map(({ mutator, detail, where }) => ({
      kind: "mutator" as const,
      iteration,
      mutator,
      detail,
      where,
    })),
  });
}

/** Describes an exception the harness threw. */
function harnessError(
  kind: HarnessError["kind"],
  iteration: number,
  error: unknown,
): HarnessError {
  return { kind, iteration, mutator: "", ...describeError(error) };
}
