/**
 * The one error type of the request path: an HTTP status, the plain-text body the client sees,
 * and any extra headers (for example `Retry-After`). Anything else thrown on the request path
 * is a bug and answers 500 without leaking its message.
 *
 * @example
 * ```ts
 * throw new HttpError(400, "Invalid domain format");
 * ```
 */
export class HttpError extends Error {
  /** HTTP status code. */
  readonly status: number;
  /** Plain-text body sent to the client; never contains secrets. */
  readonly publicMessage: string;
  /** Extra response headers, such as `Retry-After`. */
  readonly headers: Record<string, string>;

  /** Creates an error that answers with `status` and the body `publicMessage`. */
  constructor(status: number, publicMessage: string, headers: Record<string, string> = {}) {
    // An HttpError is an expected answer (a 404, a 429…), never a bug: skip capturing a stack
    // trace, which costs several µs and keeps memory alive on hot error paths such as 429.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(publicMessage);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = "HttpError";
    this.status = status;
    this.publicMessage = publicMessage;
    this.headers = headers;
  }
}
