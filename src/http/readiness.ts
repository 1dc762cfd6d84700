/**
 * The probes: `GET`/`HEAD /healthz` (liveness) and `/readyz` (readiness). Neither path can be a
 * domain (no dot), so they never shadow a logo; they take no token and are not rate limited.
 *
 * - `/healthz`: `200 ok` while the process answers requests at all.
 * - `/readyz`: `200 ok` when the store answers a KV read and takes a KV write, both within
 *   {@link READINESS_TIMEOUT_MS}, and, for a store file, the file at its path is still the one the
 *   server opened (`store/store_identity.ts`); else `503` with a one-line reason, e.g. "Store file
 *   /srv/x.kv was deleted (this server still serves the deleted copy); restore it and restart the
 *   server", or "Store write failed: the disk is full".
 *
 * Why a write: requests write too — the rate limiter commits a lease of quota to KV whenever its
 * local share runs out — so a store that reads but cannot write (a full disk: SQLite's "database
 * or disk is full") answers every keyed request `503` while a read-only probe says ready (issue
 * #30). The write is an atomic commit of the same kind as a lease (a set with no check), of one
 * key that it deletes in the same commit, so it leaves nothing in the store. It costs a commit, so
 * it is made at most once per {@link WRITE_PROBE_INTERVAL_MS}, whatever the rate of probes: within
 * that interval a probe reuses the last write's outcome (success or failure), and while a write
 * has not answered, later probes wait for that one (within their own time bound) instead of
 * starting another. A probe that is due for a write therefore sees a full disk, and a freed one,
 * at most one interval late. Readiness is probed rather than fed by the requests' own KV failures
 * because a server taken out of rotation gets no requests to learn from that it has recovered, and
 * one that gets none would say ready whatever its store does.
 *
 * Both answer plain text with `Cache-Control: no-store`. A change of readiness is logged once
 * (when it is found, i.e. on a `/readyz` request), not on every probe. Only the path is matched,
 * exactly: a query is ignored, `/healthz/` and `/HEALTHZ` are answered as before (404, 400).
 *
 * @example
 * ```ts
 * import { createProbes } from "./readiness.ts";
 * const kv = await Deno.openKv(":memory:");
 * const probes = createProbes({ kv });
 * const answer = probes.answer("GET", "http://localhost/readyz");
 * (await answer!).status; // 200
 * probes.answer("GET", "http://localhost/example.com"); // undefined: not a probe
 * kv.close();
 * ```
 * @module
 */
import { NO_STORE } from "./cache_policy.ts";
import { ANY_ORIGIN } from "./cors.ts";
import { requestTarget } from "./request_target.ts";
import { SingleFlight } from "../single_flight.ts";
import type { Log } from "./respond.ts";
import type { StoreCheck } from "../store/store_identity.ts";
import { INITIALIZED_KEY } from "../store/keyspace.ts";

/**
 * How long the readiness KV read and write (together) may take before the store counts as not
 * answering.
 */
export const READINESS_TIMEOUT_MS = 1_000;

/** At most one readiness write per this many ms; within it a probe reuses the last outcome. */
export const WRITE_PROBE_INTERVAL_MS = 5_000;

/**
 * The key of the readiness write: set and deleted in one commit, so never stored (not part of the
 * layout of `store/keyspace.ts`).
 */
const WRITE_PROBE_KEY: Deno.KvKey = Object.freeze(["readiness_probe"]);

/** What a KV write throws on a full disk: SQLite's SQLITE_FULL, or the OS's ENOSPC. */
const DISK_FULL = /database or disk is full|no space left on device|os error 28/i;

/** The liveness path. */
export const HEALTHZ_PATH = "/healthz";
/** The readiness path. */
export const READYZ_PATH = "/readyz";

/** What the probes are built from. */
export interface ProbeDeps {
  /** The store to read. */
  kv: Deno.Kv;
  /** The store file's identity check (`storeFileCheck`), for a file store; optional. */
  checkStore?: StoreCheck;
  /** Bound of the readiness KV read and write; default {@link READINESS_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Least time between two readiness writes; default {@link WRITE_PROBE_INTERVAL_MS}. */
  writeIntervalMs?: number;
  /** Milliseconds, for the write interval; default `performance.now`. */
  clock?: () => number;
  /** Where changes of readiness are reported; default `console.error`. */
  log?: Log;
}

/** The probes of one application. */
export interface Probes {
  /**
   * The answer to a `GET`/`HEAD` request for `url` (as `Deno.serve` builds it) when its path is a
   * probe's; `undefined` for every other path. Never rejects.
   */
  answer(method: string, url: string): Promise<Response> | undefined;
  /** `undefined` when ready, else the reason it is not. Concurrent calls share one KV read. */
  ready(): Promise<string | undefined>;
}

/** The outcome of a readiness read or write: a reason when not ready, and the error behind it. */
interface Outcome {
  reason?: string;
  error?: unknown;
}

