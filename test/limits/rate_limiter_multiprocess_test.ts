import assert from "node:assert/strict";
import { lines } from "../support/lines.ts";
import type { ChildSummary } from "../support/rate_limit_child.ts";

const CHILD = new URL("../support/rate_limit_child.ts", import.meta.url);

async function runChildren(
  count: number,
  args: { path: string; keyId: string; limit: number; window: number; takes: number; now: number },
): Promise<ChildSummary[]> {
  // Create the KV file first: SQLite refuses two processes creating its schema at once.
  (await Deno.openKv(args.path)).close();
  const children: Deno.ChildProcess[] = [];
  const outputs: AsyncGenerator<string>[] = [];
  for (let i = 0; i < count; i++) {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--unstable-kv",
        "--allow-read",
        "--allow-write",
        CHILD.pathname,
        args.path,
        args.keyId,
        String(args.limit),
        String(args.window),
        String(args.takes),
        String(args.now),
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    children.push(child);
    outputs.push(lines(child.stdout));
    // Wait until this child has opened the KV before starting the next one.
    assert.equal((await outputs[i].next()).value, "ready");
  }
  const writers = children.map((child) => child.stdin.getWriter());
  await Promise.all(writers.map((w) => w.write(new TextEncoder().encode("go\n"))));
  await Promise.all(writers.map((w) => w.close()));
  const summaries: ChildSummary[] = [];
  for (const output of outputs) {
    let last = "";
    for await (const line of output) last = line;
    summaries.push(JSON.parse(last));
  }
  const statuses = await Promise.all(children.map((child) => child.status));
  for (const status of statuses) assert.equal(status.code, 0);
  return summaries;
}

for (const limit of [1, 137, 2000, 20_000]) {
  Deno.test(`two processes sharing one KV file admit exactly ${limit} in total, each with a never-rising remaining`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      const path = `${dir}/limits.kv`;
      const summaries = await runChildren(2, {
        path,
        keyId: "key_shared",
        limit,
        window: 3600,
        takes: 2 * limit + 50,
        now: Date.UTC(2026, 0, 1, 0, 10),
      });
      const admitted = summaries.reduce((sum, s) => sum + s.admitted, 0);
      assert.equal(admitted, limit, JSON.stringify(summaries));
      for (const s of summaries) assert.ok(s.monotone, JSON.stringify(s));
      using kv = await Deno.openKv(path);
      const index = Math.floor(Date.UTC(2026, 0, 1, 0, 10) / 3_600_000);
      const leased = await kv.get<number>(["rate_limit", "key_shared", 3600, index]);
      assert.equal(leased.value, limit, "all quota handed out and none given back unspent");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
