/**
 * Logo record reads for the request path, batched under load: what `LogoStore.get` reads, with
 * concurrent reads gathered into one `kv.getMany` of up to {@link RECORD_BATCH_KEYS} keys.
 *
 * A record read not in memory was one `kv.get` per request, and a local store's reads run one at a
 * time on its SQLite thread, each paying a transaction and an op of its own. Under load, reads of
 * many domains wait there at once. Here at most {@link RECORD_READS_IN_FLIGHT} reads run at a time;
 * the domains asked for meanwhile wait and go together in the next `getMany`, and a full batch
 * starts at once whatever is in flight (so a distant store, denokv over a network, never has its
 * reads capped). A lone read, the usual case on a quiet server, is still a plain `kv.get` of
 * `["logos", domain]` that starts at once. On the 100,000-logo lookup store, a key read in batches
 * of 10 cost about 90 µs of CPU against 115–154 µs alone (issue 34,
 * bench/results/2026-12-01-store-lookup-zipf.md).
 *
 * Every read is strongly consistent, as `kv.get`'s default; a failed call fails each read of its
 * batch with its error.
 *
 * @example
 * ```ts
 * import { batchedRecordReads } from "./batched_record_reads.ts";
 * const reads = batchedRecordReads(await Deno.openKv(":memory:"));
 * const [a, b] = await Promise.all([reads.get("a.example"), reads.get("b.example")]); // null, null
 * ```
 * @module
 */
import { logoRecordKey } from "./keyspace.ts";
import type { LogoType } from "../sdk/logo_options.ts";
import type { LogoRecord } from "./logo_record.ts";

/** Most keys in one read: `kv.getMany`'s limit. */
export const RECORD_BATCH_KEYS = 10;

/** Reads in flight before the next domains wait to form a batch. */
export const RECORD_READS_IN_FLIGHT = 4;

/** The record read of `LogoStore.get`, batched. */
export interface RecordReads {
  /** The record of `domain`'s image of type `type` (default `icon`), or `null`: `LogoStore.get`'s. */
  get(domain: string, type?: LogoType): Promise<LogoRecord | null>;
}

interface Waiting {
  readonly key: Deno.KvKey;
  readonly resolve: (record: LogoRecord | null) => void;
  readonly reject: (error: unknown) => void;
}

/** Batched record reads over `kv`; see the module documentation. */
export function batchedRecordReads(
  kv: Pick<Deno.Kv, "get" | "getMany">,
  inFlightLimit = RECORD_READS_IN_FLIGHT,
): RecordReads {
  let waiting: Waiting[] = [];
  let inFlight = 0;

  async function read(batch: Waiting[]): Promise<void> {
    try {
      if (batch.length === 1) {
        batch[0].resolve((await kv.get<LogoRecord>(batch[0].key)).value);
        return;
      }
      const entries = await kv.getMany<LogoRecord[]>(batch.map((w) => w.key));
      for (let i = 0; i < batch.length; i++) batch[i].resolve(entries[i].value);
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }

  function start(): void {
    while (
      waiting.length >= RECORD_BATCH_KEYS || (waiting.length > 0 && inFlight < inFlightLimit)
    ) {
      let batch: Waiting[];
      if (waiting.length <= RECORD_BATCH_KEYS) {
        batch = waiting;
        waiting = [];
      } else {
        batch = waiting.splice(0, RECORD_BATCH_KEYS);
      }
      inFlight++;
      read(batch).finally(() => {
        inFlight--;
        start();
      });
    }
  }

  return {
    get(domain, type = "icon") {
      const key = logoRecordKey(type, domain);
      return new Promise((resolve, reject) => {
        waiting.push({ key, resolve, reject });
        start();
      });
    },
  };
}
