/**
 * The fuzz loop, run inside a Worker so the parent can terminate it when a call hangs. It checks
 * that every seed decodes (first start only), then generates and runs cases until the deadline,
 * posting a heartbeat before each call and a summary after each case.
 * @module
 */
import { checkCall, type FuzzTarget } from "./check_call.ts";
import { type Call, generate } from "./generate.ts";
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

/** Messages the worker posts. */
export type WorkerMessage =
  | { type: "ready" }
  | { type: "call"; iteration: number; index: number }
  | {
    type: "case";
    iteration: number;
    seed: string;
    format: string;
    size: number;
    mutations: string[];
    calls: CallSummary[];
  }
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
  scope.postMessage({ type: "ready" });
  if (start.checkSeeds && !checkSeeds(target, start.seeds)) {
    scope.postMessage({ type: "finished", next: start.from });
    return;
  }
  const until = Date.now() + start.ms;
  let iteration = start.from;
  for (; Date.now() < until; iteration++) {
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
    });
  }
  scope.postMessage({ type: "finished", next: iteration });
};
