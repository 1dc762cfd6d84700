/**
 * The one gate every log line of the request path goes through: query strings and tokens are
 * removed from the message and from the error (its message, stack and causes) before the log sees
 * them, so no log line carries a token whatever fails — even an error whose message quotes a URL
 * (`Invalid URL: 'http://a b/x?token=sk_…'`).
 *
 * @example
 * ```ts
 * import { redactSecrets, safeLog } from "./safe_log.ts";
 * redactSecrets("GET /example.com?token=pk_abc"); // "GET /example.com[query removed]"
 * const log = safeLog(console.error);
 * log("Internal error on the request path", new TypeError("Invalid URL: 'http://a b/?token=x'"));
 * ```
 * @module
 */

/** What replaces a removed query string. */
/** Where unexpected errors are reported. */
export type Log = (message: string, error?: unknown) => void;

export const QUERY_REMOVED = "[query removed]";
/** What replaces a removed token. */
export const TOKEN_REMOVED = "[token removed]";

/** A `?` and what follows it up to whitespace, a quote or a bracket: a query string. */
const QUERY = /\?[^\s'"`<>()[\]]+/g;
/** A `token=` parameter outside a query string (after a space, in a form body…). */
const TOKEN_PARAMETER = /token=[^\s&'"`<>]*/gi;
/** Anything shaped like a key token: `pk_` or `sk_` and letters or digits. */
const KEY_TOKEN = /[ps]k_[0-9a-z]+/gi;
/** How deep a chain of `cause`s is followed. */
const MAX_CAUSES = 4;

/**
 * `text` without query strings, `token=` parameters and `pk_…`/`sk_…` tokens.
 *
 * @example
 * ```ts
 * import { redactSecrets } from "./safe_log.ts";
 * redactSecrets("Bearer sk_0123"); // "Bearer [token removed]"
 * ```
 */
export function redactSecrets(text: string): string {
  return text
    .replace(QUERY, QUERY_REMOVED)
    .replace(TOKEN_PARAMETER, TOKEN_REMOVED)
    .replace(KEY_TOKEN, TOKEN_REMOVED);
}

/**
 * A copy of what was thrown that is safe to log: an `Error` keeps its name, and its message,
 * stack and causes are redacted; anything else becomes its redacted inspection.
 */
export function redactError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) {
    return redactSecrets(typeof error === "string" ? error : inspect(error));
  }
  const cause = error.cause !== undefined && depth < MAX_CAUSES
    ? { cause: redactError(error.cause, depth + 1) }
    : undefined;
  const copy = new Error(redactSecrets(String(error.message)), cause);
  copy.name = error.name;
  copy.stack = typeof error.stack === "string" ? redactSecrets(error.stack) : undefined;
  return copy;
}

/**
 * Wraps `log` so that neither its message nor its error can carry a query string or a token.
 *
 * @example
 * ```ts
 * import { safeLog } from "./safe_log.ts";
 * const lines: string[] = [];
 * safeLog((message) => lines.push(message))("GET /x?token=pk_1 failed");
 * lines; // ["GET /x[query removed] failed"]
 * ```
 */
export function safeLog(log: Log): Log {
  return (message, error) => {
    const safeMessage = redactSecrets(message);
    if (error === undefined) log(safeMessage);
    else log(safeMessage, redactError(error));
  };
}

function inspect(value: unknown): string {
  try {
    return Deno.inspect(value, { depth: 4 });
  } catch {
    return "(a value that could not be inspected)";
  }
}
