/** Splitting the bytes a raw HTTP/1.1 client received into the answers they hold. */

/** One answer: its status and headers (its body is skipped). */
export interface ReadAnswer {
  readonly status: number;
  readonly headers: Headers;
}

/**
 * The complete answers at the start of `text` (the bytes an exchange received, as Latin-1), in
 * order, and what is left after them. Interim (1xx) answers are skipped; `heads[i]` says the
 * i-th answer is to a `HEAD` (no body). Bodies are delimited by `Content-Length` or chunked
 * encoding, or run to the end.
 */
export function splitAnswers(
  text: string,
  heads: boolean[],
): { answers: ReadAnswer[]; rest: string } {
  const answers: ReadAnswer[] = [];
  let at = 0;
  for (;;) {
    const end = text.indexOf("\r\n\r\n", at);
    if (end < 0) return { answers, rest: text.slice(at) };
    const [statusLine, ...lines] = text.slice(at, end).split("\r\n");
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (match === null) return { answers, rest: text.slice(at) };
    const status = Number(match[1]);
    const headers = new Headers();
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    at = end + 4;
    if (status < 200) continue;
    const head = heads[answers.length] ?? false;
    answers.push({ status, headers });
    if (head || status === 204 || status === 304) continue;
    if (headers.get("transfer-encoding") === "chunked") {
      for (;;) {
        const lineEnd = text.indexOf("\r\n", at);
        const size = parseInt(text.slice(at, lineEnd), 16);
        if (lineEnd < 0 || Number.isNaN(size)) return { answers, rest: text.slice(at) };
        at = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
    } else if (headers.has("content-length")) {
      at += Number(headers.get("content-length"));
    } else {
      return { answers, rest: "" };
    }
  }
}
