/**
 * The logo change signal (`src/store/logo_changes.ts`, `src/store/logo_change_feed.ts`): every
 * logo write (put, rerender, remove, restore) is counted and logged in its own commit; a feed
 * tells which domains changed, each once, and that changes were missed when the counter moved
 * further than the log explains; a failed or slow read confirms nothing.
 */
import assert from "node:assert/strict";
import { LogoChangeFeed } from "../../src/store/logo_change_feed.ts";
import { markLogoChanged } from "../../src/store/logo_changes.ts";
import { LOGO_CHANGE_COUNT_KEY } from "../../src/store/keyspace.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { restoreLogo } from "../../src/store/logo_restore.ts";
import { flatImage } from "../support/images.ts";

/** What a feed told, in order. */
function recorder(feed: LogoChangeFeed): string[] {
  const told: string[] = [];
  feed.subscribe({
    changed: (domains) => told.push(`changed ${[...domains].sort().join(",")}`),
    cleared: () => told.push("cleared"),
  });
  return told;
}

/** `kv` with the methods in `overrides` answered by them instead (a KV that races or fails). */
function overriding(kv: Deno.Kv, overrides: Partial<Pick<Deno.Kv, "get" | "list">>): Deno.Kv {
  return new Proxy(kv, {
    get(target, name) {
      const own = overrides[name as keyof typeof overrides];
      if (own !== undefined) return own;
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function count(kv: Deno.Kv): Promise<bigint> {
  return (await kv.get<Deno.KvU64>(LOGO_CHANGE_COUNT_KEY)).value?.value ?? 0n;
}

Deno.test("logo changes: each write is counted and told once, by domain", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const clock = { now: 1_750_000_000_000 };
    const logos = new LogoStore(kv, { clock: () => clock.now });
    const feed = new LogoChangeFeed(kv, { clock: () => clock.now, log: () => {} });
    const told = recorder(feed);
    assert.equal(await feed.poll(), true);
    assert.deepEqual(told, [], "an empty store: nothing to tell");
    assert.equal(feed.confirmedAt(), clock.now);

    const png = flatImage(40, 40, [10, 120, 200, 255]);
    const { record } = await logos.put("a.example", png, { source: "test" });
    const blobs = new Map<string, Uint8Array>();
    for (const rendition of Object.values(record.renditions)) {
      blobs.set(rendition.hash, (await logos.readRendition(rendition))!);
    }
    assert.equal(await count(kv), 1n);
    clock.now += 1_000;
    await feed.poll();
    assert.deepEqual(told, ["cleared"], "the first count seen: what was cached is not known");

    await logos.put("b.example", png, { source: "test" });
    await logos.put("a.example", flatImage(40, 40, [200, 10, 10, 255]), { source: "test" });
    clock.now += 1_000;
    await feed.poll();
    assert.equal(told.at(-1), "changed a.example,b.example");

    // The same bytes again write nothing, and nothing is told.
    await logos.put("b.example", png, { source: "test" });
    clock.now += 1_000;
    const before = told.length;
    await feed.poll();
    assert.equal(told.length, before);
    assert.equal(feed.confirmedAt(), clock.now);

    await logos.remove("b.example");
    const restored = await restoreLogo(kv, record, blobs, {
      replace: true,
      clock: () => clock.now,
    });
    assert.equal(restored, "replaced");
    clock.now += 1_000;
    await feed.poll();
    assert.equal(told.at(-1), "changed a.example,b.example");
    // Told entries stay in the log window, and are not told again.
    clock.now += 1_000;
    await feed.poll();
    assert.equal(told.at(-1), "changed a.example,b.example");
    assert.equal(told.length, before + 1);
    assert.equal(await count(kv), 5n);
  } finally {
    kv.close();
  }
});

Deno.test("logo changes: a change the log cannot explain is told as cleared", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const clock = { now: 1_750_000_000_000 };
    const feed = new LogoChangeFeed(kv, { clock: () => clock.now, marginMs: 5_000 });
    const told = recorder(feed);
    await markLogoChanged(kv.atomic(), "first.example", clock.now).commit();
    await feed.poll();
    assert.deepEqual(told, ["cleared"]);
    clock.now += 1_000;
    // A writer whose clock is a minute behind: its entry is before the window read.
    await markLogoChanged(kv.atomic(), "late.example", clock.now - 60_000).commit();
    await markLogoChanged(kv.atomic(), "on-time.example", clock.now).commit();
    await feed.poll();
    assert.deepEqual(told, ["cleared", "cleared"]);
    // Within the margin, it is found.
    clock.now += 1_000;
    await markLogoChanged(kv.atomic(), "behind.example", clock.now - 4_000).commit();
    await feed.poll();
    assert.deepEqual(told, ["cleared", "cleared", "changed behind.example"]);
  } finally {
    kv.close();
  }
});

