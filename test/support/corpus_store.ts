/** The keys and logos the malformed-request corpus (test/fixtures/malformed_requests/) refers to. */
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { flatImage } from "./images.ts";

/**
 * Creates the keys and logos the corpus refers to in the KV store at `path`; returns the values of
 * the corpus's placeholders (`{pk}`, `{sk}`, `{pkAllow}`, `{pkAttr}`, `{pkRevoked}`, `{skRevoked}`).
 */
export async function prepareCorpusStore(path: string): Promise<Record<string, string>> {
  const kv = await Deno.openKv(path);
  try {
    const keys = new KeyStore(kv);
    const logos = new LogoStore(kv);
    const many = { limit: 1_000_000, window: 3600 };
    const plain = await keys.create(many);
    const allow = await keys.create({ ...many, allow: ["https://app.example.com"] });
    const attribution = await keys.create({ ...many, attribution: true });
    const revoked = await keys.create(many);
    await keys.revoke(revoked.key.id);
    await logos.put("example.com", flatImage(160, 80, [0, 120, 200, 255]), { source: "test" });
    await logos.put("example.org", flatImage(40, 40, [200, 0, 0, 255]), { source: "test" });
    await logos.put("xn--bcher-kva.de", flatImage(64, 64, [0, 160, 0, 255]), { source: "test" });
    return {
      pk: plain.key.publishableKey,
      sk: plain.secretKey,
      pkAllow: allow.key.publishableKey,
      pkAttr: attribution.key.publishableKey,
      pkRevoked: revoked.key.publishableKey,
      skRevoked: revoked.secretKey,
    };
  } finally {
    kv.close();
  }
}