/** Builds the probes. Opens nothing; starts no timers. */
export function createProbes(deps: ProbeDeps): Probes {
  const timeoutMs = deps.timeoutMs ?? READINESS_TIMEOUT_MS;
  const writeIntervalMs = deps.writeIntervalMs ?? WRITE_PROBE_INTERVAL_MS;
  const clock = deps.clock ?? (() => performance.now());
  const log = deps.log ?? console.error;
  const reads = new SingleFlight<"read", string | undefined>();
  let lastReason: string | undefined;
  /** The last write's outcome and when it was known; undefined before the first write. */
  let lastWrite: { at: number; outcome: Outcome } | undefined;
  /** The write under way, if any. */
  let pendingWrite: Promise<void> | undefined;

  /** Starts the readiness write; its outcome goes to `lastWrite` when it settles. */
  function startWrite(): Promise<void> {
    const settle = (outcome: Outcome) => {
      lastWrite = { at: clock(), outcome };
      pendingWrite = undefined;
    };
    let commit: Promise<unknown>;
    try {
      commit = deps.kv.atomic().set(WRITE_PROBE_KEY, true).delete(WRITE_PROBE_KEY).commit();
    } catch (error) {
      commit = Promise.reject(error);
    }
    return commit.then(
      () => settle({}),
      (error) => {
        const full = DISK_FULL.test(String((error as Error | undefined)?.message ?? error));
        settle({
          reason: full ? "Store write failed: the disk is full" : "Store write failed",
          error,
        });
      },
    );
  }

  /** The store's answer to a read, then (when one is due) to a write, by `late` at the latest. */
  async function probeStore(late: Promise<"late">): Promise<Outcome> {
    try {
      const read = await Promise.race([deps.kv.get(INITIALIZED_KEY), late]);
      if (read === "late") return { reason: `Store did not answer a read within ${timeoutMs} ms` };
    } catch (error) {
      return { reason: "Store read failed", error };
    }
    if (
      pendingWrite === undefined &&
      (lastWrite === undefined || clock() - lastWrite.at >= writeIntervalMs)
    ) {
      pendingWrite = startWrite();
    }
    if (pendingWrite !== undefined) {
      const written = await Promise.race([pendingWrite, late]);
      if (written === "late") {
        return { reason: `Store did not answer a write within ${timeoutMs} ms` };
      }
    }
    return lastWrite!.outcome;
  }

  async function check(): Promise<string | undefined> {
    let reason = deps.checkStore?.();
    let error: unknown;
    if (reason === undefined) {
      // One bound for the read and the write together: a probe answers within timeoutMs.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((resolve) => timer = setTimeout(resolve, timeoutMs, "late"));
      try {
        ({ reason, error } = await probeStore(late));
      } finally {
        clearTimeout(timer);
      }
    }
    if (reason !== lastReason) {
      if (reason === undefined) log("Ready again: the store answers");
      else if (error === undefined) log(`Not ready: ${reason}`);
      else log(`Not ready: ${reason}`, error);
      lastReason = reason;
    }
    return reason;
  }

  function ready(): Promise<string | undefined> {
    return reads.run("read", check);
  }

  return {
    ready,
    answer(method, url) {
      const probe = probePath(url);
      if (probe === undefined) return undefined;
      if (probe === HEALTHZ_PATH) return Promise.resolve(probeResponse(method, 200, "ok"));
      return ready().then(
        (reason) => probeResponse(method, reason === undefined ? 200 : 503, reason ?? "ok"),
        () => probeResponse(method, 503, "Readiness could not be checked"),
      );
    },
  };
}

/** {@link HEALTHZ_PATH} or {@link READYZ_PATH} when `url`'s path is exactly one of them. */
function probePath(url: string): string | undefined {
  const target = requestTarget(url);
  // Cheap refusal first: this runs before every request's own parsing.
  const second = target.charCodeAt(1);
  if (second !== 104 /* h */ && second !== 114 /* r */) return undefined;
  let end = target.length;
  for (let i = 1; i < target.length; i++) {
    const code = target.charCodeAt(i);
    if (code === 63 /* ? */ || code === 35 /* # */) {
      end = i;
      break;
    }
  }
  const path = target.slice(0, end);
  return path === HEALTHZ_PATH || path === READYZ_PATH ? path : undefined;
}

/** A plain-text probe answer that no cache keeps; `HEAD` gets the headers alone. */
function probeResponse(method: string, status: number, body: string): Response {
  const headers: [string, string][] = [...ANY_ORIGIN as [string, string][]];
  headers.push(
    ["cache-control", NO_STORE],
    ["x-content-type-options", "nosniff"],
    ["content-type", "text/plain; charset=utf-8"],
    ["content-length", String(new TextEncoder().encode(body).byteLength)],
  );
  return new Response(method === "HEAD" ? null : body, { status, headers });
}
