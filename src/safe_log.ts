/**
 * The one gate every log line of the request path goes through: query strings and tokens are
 * removed from the message and from the error (its message, stack and causes) before the log sees
 * them, so no log line carries a token whatever fails — even an error whose message quotes a URL
 * (`Invalid URL: 'http://a b/x?token=sk_…'`) — and a token written percent-encoded, double-encoded
 * or split by escaped characters (`/sk%5F…`, `/%2573k_…`, `sk_…%0A…`) is found after decoding.
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

/** Where unexpected errors are reported. */
export type Log = (message: string, error?: unknown) => void;

/** What replaces a removed query string. */
export const QUERY_REMOVED = "[query removed]";
/** What replaces a removed token. */
export const TOKEN_REMOVED = "[token removed]";

/** A `?` and what follows it up to whitespace, a quote or a bracket: a query string. */
const QUERY = /\?[^\s'"`<>()[\]]+/g;
/** A `token=` parameter outside a query string (after a space, in a form body…). */
const TOKEN_PARAMETER = /token=[^\s&'"`<>]*/gi;
/**
 * Anything shaped like a key token: `pk_` or `sk_` and letters or digits (underscores between them
 * too, so that a `_` cannot cut a token in two).
 */
const KEY_TOKEN = /[ps]k_[0-9a-z_]*[0-9a-z]/gi;
/** What makes a text worth decoding: a `%` escape, a control or an invisible (format) character. */
const NEEDS_DECODING = /[%\p{Cc}\p{Cf}]/u;
/** A character that, written raw, hides inside a token: controls and invisible characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
/** A character that may stay inside a token when it was written `%XX`. */
const TOKEN_CHARACTER = /[0-9a-z_]/i;
/** How deep a chain of `cause`s is followed. */
const MAX_CAUSES = 4;

/**
 * `text` without query strings, `token=` parameters and `pk_…`/`sk_…` tokens, however they are
 * written: the patterns are matched in the text as it is and in the text percent-decoded until
 * nothing changes (`sk%5F…`, `%73k_…`, `%255F`, mixed-case escapes), and a token is matched with
 * what can split it skipped — an escaped character that is not a letter, digit or `_`
 * (`sk_abc%0Adef`, `sk_abc%C2%ADdef`), a raw control or invisible character. What is removed is the
 * original text that spelled the match, so the rest keeps its encoding (and no decoded control
 * character reaches a log line).
 *
 * @example
 * ```ts
 * import { redactSecrets } from "./safe_log.ts";
 * redactSecrets("Bearer sk_0123"); // "Bearer [token removed]"
 * redactSecrets("GET /%73k%5F0123"); // "GET /[token removed]"
 * ```
 */
export function redactSecrets(text: string): string {
  if (!NEEDS_DECODING.test(text)) {
    return text
      .replace(QUERY, QUERY_REMOVED)
      .replace(TOKEN_PARAMETER, TOKEN_REMOVED)
      .replace(KEY_TOKEN, TOKEN_REMOVED);
  }
  const spans: Span[] = [];
  // As written.
  collect(spans, QUERY, text, QUERY_REMOVED, (i) => i, (i) => i + 1);
  collect(spans, TOKEN_PARAMETER, text, TOKEN_REMOVED, (i) => i, (i) => i + 1);
  // Decoded: each unit is one character of the decoded text, with the span of text it came from.
  const units = decode(text);
  const decoded = units.map((unit) => unit.char).join("");
  const start = (i: number) => units[i].start;
  const end = (i: number) => units[i].end;
  collect(spans, QUERY, decoded, QUERY_REMOVED, start, end);
  collect(spans, TOKEN_PARAMETER, decoded, TOKEN_REMOVED, start, end);
  // Decoded, without what can split a token.
  const kept: Unit[] = units.filter((unit) =>
    unit.escaped ? TOKEN_CHARACTER.test(unit.char) : !INVISIBLE.test(unit.char)
  );
  const letters = kept.map((unit) => unit.char).join("");
  collect(spans, KEY_TOKEN, letters, TOKEN_REMOVED, (i) => kept[i].start, (i) => kept[i].end);
  return replaceSpans(text, spans);
}

/** A part of the original text to replace with `marker`. */
interface Span {
  start: number;
  end: number;
  marker: string;
}

/** One character of a decoded text, and the part of the original text it was decoded from. */
interface Unit {
  /** The character (U+FFFD for an escaped byte above 0x7F, which cannot be part of a token). */
  char: string;
  start: number;
  end: number;
  /** Whether it was written as a `%XX` escape (at some depth). */
  escaped: boolean;
}

/**
 * `text` percent-decoded until nothing changes, one unit per decoded character, in one pass: an
 * escape is decoded as soon as its third character is read, so the `%` it gives (`%25`) or a digit
 * it gives (`%%32%35`) can complete an outer escape at once. Linear in the length of `text`.
 */
function decode(text: string): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i < text.length; i++) {
    units.push({ char: text[i], start: i, end: i + 1, escaped: false });
    for (let n = units.length; n >= 3; n = units.length) {
      const [percent, high, low] = [units[n - 3], units[n - 2], units[n - 1]];
      if (percent.char !== "%" || !isHex(high.char) || !isHex(low.char)) break;
      const code = parseInt(high.char + low.char, 16);
      units.length = n - 3;
      units.push({
        char: code < 0x80 ? String.fromCharCode(code) : "\uFFFD",
        start: percent.start,
        end: low.end,
        escaped: true,
      });
    }
  }
  return units;
}

function isHex(char: string): boolean {
  const code = char.charCodeAt(0);
  return (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 102);
}

/** Adds the spans of `pattern`'s matches in `searched`, mapped to the original text. */
function collect(
  spans: Span[],
  pattern: RegExp,
  searched: string,
  marker: string,
  startOf: (index: number) => number,
  endOf: (index: number) => number,
): void {
  for (const match of searched.matchAll(pattern)) {
    const first = match.index;
    spans.push({ start: startOf(first), end: endOf(first + match[0].length - 1), marker });
  }
}

/** `text` with each span, or each run of overlapping spans, replaced by its first one's marker. */
function replaceSpans(text: string, spans: Span[]): string {
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = "";
  let at = 0;
  let current: Span | undefined;
  for (const span of spans) {
    if (current !== undefined && span.start < current.end) {
      current.end = Math.max(current.end, span.end);
      continue;
    }
    if (current !== undefined) {
      out += text.slice(at, current.start) + current.marker;
      at = current.end;
    }
    current = { ...span };
  }
  out += text.slice(at, current!.start) + current!.marker;
  return out + text.slice(current!.end);
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
