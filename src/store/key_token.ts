/**
 * API key tokens: `pk_` (publishable, safe in a web page) or `sk_` (secret, server side) followed
 * by 24 base62 characters drawn from `crypto.getRandomValues` — about 143 bits of entropy.
 *
 * @example
 * ```ts
 * import { generateToken, isPublishableKey } from "./key_token.ts";
 * const pk = generateToken("pk_");
 * isPublishableKey(pk); // true
 * ```
 * @module
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Largest multiple of 62 that fits a byte: bytes at or above it are rejected, so no bias. */
const UNBIASED_LIMIT = 248;

/** Random characters after the prefix: 24 × log2(62) ≈ 142.9 bits. */
export const TOKEN_BODY_LENGTH = 24;

const PUBLISHABLE = /^pk_[0-9A-Za-z]{24}$/;
const SECRET = /^sk_[0-9A-Za-z]{24}$/;

/** Returns `length` uniformly random base62 characters from `crypto.getRandomValues`. */
export function randomBase62(length: number): string {
  let out = "";
  const buffer = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(buffer);
    for (const byte of buffer) {
      if (byte < UNBIASED_LIMIT) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Returns a fresh token: `prefix` followed by {@link TOKEN_BODY_LENGTH} random base62 characters. */
export function generateToken(prefix: "pk_" | "sk_"): string {
  return prefix + randomBase62(TOKEN_BODY_LENGTH);
}

/** Whether `token` is shaped like a publishable key (`pk_` + 24 base62 characters). */
export function isPublishableKey(token: unknown): token is string {
  return typeof token === "string" && PUBLISHABLE.test(token);
}

/** Whether `token` is shaped like a secret key (`sk_` + 24 base62 characters). */
export function isSecretKey(token: unknown): token is string {
  return typeof token === "string" && SECRET.test(token);
}

/**
 * Compares two strings in time that depends only on their lengths, never on where they differ.
 * Use it for every comparison involving a key.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) {
    diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  }
  return diff === 0;
}
