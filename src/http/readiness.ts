/**
 * The probes: `GET`/`HEAD /healthz` (liveness) and `/readyz` (readiness). Neither path can be a
 * domain (no dot), so they never shadow a logo; they take no token and are not rate limited.
 *
 * - `/healthz`: `200 ok` while the process answers requests at all.
 * - `/readyz`: `200 ok` when the store answers a KV read within {@link READINESS_TIMEOUT_MS}
 *   and, for a store file, the file at its path is still the one the server opened
 *   (`store/store_identity.ts`); else `503` with a one-line reason, e.g. "Store file /srv/x.kv
 *   was deleted (this server still serves the deleted copy); restore it and restart the server".
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

/** How long the readiness KV read may take before the store counts as not answering. */
export const READINESS_TIMEOUT_MS = 1_000;

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
  /** Bound of the readiness KV read; default {@link READINESS_TIMEOUT_MS}. */
  timeoutMs?: number;
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

/** Builds the probes. Opens nothing; starts no timers. */
export function createProbes(deps: ProbeDeps): Probes {
  const timeoutMs = deps.timeoutMs ?? READINESS_TIMEOUT_MS;
  const log = deps.log ?? console.error;
  const reads = new SingleFlight<"read", string | undefined>();
  let lastReason: string | undefined;

  async function readStore(): Promise<{ reason?: string; error?: unknown }> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => timer = setTimeout(resolve, timeoutMs, "late"));
    try {
      const outcome = await Promise.race([deps.kv.get(INITIALIZED_KEY), late]);
      if (outcome === "late") {
        return { reason: `Store did not answer a read within ${timeoutMs} ms` };
      }
      return {};
    } catch (error) {
      return { reason: "Store read failed", error };
    } finally {
      clearTimeout(timer);
    }
  }

  async function check(): Promise<string | undefined> {
    let reason = deps.checkStore?.();
    let error: unknown;
    // The store read is the one any key does; INITIALIZED_KEY is small and always the same.
    if (reason === undefined) ({ reason, error } = await readStore());
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
