/**
 * The default answer of a logo whose record holds its bytes (the 128-px `default` rendition inlined
 * by `src/store/inline_rendition.ts`), kept on the record itself: one object per cached record,
 * holding the one copy of the image the process keeps, from its first answer on.
 *
 * Deno's `Response` constructor copies a `Uint8Array` body, while `clone()` shares it; `respond.ts`
 * answers a prepared variant with clones of one body `Response`. Kept in the variant cache, a
 * default answer therefore held three copies of its image: the record's bytes, the variant's (the
 * same array) and the body's — counted once by the record cache and twice more by the variant cache,
 * about 19 KB per logo against two budgets. Here the bytes move into the body at the first answer
 * and the record lets go of them, so a cached logo costs its record, one copy of its image and a
 * few small objects, all counted by the record cache (`recordCacheBytes` of `resolve_logo.ts`): about twice as many logos fit the same memory (issue 34 §2). The answer lives
 * exactly as long as its record is cached: a changed logo is a new record, with its own answer.
 *
 * A render that starts from the `default` rendition afterwards (another size, greyscale, a theme)
 * reads the bytes back from the body ({@link storedBytes}); the source cache keeps them then.
 *
 * @example
 * ```ts
 * import { storedAnswer, storedBytes } from "./stored_answer.ts";
 * const rendition = {
 *   hash: "ab".repeat(32),
 *   type: "image/png",
 *   width: 128,
 *   height: 128,
 *   bytes: 3,
 *   data: new Uint8Array([1, 2, 3]),
 * };
 * const answer = storedAnswer(rendition, '"v2-abab"'); // rendition.data is gone: a body holds it
 * await storedBytes(rendition); // Uint8Array [1, 2, 3]
 * ```
 * @module
 */
import type { Rendition } from "../store/logo_record.ts";
import type { TaggedVariant } from "./variant_cache.ts";

/** A default answer kept on its record: its bytes as a `Response` body, and what to send with it. */
export interface StoredAnswer {
  /** A `Response` whose body is the image, without headers: answers are clones of it. */
  readonly body: Response;
  /** Length of the image in bytes. */
  readonly byteLength: number;
  /** Exact `Content-Type`, e.g. `image/png`. */
  readonly contentType: string;
  /** Strong `ETag`, quoted. */
  readonly etag: string;
  /** Width of the image in px. */
  readonly width: number;
  /** Height of the image in px. */
  readonly height: number;
}

/**
 * What a stored answer adds to the memory of its record besides the image (which moves into it):
 * its body `Response`, a prepared response or two and their headers — about 2.6 KB measured, with
 * one prepared response; counted as 3 KiB by the record cache for every record that can have one.
 */
export const STORED_ANSWER_OVERHEAD_BYTES = 3 * 1024;

/** Where a rendition keeps its answer: a property under this module's symbol (not a `WeakMap`). */
const STORED = Symbol("stored answer");

type Holder = Rendition & { [STORED]?: StoredAnswer };

/**
 * The answer of `rendition`'s inline bytes under `etag`: from its first answer on, the stored
 * answer — the bytes move into its body and `rendition.data` is cleared. Made at the first answer,
 * not the second: the `Response` constructor's copy is made once either way, and an answer made
 * of the bytes as they are, not kept, copied them once more at the second answer and dropped that
 * first copy (bench/results/2026-12-02-lookup-garbage.md). A frozen rendition keeps its bytes and
 * answers them as they are each time. `undefined` when the rendition holds no bytes, or its answer
 * was made under another tag (the caller renders as for any variant then).
 */
export function storedAnswer(
  rendition: Rendition,
  etag: string,
): StoredAnswer | TaggedVariant | undefined {
  const holder = rendition as Holder;
  const held = holder[STORED];
  if (held !== undefined) return held.etag === etag ? held : undefined;
  const data = rendition.data;
  if (data === undefined) return undefined;
  const { type: contentType, width, height } = rendition;
  if (!Object.isExtensible(holder)) return { bytes: data, contentType, etag, width, height };
  const answer: StoredAnswer = {
    body: new Response(data as Uint8Array<ArrayBuffer>, { status: 200 }),
    byteLength: data.byteLength,
    contentType,
    etag,
    width,
    height,
  };
  holder[STORED] = answer;
  rendition.data = undefined;
  return answer;
}

/** Whether `rendition` holds its answer under `etag` already. */
export function hasStoredAnswer(rendition: Rendition, etag: string): boolean {
  const held = (rendition as Holder)[STORED];
  return held !== undefined && held.etag === etag;
}

/**
 * The bytes that moved into `rendition`'s answer, read back: the body's own buffer (Deno's
 * `clone().bytes()` of a body made from bytes shares them), so a reader must neither write nor
 * transfer them; `undefined` if none moved.
 */
export function storedBytes(rendition: Rendition): Promise<Uint8Array> | undefined {
  return (rendition as Holder)[STORED]?.body.clone().bytes();
}
