/**
 * A `denokv` outage under three `src/main.ts` processes, and its end. With denokv killed
 * (SIGKILL, as a crash), on every instance: the request each has just served (same key, domain
 * and size, so key, logo record, rendering and quota are all in its memory) is still a 200; a
 * request that needs KV — a domain never asked for, or a key never seen — is a 503 with
 * `Retry-After`, never a 500 and never a hang (each request is bounded). With denokv restarted on
 * the same port and file, every instance serves such requests again without being restarted.
 */
import assert from "node:assert/strict";
import { denokv } from "../support/denokv.ts";
import {
  type Cluster,
  exchangeWithin,
  pollUntil,
  startCluster,
} from "../support/denokv_cluster.ts";
import { flatImage } from "../support/images.ts";

const INSTANCES = 3;
/** Bound of each request: a request path KV read gives up after 2 s, so 10 s is a hang. */
const ANSWER_WITHIN_MS = 10_000;
/** How long every instance has to serve uncached requests again after denokv is back. */
const RECOVERY_DEADLINE_MS = 30_000;
/** A limit no test here comes near, in the longest window. */
const KEY_OPTIONS = ["--limit", "1000000", "--window", String(31 * 24 * 3_600)];

Deno.test({
  name: "denokv: killed → cached requests 200, uncached 503 + Retry-After; restarted → recovered",
  ignore: denokv.ignore,
  async fn() {
    await using cluster = await startCluster(INSTANCES);
    const dir = await Deno.makeTempDir();
    try {
      const file = `${dir}/logo.png`;
      await Deno.writeFile(file, flatImage(64, 64, [30, 160, 90, 255]));
      // Stored before the outage; each instance asks for a different pair of them during it.
      const domains = ["cached.example", ...cluster.instances.map((_, i) => `cold${i}.example`)];
      for (const domain of domains) await cluster.admin(["logo", "add", domain, file]);
      const key = await createKey(cluster);
      const coldKeys = await Promise.all(cluster.instances.map(() => createKey(cluster)));

      const cached = `/cached.example?size=32&token=${key}`;
      for (let i = 0; i < INSTANCES; i++) {
        const warm = await exchangeWithin(cluster.url(i, cached), ANSWER_WITHIN_MS);
        assert.equal(warm.status, 200, `instance ${i} before the outage: ${warm.text}`);
      }

      await cluster.kv.kill();
      const during = await Promise.all(cluster.instances.map(async (_, i) => {
        // The cached request first: the key cache holds the key for 5 s from the warm-up.
        const hit = await exchangeWithin(cluster.url(i, cached), ANSWER_WITHIN_MS);
        assert.equal(hit.status, 200, `instance ${i}, cached request, KV down: ${hit.text}`);
        assert.equal(hit.headers.get("content-type"), "image/png");
        const started = performance.now();
        const [coldDomain, coldKey] = await Promise.all([
          exchangeWithin(cluster.url(i, `/cold${i}.example?token=${key}`), ANSWER_WITHIN_MS),
          exchangeWithin(
            cluster.url(i, `/cached.example?size=32&token=${coldKeys[i]}`),
            ANSWER_WITHIN_MS,
          ),
        ]);
        for (const [what, answer] of [["new domain", coldDomain], ["new key", coldKey]] as const) {
          const where = `instance ${i}, ${what}, KV down`;
          assert.equal(answer.status, 503, `${where}: ${answer.status} ${answer.text}`);
          assert.equal(answer.text, "Service unavailable", where);
          assert.match(answer.headers.get("retry-after") ?? "", /^[1-9][0-9]*$/, where);
          assert.equal(answer.headers.get("cache-control"), "no-store", where);
        }
        return performance.now() - started;
      }));

      await cluster.kv.restart();
      const recovered = await Promise.all(
        cluster.instances.map((_, i) =>
          pollUntil(`instance ${i} serving uncached requests`, RECOVERY_DEADLINE_MS, async () => {
            // Both were refused during the outage, and a failed KV read is never cached.
            const answer = await exchangeWithin(
              cluster.url(i, `/cold${i}.example?token=${coldKeys[i]}`),
              ANSWER_WITHIN_MS,
            );
            if (answer.status === 200) return { done: answer.status };
            assert.equal(answer.status, 503, `instance ${i} after the restart: ${answer.text}`);
            return { state: answer.status };
          })
        ),
      );
      console.log(
        `KV down: 503s answered in ${during.map(Math.round).join(", ")} ms; ` +
          `KV back: every instance serving in ${
            recovered.map((r) => Math.round(r.elapsedMs)).join(", ")
          } ms`,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** Creates a key with the admin CLI; its publishable token. */
async function createKey(cluster: Cluster): Promise<string> {
  const key = await cluster.admin<{ publishableKey: string }>(["key", "create", ...KEY_OPTIONS]);
  return key.publishableKey;
}
