/**
 * Exact limits across instances over a real `denokv`: three `src/main.ts` processes share one
 * store; for a key created with the admin CLI, 600 requests are sent at once, 200 to each
 * instance, over real sockets. Exactly the key's limit are admitted (200) and the rest refused
 * (429 with the headers docs/use/behaviour.md promises); nothing else is answered. With a limit of
 * 150 any one instance could take it all; with 450 no instance can (it has 200 requests), so the
 * quota must be shared out across instances and none may keep a part it has no request for.
 */
import assert from "node:assert/strict";
import { denokv } from "../support/denokv.ts";
import { type Cluster, exchangeWithin, startCluster } from "../support/denokv_cluster.ts";
import type { Exchange } from "../support/http.ts";
import { flatImage } from "../support/images.ts";

const INSTANCES = 3;
const REQUESTS = 600;
const LIMITS = [150, 450];
/** 31 days, the longest window: the test cannot straddle two windows in practice. */
const WINDOW_SECONDS = 31 * 24 * 3_600;
/** Bound of each request: a hang fails the test. */
const ANSWER_WITHIN_MS = 30_000;

Deno.test({
  name: "denokv: 600 concurrent requests over 3 instances admit exactly the key's limit",
  ignore: denokv.ignore,
  async fn(t) {
    await using cluster = await startCluster(INSTANCES);
    const dir = await Deno.makeTempDir();
    try {
      const file = `${dir}/logo.png`;
      await Deno.writeFile(file, flatImage(64, 64, [20, 90, 200, 255]));
      await cluster.admin(["logo", "add", "limits.example", file]);
      for (const limit of LIMITS) {
        await t.step(`limit ${limit}`, () => exactLimit(cluster, limit));
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** Sends the requests for a new key with `limit` and checks every answer. */
async function exactLimit(cluster: Cluster, limit: number): Promise<void> {
  const key = await cluster.admin<{ publishableKey: string }>(
    ["key", "create", "--limit", String(limit), "--window", String(WINDOW_SECONDS)],
  );
  const path = `/limits.example?token=${key.publishableKey}`;

  const sentAt = Date.now();
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: REQUESTS }, async (_, i) => {
      const instance = i % INSTANCES;
      return {
        instance,
        answer: await exchangeWithin(cluster.url(instance, path), ANSWER_WITHIN_MS),
      };
    }),
  );
  const elapsed = performance.now() - started;
  const windowEnd = (Math.floor(Date.now() / 1000 / WINDOW_SECONDS) + 1) * WINDOW_SECONDS;

  const byStatus = new Map<number, number>();
  for (const { answer } of answers) {
    byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
  }
  const summary = JSON.stringify(Object.fromEntries(byStatus));
  assert.deepEqual(
    [...byStatus.keys()].sort(),
    [200, 429],
    `statuses other than 200 and 429: ${summary}`,
  );
  assert.equal(byStatus.get(200), limit, summary);
  assert.equal(byStatus.get(429), REQUESTS - limit, summary);

  for (const { answer } of answers) {
    assertRateLimitHeaders(answer, limit, windowEnd, sentAt);
  }
  const perInstance = Array.from({ length: INSTANCES }, (_, instance) => {
    const mine = answers.filter((a) => a.instance === instance);
    return `${mine.filter((a) => a.answer.status === 200).length}/${mine.length}`;
  });
  console.log(
    `limit ${limit}: ${REQUESTS} requests over ${INSTANCES} instances in ` +
      `${Math.round(elapsed)} ms: ${summary}; admitted per instance ${perInstance.join(", ")}`,
  );
}

/** The headers of a counted answer; a 429's `Retry-After` and zero remaining. */
function assertRateLimitHeaders(
  answer: Exchange,
  limit: number,
  windowEnd: number,
  sentAt: number,
): void {
  const { status, headers } = answer;
  assert.equal(headers.get("x-ratelimit-limit"), String(limit), `${status} X-RateLimit-Limit`);
  const reset = Number(headers.get("x-ratelimit-reset"));
  assert.equal(reset, windowEnd, `${status} X-RateLimit-Reset`);
  const remaining = Number(headers.get("x-ratelimit-remaining"));
  if (status === 200) {
    assert.ok(
      Number.isInteger(remaining) && remaining >= 0 && remaining < limit,
      `200 X-RateLimit-Remaining ${headers.get("x-ratelimit-remaining")}`,
    );
    assert.equal(headers.get("content-type"), "image/png");
    return;
  }
  assert.equal(answer.text, "Rate limit exceeded");
  assert.equal(headers.get("x-ratelimit-remaining"), "0", "429 X-RateLimit-Remaining");
  const retryAfter = headers.get("retry-after") ?? "";
  assert.match(retryAfter, /^[1-9][0-9]*$/, `429 Retry-After "${retryAfter}"`);
  // At most the seconds left when the request was sent (under load, asserting comes much later).
  const secondsLeft = windowEnd - Math.floor(sentAt / 1000);
  assert.ok(Number(retryAfter) <= secondsLeft + 1, `Retry-After ${retryAfter} > ${secondsLeft}`);
  assert.equal(headers.get("cache-control"), "no-store");
}
