/**
 * Step 4 of the request path, limit: counts the request against its key's rate limit (see
 * `rate_limiter.ts` for how that stays exact without a KV commit per request) and throws 429
 * `Rate limit exceeded` — with `Retry-After` in seconds and the `X-RateLimit-*` headers — when the
 * window's quota is spent.
 *
 * @example
 * ```ts
 * import { limitRequest } from "./limit_request.ts";
 * import { createRateLimiter } from "../limits/rate_limiter.ts";
 * import { KeyStore } from "../store/key_store.ts";
 *
 * const kv = await Deno.openKv(":memory:");
 * const limiter = createRateLimiter({ kv });
 * const { key } = await new KeyStore(kv).create({ plan: "free" });
 * const quota = await limitRequest(limiter, key); // quota.remaining, quota.reset
 * ```
 * @module
 */
import { HttpError } from "../http_error.ts";
import type { RateLimitDecision, RateLimiter } from "../limits/rate_limiter.ts";
import type { ApiKey } from "../store/key_store.ts";

/**
 * Counts one request for `key`.
 *
 * @returns the decision, for the `X-RateLimit-*` headers of the answer.
 * @throws {HttpError} 429 `Rate limit exceeded` over the limit; 503 when KV fails.
 */
export async function limitRequest(
  limiter: Pick<RateLimiter, "take">,
  key: Pick<ApiKey, "id" | "limit" | "window">,
): Promise<RateLimitDecision> {
  const decision = await limiter.take(key.id, key.limit, key.window);
  if (!decision.allowed) {
    throw new HttpError(429, "Rate limit exceeded", {
      "Retry-After": String(decision.retryAfter),
      "X-RateLimit-Limit": String(decision.limit),
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(decision.reset),
    });
  }
  return decision;
}
