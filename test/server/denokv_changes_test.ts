/**
 * Changes made with the admin CLI reach every instance, over a real `denokv` with three
 * `src/main.ts` processes: a key that every instance has just served (so each holds it in its key
 * cache) is refused with 401 everywhere within `KEY_CACHE_TTL_MS` of its revocation. Logo changes
 * travel by the change feed (`src/store/logo_change_feed.ts`), read once every `CHANGE_POLL_MS`:
 * a logo added for a domain every instance has just answered 404 for (each holds the absence), a
 * logo replaced and then removed while every instance holds its record, are seen everywhere
 * within `CHANGE_POLL_MS` and the margin — sooner than the 5-s record TTL they no longer wait for.
 */
import assert from "node:assert/strict";
import { KEY_CACHE_TTL_MS } from "../../src/http/authenticate.ts";
import { CHANGE_POLL_MS } from "../../src/store/logo_change_feed.ts";
import { denokv } from "../support/denokv.ts";
import {
  type Cluster,
  exchangeWithin,
  pollUntil,
  startCluster,
} from "../support/denokv_cluster.ts";
import { flatImage } from "../support/images.ts";

const INSTANCES = 3;
/** Allowance on top of a TTL or the feed's pause (its read, a request, the pause between two). */
const MARGIN_MS = 2_000;
/** Bound of each request: a hang fails the test. */
const ANSWER_WITHIN_MS = 10_000;
/** A limit no test here comes near, in the longest window. */
const KEY_OPTIONS = ["--limit", "1000000", "--window", String(31 * 24 * 3_600)];

interface CreatedKey {
  id: string;
  publishableKey: string;
}

Deno.test({
  name: "denokv: a revoked key, and an added, replaced and removed logo, reach every instance",
  ignore: denokv.ignore,
  async fn(t) {
    await using cluster = await startCluster(INSTANCES);
    const dir = await Deno.makeTempDir();
    try {
      const file = `${dir}/logo.png`;
      await Deno.writeFile(file, flatImage(48, 48, [200, 60, 20, 255]));
      await cluster.admin(["logo", "add", "changes.example", file]);
      await t.step("key revoked", () => revocation(cluster));
      await t.step("logo added", () => addition(cluster, file));
      const other = `${dir}/other.png`;
      await Deno.writeFile(other, flatImage(48, 48, [20, 60, 200, 255]));
      await t.step("logo replaced, then removed", () => replacement(cluster, other));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

async function revocation(cluster: Cluster): Promise<void> {
  const key = await cluster.admin<CreatedKey>(["key", "create", ...KEY_OPTIONS]);
  const path = `/changes.example?token=${key.publishableKey}`;
  for (let i = 0; i < INSTANCES; i++) {
    const before = await exchangeWithin(cluster.url(i, path), ANSWER_WITHIN_MS);
    assert.equal(before.status, 200, `instance ${i} before revocation: ${before.text}`);
  }

  await cluster.admin(["key", "revoke", key.id]);
  const deadline = KEY_CACHE_TTL_MS + MARGIN_MS;
  const refused = await Promise.all(
    cluster.instances.map((_, i) =>
      pollUntil(`instance ${i} refusing the revoked key`, deadline, async () => {
        const answer = await exchangeWithin(cluster.url(i, path), ANSWER_WITHIN_MS);
        if (answer.status === 401) {
          assert.equal(answer.text, "Missing or invalid token");
          return { done: answer.status };
        }
        assert.equal(answer.status, 200, `instance ${i} while revoking: ${answer.text}`);
        return { state: answer.status };
      })
    ),
  );
  console.log(`revoked key refused after ${ms(refused)} ms (instances 0–${INSTANCES - 1})`);
}

async function addition(cluster: Cluster, file: string): Promise<void> {
  const key = await cluster.admin<CreatedKey>(["key", "create", ...KEY_OPTIONS]);
  const path = `/added.example?token=${key.publishableKey}`;
  for (let i = 0; i < INSTANCES; i++) {
    const before = await exchangeWithin(cluster.url(i, path), ANSWER_WITHIN_MS);
    assert.equal(before.status, 404, `instance ${i} before the logo was added: ${before.text}`);
  }

  await cluster.admin(["logo", "add", "added.example", file]);
  const deadline = CHANGE_POLL_MS + MARGIN_MS;
  const served = await Promise.all(
    cluster.instances.map((_, i) =>
      pollUntil(`instance ${i} serving the added logo`, deadline, async () => {
        const answer = await exchangeWithin(cluster.url(i, path), ANSWER_WITHIN_MS);
        if (answer.status === 200) {
          assert.equal(answer.headers.get("content-type"), "image/png");
          assert.equal(answer.headers.get("x-logo-domain"), "added.example");
          return { done: answer.status };
        }
        assert.equal(answer.status, 404, `instance ${i} while adding: ${answer.text}`);
        return { state: answer.status };
      })
    ),
  );
  console.log(`added logo served after ${ms(served)} ms (instances 0–${INSTANCES - 1})`);
}

/** Every instance serves `changes.example`; it is replaced, then removed, and each sees both. */
async function replacement(cluster: Cluster, file: string): Promise<void> {
  const key = await cluster.admin<CreatedKey>(["key", "create", ...KEY_OPTIONS]);
  const path = `/changes.example?token=${key.publishableKey}`;
  const tags: string[] = [];
  for (let i = 0; i < INSTANCES; i++) {
    const before = await exchangeWithin(cluster.url(i, path), ANSWER_WITHIN_MS);
    assert.equal(before.status, 200, `instance ${i} before the replacement: ${before.text}`);
    tags.push(before.headers.get("etag")!);
  }
  assert.equal(new Set(tags).size, 1);
  const deadline = CHANGE_POLL_MS + MARGIN_MS;

  await cluster.admin(["logo", "add", "changes.example", file]);
  const replaced = await Promise.all(
    cluster.instances.map((_, i) =>
      pollUntil(`instance ${i} serving the replaced logo`, deadline, async () => {
        const answer = await exchangeWithin(cluster.url(i, path), ANSWER_WITHIN_MS);
        assert.equal(answer.status, 200, `instance ${i} while replacing: ${answer.text}`);
        const tag = answer.headers.get("etag")!;
        return tag === tags[0] ? { state: tag } : { done: tag };
      })
    ),
  );
  console.log(`replaced logo served after ${ms(replaced)} ms (instances 0–${INSTANCES - 1})`);

  await cluster.admin(["logo", "rm", "changes.example"]);
  const removed = await Promise.all(
    cluster.instances.map((_, i) =>
      pollUntil(`instance ${i} answering 404 for the removed logo`, deadline, async () => {
        const answer = await exchangeWithin(cluster.url(i, path), ANSWER_WITHIN_MS);
        if (answer.status === 404) return { done: answer.status };
        assert.equal(answer.status, 200, `instance ${i} while removing: ${answer.text}`);
        return { state: answer.status };
      })
    ),
  );
  console.log(`removed logo answered 404 after ${ms(removed)} ms (instances 0–${INSTANCES - 1})`);
}

/** The polls' durations, rounded, comma-separated. */
function ms(polls: { elapsedMs: number }[]): string {
  return polls.map((poll) => Math.round(poll.elapsedMs)).join(", ");
}
