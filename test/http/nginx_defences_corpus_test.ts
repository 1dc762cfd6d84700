/**
 * Issue #29's defences behind the shipped proxy, the corpus (each single-request entry of
 * test/fixtures/malformed_requests/): the stack of `nginx_defences_stack.ts` (the real service
 * behind the real nginx recipe), each entry sent raw to nginx one at a time, each followed by a
 * request straight to the service that marks where its access-log lines for the entry end: no 5xx
 * from the service or nginx (but nginx's own 501 and 505 to protocols it does not speak,
 * `nginxMayRefuse`); the service's handler logged exactly the requests nginx passed to it, with
 * the statuses nginx got back (a request its HTTP server refused is a 400 without the handler's
 * CORS headers, and not logged); what nginx answers itself (refused, or from its cache) never
 * reaches the service; an entry that reaches it gets the corpus's documented status, unless nginx
 * normalised it ({@link NORMALISED}); nothing the service printed holds a token or a query string.
 * The framing exchanges: `nginx_defences_framing_test.ts`; idle connections:
 * `nginx_defences_idle_test.ts`.
 *
 * It can fail; tried by hand: both upstream lines at a port nothing listens on fails it (nginx's
 * 502s), and so does {@link NORMALISED} emptied (4 entries).
 */
import assert from "node:assert/strict";
import { CORPUS, type CorpusEntry } from "../fixtures/malformed_requests/mod.ts";
import { bytesOf } from "../support/latin1.ts";
import {
  accessLines,
  attempts,
  fiveHundreds,
  loggedProblem,
  type NginxLine,
  nginxMark,
  ownLines,
  refusedByServer,
  type ServiceLine,
  serviceLines,
} from "../support/nginx_access_log.ts";
import { assertNoSecrets, fill, nginx, startStack } from "../support/nginx_defences_stack.ts";
import { rawExchange, type RawResult } from "../support/raw_http.ts";
import { within } from "../support/within.ts";

/**
 * Corpus entries that reach the service with another status than the corpus documents, because
 * nginx changed the request on the way. The recipe sends `Host: $host`, and nginx's `$host` is the
 * `Host` header lowercased and cut at its first `:` (the port, valid or not) or after a `]`: so
 * these bad `Host`s arrive as good ones (`Host` never chooses the logo: hosts.ts). Every other
 * entry that reaches the service gets its documented status.
 */
const NORMALISED: Record<string, string> = {
  "host: bad Host x:99999": "the service sees Host: x",
  "host: bad Host user:pass@host": "the service sees Host: user",
  "host: bad Host [::1]x": "the service sees Host: [::1]",
  "host: bad Host on POST": "Host: x:99999 arrives as x: the POST is a 405, not a 400",
};

/** What one corpus entry did through nginx. */
interface CorpusResult {
  readonly entry: CorpusEntry;
  readonly request: string;
  readonly port: number;
  readonly result: RawResult;
  readonly service: (ServiceLine | string)[];
}

/** What is wrong with `got`, given nginx's lines for its connection; or `undefined`. */
function corpusProblem(got: CorpusResult, lines: NginxLine[]): string | undefined {
  const { entry, request, result, service } = got;
  if (lines.length !== 1) return `${lines.length} lines in nginx's access log, expected 1`;
  const [line] = lines;
  const client = result.kind === "response" ? result.status : "closed";
  if (client !== "closed" && client !== line.status) {
    return `answered ${client}, nginx logged ${line.status}`;
  }
  const wrong = fiveHundreds(lines, request) ?? loggedProblem(lines, service);
  if (wrong !== undefined) return wrong;
  const passed = attempts(line);
  if (passed.length === 0) return undefined; // answered by nginx: the service never saw it
  const status = passed[passed.length - 1];
  const reason = NORMALISED[entry.name];
  if (reason === undefined && status !== entry.status) {
    return `the service answered ${status}, documented ${entry.status}`;
  }
  if (reason !== undefined && status === entry.status) {
    return `in NORMALISED (${reason}) but answered as documented, ${status}: remove it`;
  }
  return undefined;
}

Deno.test({
  name: "nginx recipe + main.ts: the malformed-request corpus, no 5xx, nothing refused passed on",
  ignore: nginx.ignore,
  async fn() {
    assert.ok(CORPUS.length >= 250, `only ${CORPUS.length} entries`);
    await using stack = await startStack();
    const { service, proxy, values } = stack;
    const started = performance.now();
    const results: CorpusResult[] = [];
    /** Where each entry's part of nginx's log starts (`proxy.printed`), and where the last ends. */
    const windows: number[] = [];
    for (const entry of CORPUS) {
      const from = service.printed.length;
      windows.push(proxy.printed.length);
      const request = fill(entry.request, values);
      let port = 0;
      const result = await rawExchange(proxy.port, bytesOf(request), {
        timeoutMs: 60_000, // nginx waits client_header_timeout for a head that does not end
        onConnect: (conn) => port = conn.localAddr.port,
      });
      // Logged once nginx has ended the request: after its answer, or once the connection closed.
      await within(
        proxy.line(new RegExp(`^ACCESS \\{"port":${port},`), windows[windows.length - 1]),
        30_000,
        `nginx logs ${entry.name}`,
      );
      results.push({ entry, request, port, result, service: await serviceLines(service, from) });
    }
    const ms = performance.now() - started;
    windows.push(await nginxMark(proxy, windows[windows.length - 1]));

    const problems: string[] = [];
    let handler = 0;
    let server = 0;
    let cached = 0;
    const cachedOtherwise: string[] = [];
    const refusals = new Map<string, number>();
    for (const [i, got] of results.entries()) {
      const { own: lines, stray } = ownLines(
        accessLines(proxy, windows[i], windows[i + 1]),
        got.port,
      );
      const wrong = stray ?? corpusProblem(got, lines);
      if (wrong !== undefined) problems.push(`${got.entry.name}: ${wrong}`);
      if (lines.length !== 1) continue;
      const [line] = lines;
      if (refusedByServer(line)) server++;
      else if (attempts(line).length > 0) handler++;
      else if (line.cache === "HIT") {
        // Answered from nginx's cache, keyed on scheme, $host and target only: the stored answer
        // of an earlier entry, whatever else this one carries (a junk Authorization the service
        // would refuse 401, an HTTP/0.9 or /1.2 request line…). Counted, not compared.
        cached++;
        if (line.status !== got.entry.status) {
          cachedOtherwise.push(`${got.entry.name} (${line.status}, not ${got.entry.status})`);
        }
      } else {
        const status = got.result.kind === "response" ? String(got.result.status) : "closed";
        refusals.set(status, (refusals.get(status) ?? 0) + 1);
      }
    }
    assert.deepEqual(problems, [], `${problems.length} problems\n${proxy.log().slice(-3000)}`);
    await assertNoSecrets(stack);
    const refused = [...refusals.values()].reduce((sum, n) => sum + n, 0);
    console.log(
      `${CORPUS.length} entries through nginx in ${Math.round(ms)} ms: ${handler} answered by ` +
        `the service's handler (${Object.keys(NORMALISED).length} normalised by nginx), ` +
        `${server} refused by its HTTP server, ${refused} answered by nginx itself (${
          [...refusals].map(([status, n]) => `${n}× ${status}`).join(", ")
        }), ${cached} from nginx's cache, of which ${cachedOtherwise.length} with another ` +
        `status than the service documents: ${cachedOtherwise.join("; ")}`,
    );
  },
});
