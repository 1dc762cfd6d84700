/**
 * The cache budgets a server process runs with (`src/server/cache_budgets.ts`): read from
 * `LOGO_VARIANT_CACHE_MB`, `LOGO_SOURCE_CACHE_MB` and `LOGO_RECORD_CACHE_MB`, a bad value stopping start-up with one
 * clear line, and the budgets reaching the caches — seen from outside through `/metrics`, whose
 * `logo_memory_bytes{part}` reports what each cache holds and the WASM memory of each isolate.
 */
import assert from "node:assert/strict";
import {
  cacheBudgets,
  describeCacheBudgets,
  MAX_CACHE_MB,
  parseCacheMb,
} from "../../src/server/cache_budgets.ts";
import { readSettings } from "../../src/settings/read_settings.ts";
import { seedIfEmpty } from "../../src/store/seed.ts";
import { startMainProcess } from "../support/main_process.ts";

const MiB = 1024 * 1024;
const METRICS_TOKEN = "cache-budgets-test-token-0123456789";

Deno.test("cache budgets: defaults, whole MiB, and a clear error for anything else", () => {
  assert.deepEqual(cacheBudgets(readSettings({}, "serve")), {
    variantCacheBytes: 32 * MiB,
    sourceCacheBytes: 32 * MiB,
    logoCacheBytes: 64 * MiB,
  });
  const env: Record<string, string> = {
    LOGO_VARIANT_CACHE_MB: "16",
    LOGO_SOURCE_CACHE_MB: " 0 ",
    LOGO_RECORD_CACHE_MB: "200",
  };
  assert.deepEqual(cacheBudgets(readSettings(env, "serve")), {
    variantCacheBytes: 16 * MiB,
    sourceCacheBytes: 0,
    logoCacheBytes: 200 * MiB,
  });
  assert.equal(parseCacheMb("X", "", 7), 7);
  assert.equal(parseCacheMb("X", String(MAX_CACHE_MB), 7), MAX_CACHE_MB * MiB);
  for (const bad of ["-1", "1.5", "lots", "1e3", String(MAX_CACHE_MB + 1), "0x10"]) {
    assert.throws(
      () => parseCacheMb("LOGO_SOURCE_CACHE_MB", bad, 0),
      (error: Error) =>
        error instanceof RangeError &&
        error.message ===
          `Invalid LOGO_SOURCE_CACHE_MB "${bad}": expected a whole number of MiB from 0 (no cache) to ${MAX_CACHE_MB}`,
      bad,
    );
  }
  assert.equal(
    describeCacheBudgets({
      variantCacheBytes: 64 * MiB,
      sourceCacheBytes: 1.5 * MiB,
      logoCacheBytes: 32 * MiB,
    }),
    "Cache budgets: variants 64 MiB, sources 1.5 MiB, records 32 MiB.",
  );
});

Deno.test("cache budgets: a bad LOGO_VARIANT_CACHE_MB stops start-up with one clear line", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../src/main.ts", import.meta.url).pathname],
    env: { LOGO_VARIANT_CACHE_MB: "lots", LOGO_KV: ":memory:", PORT: "0", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 1);
  assert.equal(
    new TextDecoder().decode(output.stderr).trim(),
    `Invalid LOGO_VARIANT_CACHE_MB "lots": expected a whole number of MiB from 0 (no cache) to ${MAX_CACHE_MB}`,
  );
});

/** `logo_memory_bytes{part}` of the server on `port`. */
async function memoryParts(port: number): Promise<Record<string, number>> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  assert.equal(response.status, 200);
  const parts: Record<string, number> = {};
  for (
    const match of (await response.text()).matchAll(/^logo_memory_bytes\{part="(\w+)"\} (\S+)$/gm)
  ) {
    parts[match[1]] = Number(match[2]);
  }
  return parts;
}

/** Starts the server on a seeded store with `env`, renders one logo at 40 px, returns its parts. */
async function partsAfterOneRender(env: Record<string, string>) {
  const dir = await Deno.makeTempDir();
  try {
    const kv = await Deno.openKv(`${dir}/store.kv`);
    const demo = await seedIfEmpty(kv);
    kv.close();
    assert.ok(demo);
    await using server = await startMainProcess({
      LOGO_KV: `${dir}/store.kv`,
      LOGO_METRICS_TOKEN: METRICS_TOKEN,
      LOGO_RENDER_WORKERS: "1",
      ...env,
    });
    const response = await fetch(`http://127.0.0.1:${server.port}${demo.path}&size=40`);
    assert.equal(response.status, 200, await response.clone().text());
    await response.body?.cancel();
    return { parts: await memoryParts(server.port), printed: server.printed };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("cache budgets: the settings reach the caches; /metrics reports memory by part", async () => {
  const cached = await partsAfterOneRender({});
  assert.ok(
    cached.printed.includes("Cache budgets: variants 32 MiB, sources 32 MiB, records 64 MiB."),
  );
  assert.ok(cached.parts.variant_cache > 0, JSON.stringify(cached.parts));
  assert.ok(cached.parts.source_cache > 0, JSON.stringify(cached.parts));
  assert.ok(cached.parts.record_cache > 0, JSON.stringify(cached.parts));
  assert.ok(cached.parts.heap_used > 0 && cached.parts.heap_total >= cached.parts.heap_used);
  // The render ran in the worker: its WASM memory is reported, and the serving isolate never
  // instantiated imagecore (reading the figure does not instantiate it either).
  assert.ok(cached.parts.wasm_render_worker_0 > 0, JSON.stringify(cached.parts));
  assert.equal(cached.parts.wasm_serving_isolate, 0);

  const none = await partsAfterOneRender({
    LOGO_VARIANT_CACHE_MB: "0",
    LOGO_SOURCE_CACHE_MB: "0",
    LOGO_RECORD_CACHE_MB: "0",
  });
  assert.ok(
    none.printed.includes("Cache budgets: variants 0 MiB, sources 0 MiB, records 0 MiB."),
  );
  assert.equal(none.parts.variant_cache, 0);
  assert.equal(none.parts.source_cache, 0);
  assert.equal(none.parts.record_cache, 0);
});
