/**
 * Runs the fuzz loop in a Worker for a bounded time, with a watchdog: when no call has finished
 * for `hangMs`, the Worker is terminated, the case that hung is rebuilt from its iteration and
 * recorded, and a fresh Worker carries on from the next iteration. Collects outcome counts, the
 * slowest calls and every finding (with its input bytes). The fuzzer's own bugs (a mutator or the
 * case loop throwing, a Worker lost while building a case) never end the run: each is counted in
 * `harnessErrors` and the run goes on.
 * @module
 */
import type { FindingKind } from "./check_call.ts";
import type { CallSummary, HarnessError, StartMessage, WorkerMessage } from "./fuzz_worker.ts";
import type { Call, Case, generate as generateCase } from "./generate.ts";
import type { Seed } from "./seeds.ts";

/** Settings of a run. */
export interface FuzzSettings {
  /** The seed corpus. */
  seeds: Seed[];
  /** The run's seed (u32); with the corpus, it fixes every case. */
  runSeed: number;
  /** How long to fuzz, in seconds. */
  seconds: number;
  /** A call slower than this is a finding. */
  slowMs: number;
  /** No progress for this long means a hang. */
  hangMs: number;
  /** Module to fuzz; default imagecore/mod.ts. */
  target?: string;
  /**
   * Module exporting the `generate` of cases; default ./generate.ts. The harness's own tests
   * swap in a stand-in whose mutators throw (fake_generator.ts).
   */
  generator?: string;
  /** Called with each finding as it is found (to save it at once). */
  onFinding?: (finding: Finding) => void | Promise<void>;
  /** Called about every 10 s with the iterations so far. */
  onProgress?: (iterations: number, calls: number) => void;
}

/** A call that failed a check. */
export interface Finding {
  /** What went wrong. */
  kind: FindingKind | "crash";
  /** Error message or problem. */
  detail: string;
  /** Iteration of the case (replay with the run seed). */
  iteration: number;
  /** The call. */
  call: Call;
  /** Seed and its format. */
  seed: string;
  /** Format of the seed. */
  format: string;
  /** Mutations applied to the seed. */
  mutations: string[];
  /** Milliseconds (for a hang: how long before it was stopped). */
  ms: number;
  /** The input. */
  bytes: Uint8Array;
}

/** A slow call for the report. */
export interface TimedCall {
  /** Milliseconds. */
  ms: number;
  /** Call. */
  call: Call;
  /** Seed format. */
  format: string;
  /** Seed name. */
  seed: string;
  /** Input size. */
  size: number;
  /** Iteration. */
  iteration: number;
}

/** What a run found. */
export interface FuzzReport {
  /** Cases run. */
  iterations: number;
  /** Calls made. */
  calls: number;
  /** Wall-clock milliseconds spent fuzzing (Worker start-up excluded). */
  elapsedMs: number;
  /** Outcome counts: "ok" or an error code, over all calls. */
  outcomes: Record<string, number>;
  /** Outcome counts by seed format. */
  byFormat: Record<string, Record<string, number>>;
  /** The ten slowest calls. */
  slowest: TimedCall[];
  /** Every finding. */
  findings: Finding[];
  /** Seeds that did not decode before mutation (the corpus is broken; nothing was fuzzed). */
  brokenSeeds: string[];
  /**
   * The fuzzer's own bugs, each survived: a mutator that threw (that mutation skipped, the case
   * run without it), a case whose loop threw (the case skipped), a Worker that died or hung while
   * building a case (a fresh one goes on from the next case).
   */
  harnessErrors: HarnessError[];
}

export type { HarnessError };

