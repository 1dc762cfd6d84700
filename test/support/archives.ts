/**
 * Shared by the archive tests: a store with keys of every kind and a few logos, an archive of it
 * in memory, and a dump of a whole store to compare before and after.
 *
 * @module
 */
import { writeArchive } from "../../src/store/archive_writer.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { flatImage, noiseImage } from "./images.ts";

/** The tokens given out for one key of {@link fillStore}. */
export interface IssuedKey {
  id: string;
  publishableKey: string;
  secretKey: string;
  revoked: boolean;
}

/** Domains {@link fillStore} gives logos. */
export const DOMAINS = ["acme.test", "blue.example.com", "wide.example.org"];

/** Fills `kv` with three keys (plain, allowlisted with attribution, revoked) and three logos. */
export async function fillStore(kv: Deno.Kv): Promise<IssuedKey[]> {
  const keys = new KeyStore(kv);
  const issued: IssuedKey[] = [];
  for (const options of [{}, { plan: "pro", allow: ["example.com"], attribution: true }, {}]) {
    const { key, secretKey } = await keys.create(options);
    issued.push({ id: key.id, publishableKey: key.publishableKey, secretKey, revoked: false });
  }
  await keys.recordAttribution(issued[1].id, "https://example.com/credits");
  await keys.revoke(issued[2].id);
  issued[2].revoked = true;
  const logos = new LogoStore(kv);
  await logos.put(DOMAINS[0], flatImage(64, 64, [200, 30, 30, 255]), { source: "file:acme.png" });
  await logos.put(DOMAINS[1], noiseImage(300, 120, 7), { source: "https://blue.example.com/i" });
  // Same bytes as another domain: one shared blob in the source store.
  await logos.put(DOMAINS[2], flatImage(64, 64, [200, 30, 30, 255]), { source: "demo" });
  return issued;
}

/** The archive of `kv`, as bytes. */
export async function archiveOf(kv: Deno.Kv): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  await writeArchive(kv, new WritableStream({ write: (chunk) => void chunks.push(chunk) }));
  return concat(chunks);
}

/** Joins byte arrays. */
export function concat(chunks: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** An `open` for the importer that streams `bytes`. */
export function opener(bytes: Uint8Array<ArrayBuffer>) {
  return () => Promise.resolve(ReadableStream.from([bytes]));
}

/** gzip of `text`. */
export async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = ReadableStream.from([new TextEncoder().encode(text)])
    .pipeThrough(new CompressionStream("gzip"));
  return concat(await Array.fromAsync(stream));
}

/** The decompressed text of an archive. */
export async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const stream = ReadableStream.from([bytes]).pipeThrough(new DecompressionStream("gzip"));
  return new TextDecoder().decode(concat(await Array.fromAsync(stream)));
}

/** Every entry of `kv`, keys and values, for comparing a store before and after. */
export async function dump(kv: Deno.Kv): Promise<[Deno.KvKey, unknown][]> {
  const entries: [Deno.KvKey, unknown][] = [];
  for await (const entry of kv.list({ prefix: [] })) entries.push([entry.key, entry.value]);
  return entries;
}
