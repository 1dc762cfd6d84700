/**
 * Step 3 of the request path, restrict: a publishable key's origin allowlist and its
 * attribution requirement. Returns the origin to reflect in CORS, or throws 403.
 *
 * - Allowlist: with one, the request's `Origin` — or, when there is none (an `<img>` sends none),
 *   its `Referer` — must match an entry, else 403 `Domain not allowed`.
 * - Attribution: a key created with the attribution requirement answers 403
 *   `Attribution required` until attribution is recorded for it (`KeyStore.recordAttribution`).
 * - Secret keys are server credentials: neither restriction applies to them.
 *
 * @example
 * ```ts
 * import type { Credential } from "./authenticate.ts";
 * import { checkKeyRestrictions } from "./key_restrictions.ts";
 *
 * declare const credential: Credential; // what the authenticate step returned
 * const origin = checkKeyRestrictions(credential, { origin: "https://app.example.com", referer: null });
 * ```
 * @module
 */
import type { Credential } from "./authenticate.ts";
import { HttpError } from "../http_error.ts";
import { matchAllowlist } from "../store/allow_entry.ts";
import { attributionSatisfied } from "../store/key_store.ts";

/** The headers the restrictions look at. */
export interface RequestSource {
  /** The `Origin` header, or `null`. */
  readonly origin: string | null;
  /** The `Referer` header, or `null`. */
  readonly referer: string | null;
}

/**
 * Applies the key's restrictions to a request.
 *
 * @returns the matched origin to reflect in `Access-Control-Allow-Origin`, or `null` when the key
 * has no allowlist (any origin).
 * @throws {HttpError} 403 `Domain not allowed` or 403 `Attribution required`.
 */
export function checkKeyRestrictions(credential: Credential, source: RequestSource): string | null {
  if (credential.kind === "secret") return null;
  const { key } = credential;
  let allowedOrigin: string | null = null;
  if (key.allow.length > 0) {
    const hasOrigin = source.origin !== null && source.origin !== "null";
    allowedOrigin = matchAllowlist(key.allow, hasOrigin ? source.origin : source.referer);
    if (allowedOrigin === null) throw new HttpError(403, "Domain not allowed");
  }
  if (!attributionSatisfied(key)) throw new HttpError(403, "Attribution required");
  return allowedOrigin;
}
