/**
 * Stores a logo as rendition recipe 1 did (before `PIPELINE_VERSION` 2): renditions `source`,
 * `default` and, for a source wider than 256 px, `mid`, each made by its own `transform`, and
 * `pipeline: 1` — with real, reference-counted blobs, so `put` and `logo rerender` meet the
 * records an older store holds.
 *
 * @module
 */
import { transform, type TransformResult } from "../../imagecore/mod.ts";
import { BlobStore, type BlobWrite } from "../../src/store/blob_store.ts";
import { logoKey } from "../../src/store/keyspace.ts";
import { SOURCE_MIME } from "../../src/store/logo_ingest.ts";
import type { LogoRecord, Rendition } from "../../src/store/logo_store.ts";
import { probe } from "../../imagecore/mod.ts";
import { sha256Hex } from "../../src/store/sha256.ts";

/** Stores `bytes` as the recipe-1 logo of `domain` (which must have none yet); returns the record. */
export async function storeRecipeOneLogo(
  kv: Deno.Kv,
  domain: string,
  bytes: Uint8Array,
): Promise<LogoRecord> {
  const info = probe(bytes);
  const source = transform(bytes, { width: Math.min(info.width, 1200) });
  const made: Record<string, TransformResult> = {
    source,
    default: transform(source.bytes, { width: 128 }),
  };
  if (source.width > 256) made.mid = transform(source.bytes, { width: 256 });
  const renditions: Record<string, Rendition> = {};
  const blobs = new Map<string, BlobWrite>();
  for (const [name, out] of Object.entries(made)) {
    const hash = await sha256Hex(out.bytes);
    renditions[name] = {
      hash,
      type: "image/png",
      width: out.width,
      height: out.height,
      bytes: out.bytes.length,
    };
    blobs.set(hash, { hash, bytes: out.bytes });
  }
  const record: LogoRecord = {
    domain,
    hash: await sha256Hex(bytes),
    type: SOURCE_MIME[info.format],
    width: info.width,
    height: info.height,
    source: `file:${domain}.png`,
    createdAt: 1_000,
    updatedAt: 1_000,
    pipeline: 1,
    renditions,
  };
  const refs = await new BlobStore(kv).reference([...blobs.values()], []);
  if (refs === null) throw new Error("storeRecipeOneLogo: a blob changed meanwhile");
  const op = kv.atomic().check({ key: logoKey(domain), versionstamp: null }).set(
    logoKey(domain),
    record,
  );
  refs.apply(op);
  if (!(await op.commit()).ok) throw new Error(`storeRecipeOneLogo: ${domain} has a logo`);
  return record;
}
