/** The requests a strict RFC 9112 recipient frames in the bytes a client sent. */

/** A request as RFC 9112 frames it. */
export interface Framed {
  readonly method: string;
  readonly target: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether `char` is a control character (those in `allowed` aside). */
function control(char: string, allowed = ""): boolean {
  const code = char.charCodeAt(0);
  return (code < 0x20 || code === 0x7f) && !allowed.includes(char);
}

/**
 * The requests a strict RFC 9112 recipient reads from `text` (Latin-1), in order, up to the
 * first one it must or may refuse, or that ends the connection. Strict wherever the RFC allows
 * refusing: a bare CR, obs-fold, whitespace before a colon, a control character in a value,
 * `Transfer-Encoding` beside `Content-Length` (§6.3: "ought to be handled as an error") or in
 * HTTP/1.0, a coding other than one `chunked`, a `Content-Length` that is not one number
 * (repeats of it are allowed, §6.3), a chunk line not ended by CRLF (§7.1). Lenient where §2.2
 * allows it and nginx and `Deno.serve` both are: a bare LF ends the request line and each field
 * line, trailers included; empty lines before a request line are skipped. A request counts once
 * its body is whole.
 */
export function frameRequests(text: string): Framed[] {
  const framed: Framed[] = [];
  let at = 0;
  /** The line at `at`, up to a LF (a CR before it dropped); undefined while incomplete. */
  const line = (): string | undefined => {
    const end = text.indexOf("\n", at);
    if (end < 0) return undefined;
    const found = text.slice(at, end > at && text[end - 1] === "\r" ? end - 1 : end);
    at = end + 1;
    return found;
  };
  /** Field lines up to the empty line, by lowercased name; undefined: incomplete or invalid. */
  const fields = (): Map<string, string[]> | undefined => {
    const found = new Map<string, string[]>();
    for (;;) {
      const field = line();
      if (field === undefined) return undefined;
      if (field === "") return found;
      const colon = field.indexOf(":");
      const name = field.slice(0, colon);
      const value = field.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "");
      // No colon, obs-fold, whitespace before the colon, a bare CR, a NUL…
      if (colon <= 0 || !TOKEN.test(name) || [...value].some((char) => control(char, "\t"))) {
        return undefined;
      }
      const key = name.toLowerCase();
      found.set(key, [...found.get(key) ?? [], value]);
    }
  };
  /** The elements of a list field, lowercased (empty ones dropped, RFC 9110 §5.6.1). */
  const list = (values: string[] | undefined) =>
    (values ?? []).join(",").split(",").map((item) => item.trim().toLowerCase()).filter(Boolean);

  for (;;) {
    while (text.startsWith("\r\n", at) || text.startsWith("\n", at)) {
      at += text[at] === "\r" ? 2 : 1;
    }
    const start = line();
    if (start === undefined) return framed;
    const request = /^(\S+) (\S+) HTTP\/(\d)\.(\d)$/.exec(start);
    if (request === null || !TOKEN.test(request[1]) || request[3] !== "1") return framed;
    const [, method, target, , minor] = request;
    if ([...target].some((char) => control(char))) return framed;
    const head = fields();
    if (head === undefined) return framed;
    const codings = head.get("transfer-encoding");
    const lengths = head.get("content-length");
    if (codings !== undefined) {
      if (lengths !== undefined || minor === "0") return framed;
      const coding = list(codings);
      if (coding.length !== 1 || coding[0] !== "chunked") return framed;
      for (;;) {
        const end = text.indexOf("\r\n", at);
        if (end < 0) return framed;
        const size = /^([0-9A-Fa-f]+)[ \t]*(;[^\r\n]*)?$/.exec(text.slice(at, end));
        if (size === null) return framed; // no size, or a bare LF in its line
        at = end + 2;
        const bytes = BigInt(`0x${size[1]}`);
        if (bytes === 0n) {
          if (fields() === undefined) return framed; // the trailer section
          break;
        }
        if (bytes > BigInt(text.length - at - 2)) return framed; // never whole
        at += Number(bytes);
        if (!text.startsWith("\r\n", at)) return framed;
        at += 2;
      }
    } else if (lengths !== undefined) {
      const values = new Set(list(lengths));
      const [value] = values;
      if (values.size !== 1 || !/^\d+$/.test(value)) return framed;
      if (BigInt(value) > BigInt(text.length - at)) return framed; // never whole
      at += Number(value);
    }
    framed.push({ method, target });
    const connection = list(head.get("connection"));
    if (connection.includes("close")) return framed;
    if (minor === "0" && !connection.includes("keep-alive")) return framed;
  }
}