Deno.test("logo changes: an entry committed between the counter's read and the log's is told once, and no clear follows", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const clock = { now: 1_750_000_000_000 };
    let writeBeforeList: string | undefined;
    // The feed's KV: before it lists the log, another writer commits (a race made certain).
    const racing = overriding(kv, {
      list: ((...args: Parameters<Deno.Kv["list"]>) => {
        const domain = writeBeforeList;
        writeBeforeList = undefined;
        if (domain === undefined) return kv.list(...args);
        return (async function* () {
          await markLogoChanged(kv.atomic(), domain, clock.now).commit();
          yield* kv.list(...args);
        })();
      }) as Deno.Kv["list"],
    });
    const feed = new LogoChangeFeed(racing, { clock: () => clock.now });
    const told = recorder(feed);
    await markLogoChanged(kv.atomic(), "a.example", clock.now).commit();
    await feed.poll(); // the first count seen
    await markLogoChanged(kv.atomic(), "b.example", clock.now).commit();
    writeBeforeList = "c.example";
    clock.now += 1_000;
    await feed.poll();
    assert.deepEqual(told, ["cleared", "changed b.example,c.example"]);
    clock.now += 1_000;
    await feed.poll(); // the counter now includes c's change, already told
    assert.deepEqual(told, ["cleared", "changed b.example,c.example"]);
    await markLogoChanged(kv.atomic(), "d.example", clock.now).commit();
    clock.now += 1_000;
    await feed.poll();
    assert.deepEqual(told.at(-1), "changed d.example");
  } finally {
    kv.close();
  }
});

Deno.test("logo changes: a failed or unanswered read confirms nothing and is reported once", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const clock = { now: 1_750_000_000_000 };
    let mode: "ok" | "fail" | "hang" = "ok";
    const flaky = overriding(kv, {
      get: ((...args: Parameters<Deno.Kv["get"]>) => {
        if (mode === "ok") return kv.get(...args);
        return mode === "fail" ? Promise.reject(new Error("KV down")) : new Promise(() => {});
      }) as Deno.Kv["get"],
    });
    const logged: string[] = [];
    const feed = new LogoChangeFeed(flaky, {
      clock: () => clock.now,
      // The hung read costs this long; the good reads must fit in it on a loaded machine too.
      readTimeoutMs: 1_000,
      log: (message) => logged.push(message),
    });
    assert.equal(await feed.poll(), true);
    const confirmed = feed.confirmedAt();
    mode = "fail";
    clock.now += 1_000;
    assert.equal(await feed.poll(), false);
    mode = "hang";
    clock.now += 1_000;
    assert.equal(await feed.poll(), false);
    assert.equal(feed.confirmedAt(), confirmed);
    assert.deepEqual(logged, ["Logo change feed: cannot read the change counter"]);
    mode = "ok";
    clock.now += 1_000;
    assert.equal(await feed.poll(), true);
    assert.equal(feed.confirmedAt(), clock.now);
    assert.deepEqual(logged.at(-1), "Logo change feed: reading again");
  } finally {
    kv.close();
  }
});

Deno.test("logo changes: a started feed reads on its own until stopped", async () => {
  const kv = await Deno.openKv(":memory:");
  const feed = new LogoChangeFeed(kv, { pollMs: 10 });
  try {
    const told: string[] = [];
    let wake = () => {};
    const tell = (event: string) => {
      told.push(event);
      wake();
    };
    // Resolves once `event` has been told (checked again at each telling).
    const waitFor = (event: string) =>
      new Promise<void>((resolve) => {
        const check = () => told.includes(event) ? resolve() : (wake = check);
        check();
      });
    feed.subscribe({
      changed: (domains) => tell(`changed ${domains.join(",")}`),
      cleared: () => tell("cleared"),
    });
    await markLogoChanged(kv.atomic(), "first.example", Date.now()).commit();
    feed.start();
    await waitFor("cleared"); // the first count seen
    await markLogoChanged(kv.atomic(), "second.example", Date.now()).commit();
    await waitFor("changed second.example");
    assert.deepEqual(told, ["cleared", "changed second.example"]);
  } finally {
    await feed.stop();
    kv.close();
  }
});
