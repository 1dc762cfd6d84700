/**
 * The fuzz harness itself (test/fuzz/), run against a stand-in target that misbehaves on purpose:
 * each kind of misbehaviour must become a finding whose saved input reproduces it, a hang must
 * be cut off by the watchdog and the run must carry on, and well-typed refusals must not count.
 */
import { deepStrictEqual, notDeepStrictEqual, ok, strictEqual, throws } from "node:assert";
import { ImageCoreError, type ProbeResult } from "../../imagecore/mod.ts";
import { checkCall, type FuzzTarget } from "../fuzz/check_call.ts";
import { generate } from "../fuzz/generate.ts";
import { type FuzzReport, type FuzzSettings, runFuzz } from "../fuzz/run_fuzz.ts";
import type { Seed } from "../fuzz/seeds.ts";

const seed: Seed = { name: "fake", format: "bmp", bytes: new Uint8Array(64).fill(7) };
seed.bytes.set([0x42, 0x4d]);

function fake(mode: string): string {
  return new URL(`../fuzz/fake_target.ts?mode=${mode}`, import.meta.url).href;
}

function fakeGenerator(mode: "mutator" | "case"): string {
  return new URL(`../fuzz/fake_generator.ts?mode=${mode}`, import.meta.url).href;
}

function fuzz(mode: string, settings: Partial<FuzzSettings> = {}): Promise<FuzzReport> {
  return runFuzz({
    seeds: [seed],
    runSeed: 7,
    seconds: 1,
    slowMs: 1000,
    hangMs: 5000,
    target: fake(mode),
    ...settings,
  });
}

function oddInputs(report: FuzzReport): void {
  ok(report.findings.length > 0, "no findings");
  for (const f of report.findings) {
    strictEqual(f.bytes.length % 2, 1, `finding ${f.kind} on an even input`);
  }
}

Deno.test("typed refusals and valid results are not findings", async () => {
  const report = await fuzz("typed");
  deepStrictEqual(report.findings, []);
  ok(report.iterations > 10, `only ${report.iterations} cases`);
  ok(report.outcomes.corrupt > 0 && report.outcomes.ok > 0, JSON.stringify(report.outcomes));
  strictEqual(report.calls, Object.values(report.outcomes).reduce((a, b) => a + b, 0));
});

Deno.test("an error that is not an ImageCoreError is an untyped finding, with its input", async () => {
  const report = await fuzz("untyped");
  oddInputs(report);
  ok(
    report.findings.every((f) =>
      f.kind === "untyped" && f.detail === "TypeError: fake untyped failure"
    ),
  );
  const target = await import(fake("untyped")) as FuzzTarget;
  throws(() => target.probe(report.findings[0].bytes), TypeError);
});

Deno.test("an internal ImageCoreError is a finding", async () => {
  const report = await fuzz("internal");
  oddInputs(report);
  ok(report.findings.every((f) => f.kind === "internal"));
});

Deno.test("a result that does not match the options is a finding", async () => {
  const report = await fuzz("wrong");
  oddInputs(report);
  ok(report.findings.every((f) => f.kind === "invalid_result" && f.call.fn === "transform"));
});

Deno.test("a call over the slow limit is a finding; the same calls under it are not", async () => {
  const slow = await fuzz("slow", { slowMs: 20 });
  oddInputs(slow);
  ok(slow.findings.every((f) => f.kind === "slow" && f.ms > 20));
  ok(slow.slowest[0].ms >= 30, `slowest ${slow.slowest[0].ms} ms`);
  deepStrictEqual((await fuzz("slow", { slowMs: 10_000 })).findings, []);
});

Deno.test("a hang is cut off by the watchdog, saved, and the run carries on", async () => {
  const report = await fuzz("hang", { seconds: 3, hangMs: 1000 });
  oddInputs(report);
  ok(report.findings.every((f) => f.kind === "hang" && f.ms >= 1000));
  ok(report.findings.length >= 2, `${report.findings.length} hang(s): the run did not carry on`);
  const first = report.findings[0];
  deepStrictEqual(first.bytes, generate([seed], 7, first.iteration).bytes);
  ok(report.iterations > first.iteration - 1, "cases after the hang were not run");
});

Deno.test("a mutator that throws is counted and reported, and the run goes on", async () => {
  const report = await fuzz("typed", { generator: fakeGenerator("mutator") });
  deepStrictEqual(report.findings, [], "the harness's bug is not imagecore's finding");
  ok(report.harnessErrors.length >= 2, `${report.harnessErrors.length} harness error(s)`);
  for (const e of report.harnessErrors) {
    strictEqual(e.kind, "mutator");
    strictEqual(e.iteration % 3, 1, "only the cases the stand-in broke");
    ok(e.detail.startsWith("TypeError: "), e.detail);
  }
  // Every case ran, those with a failed mutator included (their mutations skipped).
  const last = Math.max(...report.harnessErrors.map((e) => e.iteration));
  ok(report.iterations > last, `${report.iterations} cases, the last error at ${last}`);
});

