/**
 * How `logo discover` shows a discovery outcome: the outcome's fields, with `meaning` (what the
 * `status` word means, in a sentence), `retryAt` as an ISO-8601 time (not epoch milliseconds), and
 * for a site that could not be reached `check` (what to look at). The home page's error is shown
 * once: under `reason` when it is the reason. `wordmark` says what became of the domain's wordmark
 * (`status` and its `meaning`, the stored one's `source`, `retryAt`, `reason`) and, when the
 * search found one, `found`: its `source`, `kind`, `format`, `width`, `height`, `bytes` (its
 * length) and `why`, not its bytes.
 *
 * @module
 */
import type {
  DiscoveryOutcome,
  FoundWordmark,
  WordmarkOutcome,
  WordmarkStatus,
} from "../discovery/discover.ts";
import { isoTime } from "./io.ts";

/** Each discovery `status`, said for a reader of the CLI's JSON. */
export const STATUS_MEANING: Readonly<Record<DiscoveryOutcome["status"], string>> = {
  stored: "a logo was found on the site and stored",
  unchanged: "the logo found is the one already stored",
  kept: "the stored logo was kept: nothing better was found",
  fresh:
    "a logo discovered less than 30 days ago is stored; it is not looked for (--force looks again)",
  operator:
    "a logo added by an operator (logo add / import) is stored; discovery leaves it (--force replaces it)",
  "known-missing":
    "no logo was found recently; nothing fetched before retryAt (--force looks again)",
  "not-found": "no usable logo was found; discovery looks again after retryAt",
};

/** Each wordmark `status`, said for a reader of the CLI's JSON. */
export const WORDMARK_MEANING: Readonly<Record<WordmarkStatus, string>> = {
  stored: "a wordmark was found on the site and stored",
  unchanged: "the wordmark found is the one already stored",
  kept: "the stored wordmark was kept: the site shows none now",
  operator:
    "a wordmark added by an operator (logo add --type logo) is stored; discovery leaves it (--force replaces it)",
  fresh:
    "a wordmark discovered less than 30 days ago is stored; not looked for (--force looks again)",
  "known-missing":
    "no wordmark was found recently; not looked for before retryAt (--force looks again)",
  none: "the site shows no wordmark; type=logo answers the icon; looked for again after retryAt",
  error: "reading or storing the wordmark failed (see reason); the icon's outcome is not affected",
};

/**
 * What to check after a failure, by the words of its reason (`pin_address.ts`, `safe_fetch_error.ts`
 * write them); `undefined` when the site answered.
 *
 * @example
 * ```ts
 * whatToCheck("Cannot resolve acme.com: DNS failure: no answer from the DNS server in time");
 * ```
 */
export function whatToCheck(reason: string | undefined): string | undefined {
  if (reason === undefined) return undefined;
  if (/Cannot resolve|DNS failure/.test(reason)) {
    return "check this machine's network connection and DNS server " +
      "(LOGO_DNS_SERVER if set, else the system's resolver)";
  }
  if (/TLS handshake/.test(reason)) {
    return "check the site's certificate, or DENO_CERT for a private CA";
  }
  if (/time budget exhausted|timed out/i.test(reason)) {
    return "check that outbound HTTP(S) is allowed (firewall, proxy) and the site is up";
  }
  if (/refused/i.test(reason)) {
    return "check that the site is up and LOGO_CONNECT_TO, if set";
  }
  return undefined;
}

/**
 * The JSON `logo discover` prints for `outcome`.
 *
 * @example
 * ```ts
 * discoverView({ domain: "acme.com", status: "operator", tried: [] }).meaning;
 * ```
 */
export function discoverView(outcome: DiscoveryOutcome): Record<string, unknown> {
  const { retryAt, pageError, reason, wordmark, wordmarkOutcome, ...rest } = outcome;
  const check = outcome.failure === "unreachable" ? whatToCheck(reason ?? pageError) : undefined;
  return {
    ...rest,
    meaning: STATUS_MEANING[outcome.status],
    ...(pageError && pageError !== reason ? { pageError } : {}),
    ...(reason ? { reason } : {}),
    ...(check ? { check } : {}),
    ...(retryAt !== undefined ? { retryAt: isoTime(retryAt) } : {}),
    ...(wordmark || wordmarkOutcome ? { wordmark: wordmarkView(wordmarkOutcome, wordmark) } : {}),
  };
}

/** The `wordmark` object of {@link discoverView}. */
function wordmarkView(
  outcome: WordmarkOutcome | undefined,
  found: FoundWordmark | undefined,
): Record<string, unknown> {
  return {
    ...(outcome ? { status: outcome.status, meaning: WORDMARK_MEANING[outcome.status] } : {}),
    ...(outcome?.source ? { source: outcome.source } : {}),
    ...(outcome?.retryAt !== undefined ? { retryAt: isoTime(outcome.retryAt) } : {}),
    ...(outcome?.reason ? { reason: outcome.reason } : {}),
    ...(found ? { found: { ...found, bytes: found.bytes.length } } : {}),
  };
}
