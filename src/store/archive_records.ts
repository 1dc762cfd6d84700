/**
 * The field checks of a backup archive's key and logo lines (`archive_format.ts`): each field of an
 * `ApiKey` or `LogoRecord` has the type and range the store's own code gives it, and every error
 * names the line and the field.
 *
 * @example
 * ```ts
 * import { ArchiveError, checkKey } from "./archive_records.ts";
 * try {
 *   checkKey({ id: "nope" }, "line 2: key");
 * } catch (error) {
 *   error instanceof ArchiveError; // true: "Cannot read archive: line 2: key.id "nope" is not a key id"
 * }
 * ```
 * @module
 */
import { normalizeDomain } from "../domain_name.ts";
import { normalizeAllowEntry } from "./allow_entry.ts";
import type { ApiKey } from "./key_store.ts";
import { isPublishableKey } from "./key_token.ts";
import type { LogoRecord, Rendition } from "./logo_store.ts";
import { CUSTOM_PLAN, LIMIT_BOUNDS, PLANS, WINDOW_BOUNDS } from "./plans.ts";

/** An archive that cannot be imported: the message says where and why. */
export class ArchiveError extends Error {
  /**
   * Creates the error, e.g. "Cannot read archive: line 3: key.limit is not a whole number…"; with
   * `action` "import", for an entry that is well formed but refused, "Cannot import archive: …".
   */
  constructor(message: string, action: "read" | "import" = "read") {
    super(`Cannot ${action} archive: ${message}`);
    this.name = "ArchiveError";
  }
}

/**
 * Most renditions one logo may carry (today's recipe makes two or three). Restoring a logo checks
 * its record and each image it adds or drops in one commit: 1 + 4 + 4 stays within KV's 10 checks.
 */
export const MAX_RENDITIONS = 4;

const HEX64 = /^[0-9a-f]{64}$/;
const KEY_ID = /^key_[0-9A-Za-z]{16}$/;

/**
 * The API key in a key line, every field checked.
 *
 * @throws {ArchiveError} naming `at` and the field.
 */
export function checkKey(k: Record<string, unknown>, at: string): ApiKey {
  const id = text(k.id, at, "id");
  if (!KEY_ID.test(id)) throw new ArchiveError(`${at}.id "${id}" is not a key id`);
  if (!isPublishableKey(k.publishableKey)) {
    throw new ArchiveError(`${at}.publishableKey is not a publishable key (pk_…)`);
  }
  const plan = text(k.plan, at, "plan");
  if (plan !== CUSTOM_PLAN && !Object.hasOwn(PLANS, plan)) {
    throw new ArchiveError(`${at}.plan "${plan}" is not a plan of this version`);
  }
  const allow = array(k.allow, at, "allow").map((entry) => {
    let normal: string | undefined;
    try {
      normal = normalizeAllowEntry(entry as string);
    } catch { /* reported below */ }
    if (normal === undefined || normal !== entry) {
      throw new ArchiveError(`${at}.allow has an invalid entry`);
    }
    return normal;
  });
  const key: ApiKey = {
    id,
    publishableKey: k.publishableKey,
    secretKeyHash: hex(k.secretKeyHash, at, "secretKeyHash"),
    plan,
    limit: bounded(k.limit, at, "limit", LIMIT_BOUNDS),
    window: bounded(k.window, at, "window", WINDOW_BOUNDS),
    allow,
    attribution: flag(k.attribution, at, "attribution"),
    revoked: flag(k.revoked, at, "revoked"),
    createdAt: whole(k.createdAt, at, "createdAt"),
  };
  if (k.attributionUrl !== undefined) {
    key.attributionUrl = text(k.attributionUrl, at, "attributionUrl");
  }
  if (k.attributionRecordedAt !== undefined) {
    key.attributionRecordedAt = whole(k.attributionRecordedAt, at, "attributionRecordedAt");
  }
  if (k.revokedAt !== undefined) key.revokedAt = whole(k.revokedAt, at, "revokedAt");
  return key;
}

/**
 * The logo record in a logo line, every field checked (its images are checked by the caller).
 *
 * @throws {ArchiveError} naming `at` and the field.
 */
export function checkRecord(r: Record<string, unknown>, at: string): LogoRecord {
  const domain = text(r.domain, at, "domain");
  if (normalizeDomain(domain) !== domain) {
    throw new ArchiveError(`${at}.domain "${domain}" is not a normalised domain`);
  }
  const renditions: Record<string, Rendition> = {};
  const given = object(r.renditions, `${at}.renditions`);
  const names = Object.keys(given);
  if (!names.includes("default") || names.length > MAX_RENDITIONS) {
    throw new ArchiveError(`${at}.renditions must hold "default" and at most ${MAX_RENDITIONS}`);
  }
  for (const name of names) {
    const where = `${at}.renditions.${name}`;
    const x = object(given[name], where);
    renditions[name] = {
      hash: hex(x.hash, where, "hash"),
      type: text(x.type, where, "type"),
      width: whole(x.width, where, "width"),
      height: whole(x.height, where, "height"),
      bytes: whole(x.bytes, where, "bytes"),
    };
  }
  return {
    domain,
    hash: hex(r.hash, at, "hash"),
    type: text(r.type, at, "type"),
    width: whole(r.width, at, "width"),
    height: whole(r.height, at, "height"),
    source: text(r.source, at, "source"),
    createdAt: whole(r.createdAt, at, "createdAt"),
    updatedAt: whole(r.updatedAt, at, "updatedAt"),
    pipeline: whole(r.pipeline, at, "pipeline"),
    renditions,
  };
}

/**
 * `value` as a JSON object.
 *
 * @throws {ArchiveError} "… is not a JSON object".
 */
export function object(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ArchiveError(`${at} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

function array(value: unknown, at: string, field: string): unknown[] {
  if (!Array.isArray(value)) throw new ArchiveError(`${at}.${field} is not a list`);
  return value;
}

function text(value: unknown, at: string, field: string): string {
  if (typeof value !== "string" || value === "") {
    throw new ArchiveError(`${at}.${field} is not a non-empty string`);
  }
  return value;
}

/**
 * `value` as a SHA-256 in hex.
 *
 * @throws {ArchiveError} "….field is not a SHA-256 in hex".
 */
export function hex(value: unknown, at: string, field: string): string {
  if (typeof value !== "string" || !HEX64.test(value)) {
    throw new ArchiveError(`${at}.${field} is not a SHA-256 in hex`);
  }
  return value;
}

function flag(value: unknown, at: string, field: string): boolean {
  if (typeof value !== "boolean") throw new ArchiveError(`${at}.${field} is not true or false`);
  return value;
}

/**
 * `value` as a whole number from 0.
 *
 * @throws {ArchiveError} "….field is not a whole number".
 */
export function whole(value: unknown, at: string, field: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw new ArchiveError(`${at}.${field} is not a whole number`);
  }
  return value as number;
}

function bounded(
  value: unknown,
  at: string,
  field: string,
  bounds: { min: number; max: number },
): number {
  const n = whole(value, at, field);
  if (n < bounds.min || n > bounds.max) {
    throw new ArchiveError(`${at}.${field} is not from ${bounds.min} to ${bounds.max}`);
  }
  return n;
}
