/**
 * Shared by the archive tests: a store with keys of every kind and a few logos, an archive of it
 * in memory, and a dump of a whole store to compare before and after.
 *
 * @module
 */
import { endLine } from "../../src/store/archive_format.ts";
import { writeArchive } from "../../src/store/archive_writer.ts";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import { sha256Hex } from "../../src/store/sha256.ts";
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

/** The lines of an archive, decompressed: header first, the end line last. */
export async function archiveLines(bytes: Uint8Array<ArrayBuffer>): Promise<string[]> {
  return (await gunzip(bytes)).trimEnd().split("\n");
}

/**
 * An archive of `lines` (an archive's lines, edited) with an end line that checks out — counts
 * and checksum recomputed, any end line in `lines` dropped —, as someone crafting an archive makes
 * one: the reader's format checks all pass.
 */
export async function sealArchive(lines: string[]): Promise<Uint8Array<ArrayBuffer>> {
  const body = lines.filter((line) => JSON.parse(line).type !== "end");
  const count = (type: string) => body.filter((line) => JSON.parse(line).type === type).length;
  const text = body.map((line) => `${line}\n`).join("");
  const sha256 = await sha256Hex(text);
  return gzip(`${text}${endLine(count("key"), count("logo"), sha256)}\n`);
}

/**
 * A logo line with the image of rendition `name` replaced by `bytes` (its hash, length and blob
 * updated; its width and height kept unless given).
 */
export async function withRendition(
  line: string,
  name: string,
  bytes: Uint8Array,
  size: { width?: number; height?: number } = {},
): Promise<string> {
  const logo = JSON.parse(line);
  const rendition = logo.record.renditions[name];
  const others = Object.entries(logo.record.renditions as Record<string, { hash: string }>)
    .filter(([other, r]) => other !== name && r.hash === rendition.hash);
  if (others.length === 0) delete logo.blobs[rendition.hash];
  const hash = await sha256Hex(bytes);
  logo.record.renditions[name] = { ...rendition, ...size, hash, bytes: bytes.length };
  logo.blobs[hash] = bytes.toBase64();
  return JSON.stringify(logo);
}