Deno.test("a case whose building throws is skipped, counted, and the run goes on", async () => {
  const report = await fuzz("typed", { generator: fakeGenerator("case") });
  deepStrictEqual(report.findings, []);
  ok(report.harnessErrors.length >= 2, `${report.harnessErrors.length} harness error(s)`);
  ok(report.harnessErrors.every((e) => e.kind === "case" && e.iteration % 3 === 1));
  ok(
    report.harnessErrors.every((e) => e.detail.startsWith("RangeError: fake case failure")),
  );
  // Two good cases for each failed one, give or take where the run's time ran out.
  ok(
    report.iterations >= 2 * report.harnessErrors.length - 2,
    `${report.iterations} cases, ${report.harnessErrors.length} harness errors`,
  );
});

Deno.test("a seed the target cannot decode stops the run before fuzzing", async () => {
  const broken: Seed = { name: "broken", format: "bmp", bytes: new Uint8Array(64) };
  const report = await runFuzz({
    seeds: [broken],
    runSeed: 1,
    seconds: 5,
    slowMs: 1000,
    hangMs: 5000,
    target: fake("typed"),
  });
  strictEqual(report.iterations, 0);
  ok(report.brokenSeeds[0].startsWith("broken: probe: corrupt"), report.brokenSeeds[0]);
});

Deno.test("a case is a pure function of the run seed and the iteration", () => {
  const a = generate([seed], 99, 12345);
  deepStrictEqual(generate([seed], 99, 12345), a);
  notDeepStrictEqual(generate([seed], 99, 12346).bytes, a.bytes);
  notDeepStrictEqual(generate([seed], 100, 12345).bytes, a.bytes);
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

Deno.test("checkCall: invalid results, untyped errors and unexpected codes are findings", () => {
  const target = (probe: () => ProbeResult): FuzzTarget => ({
    probe,
    transform: () => ({
      bytes: new Uint8Array(),
      width: 1,
      height: 1,
      format: "png",
      inverted: false,
    }),
    ImageCoreError,
  });
  const verdict = (probe: () => ProbeResult) =>
    checkCall(target(probe), { fn: "probe" }, seed.bytes, 1000);
  strictEqual(verdict(() => ({ format: "bmp", width: 3, height: 2 })).finding, undefined);
  strictEqual(
    verdict(() => ({ format: "bmp", width: 0, height: 2 })).finding?.kind,
    "invalid_result",
  );
  strictEqual(
    verdict(() => ({ format: "bmp", width: 70_000, height: 2 })).finding?.kind,
    "invalid_result",
  );
  strictEqual(verdict(() => ({ format: "svg", width: 70_000, height: 2 })).finding, undefined);
  const throwing = (e: unknown) =>
    verdict(() => {
      throw e;
    });
  strictEqual(throwing(new ImageCoreError("corrupt", "Cannot decode image: x")).outcome, "corrupt");
  strictEqual(throwing(new ImageCoreError("corrupt", "Cannot decode image: x")).finding, undefined);
  strictEqual(throwing(new ImageCoreError("corrupt", "bad")).finding?.kind, "untyped");
  strictEqual(throwing(new ImageCoreError("timeout", "Cannot x")).finding?.kind, "untyped");
  strictEqual(throwing(new ImageCoreError("internal", "Cannot x")).finding?.kind, "internal");
  strictEqual(
    throwing(new RangeError("Maximum call stack size exceeded")).finding?.kind,
    "untyped",
  );
  strictEqual(throwing("a string").finding?.detail, "threw a string");
  const png = checkCall(
    target(() => ({ format: "bmp", width: 3, height: 2 })),
    { fn: "transform", options: {} },
    seed.bytes,
    1000,
  );
  strictEqual(png.finding?.detail, "bytes are not png");
  // A tall source is narrowed to fit the 4096-px height (imagecore/src/geometry.rs); only then.
  const sized = (width: number, height: number, asked?: number) =>
    checkCall(
      {
        ...target(() => ({ format: "png", width: 100, height: 1000 })),
        transform: () => ({ bytes: PNG, width, height, format: "png", inverted: false }),
      },
      { fn: "transform", options: asked === undefined ? {} : { width: asked } },
      seed.bytes,
      1000,
      { format: "png", width: 100, height: 1000 },
    ).finding?.detail;
  strictEqual(sized(409, 4090, 700), undefined);
  strictEqual(sized(1, 4096, 700), undefined);
  strictEqual(sized(300, 3000, 700), "width 300, asked 700");
  strictEqual(sized(409, 4090, 100), "width 409, asked 100");
  strictEqual(sized(100, 1000), undefined);
  strictEqual(sized(50, 500), "width 50 is neither side of the probed 100×1000");
});