/** Fuzzes `settings.target` for `settings.seconds` and reports. */
export async function runFuzz(settings: FuzzSettings): Promise<FuzzReport> {
  const generator = settings.generator ?? new URL("./generate.ts", import.meta.url).href;
  const { generate } = await import(generator) as { generate: typeof generateCase };
  const rebuild = (iteration: number): Case | undefined => {
    try {
      return generate(settings.seeds, settings.runSeed, iteration);
    } catch {
      return undefined; // the Worker met the same exception: it is reported from there
    }
  };
  const target = settings.target ?? new URL("../../imagecore/mod.ts", import.meta.url).href;
  let fuzzedMs = 0; // time Workers spent fuzzing, their start-up (module loading) excluded
  const report: FuzzReport = {
    iterations: 0,
    calls: 0,
    elapsedMs: 0,
    outcomes: {},
    byFormat: {},
    slowest: [],
    findings: [],
    brokenSeeds: [],
    harnessErrors: [],
  };
  const saving: Promise<void>[] = [];
  const record = (finding: Finding) => {
    report.findings.push(finding);
    if (settings.onFinding) saving.push(Promise.resolve(settings.onFinding(finding)));
  };
  const count = (format: string, c: CallSummary) => {
    report.calls++;
    report.outcomes[c.outcome] = (report.outcomes[c.outcome] ?? 0) + 1;
    const f = (report.byFormat[format] ??= {});
    f[c.outcome] = (f[c.outcome] ?? 0) + 1;
  };
  let lastProgressPrint = performance.now();
  let from = 0;
  let checkSeeds = true;
  let loaded = true;
  while (loaded && fuzzedMs < settings.seconds * 1000 && report.brokenSeeds.length === 0) {
    const next = await new Promise<number>((resolve) => {
      const worker = new Worker(new URL("./fuzz_worker.ts", import.meta.url), { type: "module" });
      let current = { iteration: from, index: 0 };
      let lastProgress = performance.now();
      let ready = 0; // when the target module had loaded: the watchdog and the clock start then
      const stop = (nextIteration: number) => {
        if (ready) fuzzedMs += performance.now() - ready;
        else loaded = false; // the Worker died loading the target: restarting would not help
        clearInterval(watchdog);
        worker.terminate();
        resolve(nextIteration);
      };
      const lost = (kind: "hang" | "crash", detail: string) => {
        const ms = performance.now() - lastProgress;
        // Rebuilt here to save its input; a case that cannot be rebuilt is the harness's fault.
        const c = rebuild(current.iteration);
        if (current.index < 0 || c === undefined) {
          // Stopped while building the case, not in a call: not imagecore's doing.
          report.harnessErrors.push({
            kind: "worker",
            iteration: current.iteration,
            mutator: "",
            detail: `${kind} while building the case: ${detail}`,
            where: "",
          });
        } else {
          record({
            kind,
            detail,
            iteration: c.iteration,
            call: c.calls[current.index],
            seed: c.seed,
            format: c.format,
            mutations: c.mutations,
            ms,
            bytes: c.bytes,
          });
        }
        stop(current.iteration + 1);
      };
      const watchdog = setInterval(() => {
        if (ready && performance.now() - lastProgress > settings.hangMs) {
          lost("hang", `no progress for ${settings.hangMs} ms`);
        }
      }, Math.min(1000, settings.hangMs / 4));
      worker.onerror = (event) => {
        event.preventDefault();
        lost("crash", `worker died: ${event.message}`);
      };
      worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
        const m = event.data;
        lastProgress = performance.now();
        if (m.type === "ready") ready = lastProgress;
        else if (m.type === "call") current = { iteration: m.iteration, index: m.index };
        else if (m.type === "seed-failed") report.brokenSeeds.push(`${m.seed}: ${m.detail}`);
        else if (m.type === "case-failed") report.harnessErrors.push(m.error);
        else if (m.type === "finished") stop(m.next);
        else if (m.type === "case") {
          report.iterations++;
          report.harnessErrors.push(...m.harnessErrors);
          const c = m.calls;
          c.forEach((call) => count(m.format, call));
          for (const call of c) {
            report.slowest.push({
              ms: call.ms,
              call: call.call,
              format: m.format,
              seed: m.seed,
              size: m.size,
              iteration: m.iteration,
            });
          }
          if (report.slowest.length > 50) {
            report.slowest = report.slowest.sort((a, b) => b.ms - a.ms).slice(0, 10);
          }
          const found = c.filter((call) => call.finding);
          if (found.length) {
            const bytes = rebuild(m.iteration)?.bytes ?? new Uint8Array();
            for (const call of found) {
              const { kind, detail } = call.finding!;
              record({
                kind: kind as FindingKind,
                detail,
                iteration: m.iteration,
                call: call.call,
                seed: m.seed,
                format: m.format,
                mutations: m.mutations,
                ms: call.ms,
                bytes,
              });
            }
          }
          if (settings.onProgress && lastProgress - lastProgressPrint > 10_000) {
            lastProgressPrint = lastProgress;
            settings.onProgress(report.iterations, report.calls);
          }
        }
      };
      const ms = settings.seconds * 1000 - fuzzedMs;
      const message: StartMessage = {
        seeds: settings.seeds,
        runSeed: settings.runSeed,
        from,
        ms,
        slowMs: settings.slowMs,
        target,
        generator,
        checkSeeds,
      };
      worker.postMessage(message);
    });
    from = next;
    checkSeeds = false;
  }
  await Promise.all(saving);
  report.slowest = report.slowest.sort((a, b) => b.ms - a.ms).slice(0, 10);
  report.elapsedMs = fuzzedMs;
  return report;
}
