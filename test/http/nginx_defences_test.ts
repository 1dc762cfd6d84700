/**
 * Issue #29's defences, kept behind the shipped proxy: the real `src/main.ts` (`Deno.serve`, its
 * access log on: one JSON line per request its handler answers) behind the real nginx recipe
 * (`docs/deploy/nginx.conf`, both upstream lines pointing at that one instance), moved as
 * `deploy_nginx_test.ts` moves it (`startDeployRecipe`), with nginx's main context as the recipe's
 * comments advise and one addition: an access log of the test's own format on nginx's stderr
 * ({@link ACCESS_LOG}: which client connection, nginx's status, what nginx passed to the service
 * and what came back). Every other directive is the recipe's, timeouts included. The same defences
 * without nginx: `malformed_requests_test.ts`, `test/server/connection_limits_test.ts`.
 *
 * - **The corpus** (each single-request entry of test/fixtures/malformed_requests/), sent raw to
 *   nginx one at a time, each followed by a request straight to the service that marks where its
 *   access-log lines for the entry end: no 5xx from the service or nginx (but nginx's own 501 and
 *   505 to protocols it does not speak, {@link nginxMayRefuse}); the service's handler logged
 *   exactly the requests nginx passed to it, with the statuses nginx got back (a request its HTTP
 *   server refused is a 400 without the handler's CORS headers, and not logged); what nginx
 *   answers itself (refused, or from its cache) never reaches the service; an entry that reaches
 *   it gets the corpus's documented status, unless nginx normalised it ({@link NORMALISED});
 *   nothing the service printed holds a token or a query string.
 * - **The framing exchanges** (`framing.ts`: pipelining, bodies, CL.TE, TE.CL and other smuggling
 *   attempts), each in one write, the request they hide renamed `GET /smuggled.io` (same length:
 *   every length and chunk size still holds): no 5xx; the service's handler logged the requests
 *   nginx passed to it, with the same statuses; and the requests the service logged are, in
 *   order, among those the client framed per RFC 9112 ({@link frameRequests}): nothing hidden in a
 *   body or behind a disputed length reached it — but in two exchanges whose chunk lines end in a
 *   bare LF, which nginx reads as CRLF ({@link LENIENT_CHUNKS}).
 * - **Idle connections**: 3,000 keep-alive connections (one request answered each, then idle) and
 *   3,000 that never send a byte, held by nginx while 20 probes through it are answered 200; the
 *   service's sockets stay within the recipe's upstream `keepalive`; nginx ends each idle
 *   connection at its own timeout (`keepalive_timeout`, `client_header_timeout`), not before.
 *
 * Each can fail; tried by hand: both upstream lines at a port nothing listens on fails all three
 * (nginx's 502s); {@link NORMALISED} emptied fails the first (4 entries), {@link LENIENT_CHUNKS}
 * emptied the second (the service logged `/smuggled.io`, which RFC 9112 does not frame);
 * Debian's `worker_connections 768` instead of the advised main context fails the third (5,344
 * connections ended early: nginx closes idle ones to make room), and so do the idle clients
 * connected to the service instead of nginx (3,010 service sockets).
 */
import assert from "node:assert/strict";
import { KeyStore } from "../../src/store/key_store.ts";
import { LogoStore } from "../../src/store/logo_store.ts";
import {
  CORPUS,
  type CorpusEntry,
  type ExchangeEntry,
  EXCHANGES,
} from "../fixtures/malformed_requests/mod.ts";
import { externalTool } from "../support/external_tool.ts";
import { flatImage } from "../support/images.ts";
import { type MainProcess, startMainProcess } from "../support/main_process.ts";
import {
  DEPLOY_RECIPE,
  type MainContext,
  type NginxCache,
  startDeployRecipe,
} from "../support/nginx_cache.ts";
import { rawExchange, type RawResult } from "../support/raw_http.ts";

const nginx = externalTool("nginx", ["/usr/sbin/nginx"], "apt-get install nginx");
const RECIPE = await Deno.readTextFile(DEPLOY_RECIPE);
const encoder = new TextEncoder();

/** The value of the directive `name`, which the recipe must set exactly once. */
function directive(name: string): string {
  const found = [...RECIPE.matchAll(new RegExp(`^\\s*${name}\\s+([^;]*);`, "gm"))];
  assert.equal(found.length, 1, `the recipe sets ${name} exactly once`);
  return found[0][1].trim();
}

/** Milliseconds of an nginx time such as `10s` or `500ms`. */
function milliseconds(time: string): number {
  const match = /^(\d+)(ms|s|m)?$/.exec(time);
  assert.ok(match, `an nginx time: ${time}`);
  return Number(match[1]) * ({ ms: 1, s: 1000, m: 60_000 }[match[2] ?? "s"] ?? 1000);
}

/** A number the recipe's comments give for nginx.conf's main context, e.g. worker_connections. */
function advised(name: string): number {
  const match = new RegExp(`^#.*\\b${name} (\\d+);`, "m").exec(RECIPE);
  assert.ok(match, `the recipe's comments give ${name} for nginx.conf's main context`);
  return Number(match[1]);
}

/** nginx's main context as the recipe advises it. */
const MAIN_CONTEXT: MainContext = {
  workerConnections: advised("worker_connections"),
  workerRlimitNofile: advised("worker_rlimit_nofile"),
};

/** Idle connections nginx keeps to the instances: all the service sees of the clients at rest. */
const UPSTREAM_KEEPALIVE = Number(directive("keepalive"));

/**
 * The test's own access log, on nginx's stderr (`NginxCache.printed`), one JSON line a request
 * after `ACCESS `: the client's port (which exchange), nginx's status, `$upstream_status` (empty
 * when nginx answered itself; one status per attempt), the answer's `Access-Control-Allow-Origin`
 * (which the service's handler always sets, and its HTTP server's own 400 does not), the cache's
 * verdict, and the request.
 */
const ACCESS_LOG = `
log_format defences escape=json 'ACCESS {"port":$remote_port,"status":$status,'
  '"upstream":"$upstream_status","cors":"$upstream_http_access_control_allow_origin",'
  '"cache":"$upstream_cache_status","method":"$request_method","uri":"$request_uri",'
  '"host":"$host"}';
access_log /dev/stderr defences;
`;

/** One line of {@link ACCESS_LOG}. */
interface NginxLine {
  readonly port: number;
  readonly status: number;
  readonly upstream: string;
  readonly cors: string;
  readonly cache: string;
  readonly method: string;
  readonly uri: string;
  readonly host: string;
}

/** The statuses the service gave, one per attempt nginx made (`502, 200`: two). */
function attempts(line: NginxLine): number[] {
  return line.upstream.split(/[,:]\s*/).filter((status) => status.trim() !== "").map(Number);
}

/** Whether nginx passed the request on and the service's HTTP server refused it (no CORS). */
function refusedByServer(line: NginxLine): boolean {
  return attempts(line).length > 0 && line.cors === "";
}

/** The statuses of the attempts the service's handler answered (and so logged). */
function handled(line: NginxLine): number[] {
  return refusedByServer(line) ? [] : attempts(line);
}

/** One line of the service's access log (`src/observe/access_log.ts`). */
interface ServiceLine {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

/** What no line the service prints may contain: a `token=` parameter, a key token, a query. */
const FORBIDDEN = [/token=/i, /[ps]k_[0-9a-z]/i, /\?[^\s]*=/];

/** Creates the keys and logos the corpus refers to (as malformed_requests_test.ts does). */
async function prepareStore(path: string): Promise<Record<string, string>> {
  const kv = await Deno.openKv(path);
  try {
    const keys = new KeyStore(kv);
    const logos = new LogoStore(kv);
    const many = { limit: 1_000_000, window: 3600 };
    const plain = await keys.create(many);
    const allow = await keys.create({ ...many, allow: ["https://app.example.com"] });
    const attribution = await keys.create({ ...many, attribution: true });
    const revoked = await keys.create(many);
    await keys.revoke(revoked.key.id);
    await logos.put("example.com", flatImage(160, 80, [0, 120, 200, 255]), { source: "test" });
    await logos.put("example.org", flatImage(40, 40, [200, 0, 0, 255]), { source: "test" });
    await logos.put("xn--bcher-kva.de", flatImage(64, 64, [0, 160, 0, 255]), { source: "test" });
    return {
      pk: plain.key.publishableKey,
      sk: plain.secretKey,
      pkAllow: allow.key.publishableKey,
      pkAttr: attribution.key.publishableKey,
      pkRevoked: revoked.key.publishableKey,
      skRevoked: revoked.secretKey,
    };
  } finally {
    kv.close();
  }
}

/** `bytes` as Latin-1 text: one character per byte. */
function latin1(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** Latin-1 text as the bytes it stands for. */
function bytesOf(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

/** `request` as Latin-1 text (a string sent as UTF-8), its placeholders replaced (ASCII). */
function fill(request: string | Uint8Array, values: Record<string, string>): string {
  const text = latin1(typeof request === "string" ? encoder.encode(request) : request);
  return text.replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
}

/** The real service behind the real recipe, over a store with the corpus's keys and logos. */
interface Stack extends AsyncDisposable {
  readonly service: MainProcess;
  readonly proxy: NginxCache;
  /** The corpus's placeholders' values (tokens). */
  readonly values: Record<string, string>;
  /** The pid of nginx's worker, the process that holds the clients' connections. */
  readonly worker: number;
}

async function startStack(): Promise<Stack> {
  const dir = await Deno.makeTempDir({ prefix: "nginx_defences_" });
  const opened: AsyncDisposable[] = [];
  const close = async () => {
    for (const resource of opened.reverse()) await resource[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  };
  try {
    const values = await prepareStore(`${dir}/store.kv`);
    const service = await startMainProcess({
      LOGO_KV: `${dir}/store.kv`,
      LOGO_HOSTNAME: "127.0.0.1",
      LOGO_ACCESS_LOG: "json",
    });
    opened.push(service);
    const proxy = await startDeployRecipe(nginx.path, {
      upstreams: [service.port],
      main: MAIN_CONTEXT,
      edit: (config) => ACCESS_LOG + config,
    });
    opened.push(proxy);
    const started = await proxy.line(/start worker process \d+/);
    const worker = Number(/start worker process (\d+)/.exec(started)![1]);
    return { service, proxy, values, worker, [Symbol.asyncDispose]: close };
  } catch (error) {
    await close();
    throw error;
  }
}

let marks = 0;

/**
 * The service's access-log lines from index `from` on, once all of them are read: a request
 * straight to the service (not through nginx) marks the end. Its handler logs each answer before
 * sending it, and every request nginx passed on was answered before the marker was sent. A line
 * that is not the access log's is returned as it is, to fail the caller's checks.
 */
async function serviceLines(service: MainProcess, from: number): Promise<(ServiceLine | string)[]> {
  const mark = `/__mark__/${++marks}`;
  const answer = await rawExchange(
    service.port,
    `GET ${mark} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
  );
  assert.equal(answer.kind, "response", "the service answers the marker");
  const line = await service.line(new RegExp(`"path":"${mark}"`), from);
  return service.printed.slice(from, service.printed.indexOf(line, from)).map((text) => {
    try {
      const { method, path, status } = JSON.parse(text);
      return { method, path, status };
    } catch {
      return text;
    }
  });
}

/** The lines of {@link ACCESS_LOG} in `proxy.printed[from, to)`. */
function accessLines(proxy: NginxCache, from: number, to: number): NginxLine[] {
  return proxy.printed.slice(from, to).filter((text) => text.startsWith("ACCESS "))
    .map((text) => JSON.parse(text.slice("ACCESS ".length)));
}

/**
 * Sends nginx a request it refuses itself (HTTP/1.1 without `Host`: a 400, never passed on) and
 * resolves once its access-log line is read, with that line's index in `proxy.printed`: every
 * request nginx ended before, its connection closed, is logged above it (one worker, in order).
 */
async function nginxMark(proxy: NginxCache, from: number): Promise<number> {
  const mark = `/__mark__/${++marks}`;
  await rawExchange(proxy.port, `GET ${mark} HTTP/1.1\r\nConnection: close\r\n\r\n`);
  const line = await proxy.line(new RegExp(`^ACCESS .*"uri":"${mark}"`), from);
  return proxy.printed.indexOf(line, from);
}

/**
 * nginx's lines for the connection from client port `port` among `lines` (one exchange's window
 * of the log), and a problem when the window holds another connection's line.
 */
function ownLines(lines: NginxLine[], port: number): { own: NginxLine[]; stray?: string } {
  const own = lines.filter((line) => line.port === port);
  const other = lines.find((line) => line.port !== port);
  return other === undefined ? { own } : { own, stray: `nginx logged ${JSON.stringify(other)}` };
}

/**
 * The 5xx nginx may answer itself, to a protocol it does not speak, never sent on to the service:
 * `505 HTTP Version Not Supported` to a request line of HTTP/2 or later (RFC 9110 §15.6.6), and
 * `501 Not Implemented` to a `Transfer-Encoding` other than `chunked` alone (RFC 9112 §6.1: a
 * server SHOULD). Any other 5xx (a 502 or 504 above all: the service failed) is a failure.
 */
function nginxMayRefuse(status: number, request: string): boolean {
  if (status === 505) return /^[^\r\n]* HTTP\/[2-9]/.test(request);
  if (status === 501) return /\ntransfer-encoding *:/i.test(request);
  return false;
}

/** What is wrong with nginx's lines for one connection: a 5xx, or a refusal not the server's. */
function fiveHundreds(lines: NginxLine[], request: string): string | undefined {
  for (const line of lines) {
    const passed = attempts(line);
    if (passed.some((status) => status >= 500)) return `the service answered ${passed}`;
    if (line.status >= 500 && !(passed.length === 0 && nginxMayRefuse(line.status, request))) {
      return `nginx answered ${line.status} (upstream: ${line.upstream || "none"})`;
    }
    // Deno.serve's own refusal is an empty 400 (malformed_requests_test.ts).
    if (refusedByServer(line) && passed.join() !== "400") {
      return `the service answered ${passed} without its handler's CORS headers`;
    }
  }
  return undefined;
}

/** What is wrong with what the service logged, given nginx's lines; or `undefined`. */
function loggedProblem(lines: NginxLine[], service: (ServiceLine | string)[]): string | undefined {
  const passed = lines.flatMap(handled);
  const logged = service.map((item) => typeof item === "string" ? item : item.status);
  if (JSON.stringify(logged) === JSON.stringify(passed)) return undefined;
  return `nginx passed ${passed.length} to the handler (${passed}), the service logged ${
    JSON.stringify(logged)
  }`;
}

/** Stops the service, then checks that nothing it printed holds a token or a query string. */
async function assertNoSecrets(stack: Stack): Promise<void> {
  const { service, values } = stack;
  assert.equal(await service.stop(), 0, service.printed.slice(-20).join("\n"));
  assert.ok(service.printed.some((line) => line.includes("listening on")), "output captured");
  const tokens = Object.values(values);
  const leaks = service.printed.filter((line) =>
    FORBIDDEN.some((pattern) => pattern.test(line)) || tokens.some((token) => line.includes(token))
  );
  assert.deepEqual(leaks, [], "printed by the service");
}

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

/** The request `framing.ts` hides in bodies and behind disputed lengths. */
const SMUGGLED = "GET /example.org HTTP/1.1\r\nHost: localhost\r\n\r\n";
/** It, renamed to a path no other request of the exchanges asks for (same length). */
const RENAMED = "GET /smuggled.io HTTP/1.1\r\nHost: localhost\r\n\r\n";
const RENAMED_PATH = "/smuggled.io";

/**
 * Exchanges in which nginx reads more requests than RFC 9112 frames: nginx 1.22 takes a bare LF
 * for the CRLF that ends a chunk-size line or a chunk's data (RFC 9112 §7.1 asks for CRLF; §2.2
 * allows a bare LF in the start line and fields only; `Deno.serve` refuses both). So nginx reads
 * a whole chunked body, then the hidden `GET /smuggled.io` and `GET /healthz` as two requests
 * more, and passes all three on, re-framed (the body with a `Content-Length`): the service gets
 * exactly the requests nginx read, answered and logged, so nothing is smuggled past nginx. Only a
 * proxy in front of nginx that reads chunk lines strictly would disagree with it.
 */
const LENIENT_CHUNKS: Record<string, string> = {
  "framing: bad chunking: a size line ended by a bare LF": "a bare LF ends the chunk-size line",
  "framing: bad chunking: data ended by a bare LF": "a bare LF ends the chunk's data",
};

/** A request as RFC 9112 frames it. */
interface Framed {
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
function frameRequests(text: string): Framed[] {
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

/** The path the service logs for a request target (without its query). */
function pathOf(target: string): string {
  return new URL(target, "http://localhost").pathname;
}

/** Whether `paths` is `within` with some of its items left out (same order). */
function isSubsequence(paths: string[], within: string[]): boolean {
  let at = 0;
  for (const path of paths) {
    at = within.indexOf(path, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

/** The statuses of the complete answers at the start of `text`; `heads[i]`: to a `HEAD`. */
function answersIn(text: string, heads: boolean[]): { statuses: number[]; rest: string } {
  const statuses: number[] = [];
  let at = 0;
  for (;;) {
    const end = text.indexOf("\r\n\r\n", at);
    if (end < 0) return { statuses, rest: text.slice(at) };
    const [statusLine, ...lines] = text.slice(at, end).split("\r\n");
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (match === null) return { statuses, rest: text.slice(at) };
    const status = Number(match[1]);
    const headers = new Headers();
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    at = end + 4;
    if (status < 200) continue;
    const head = heads[statuses.length] ?? false;
    statuses.push(status);
    if (head || status === 204 || status === 304) continue;
    if (headers.get("transfer-encoding") === "chunked") {
      for (;;) {
        const lineEnd = text.indexOf("\r\n", at);
        const size = parseInt(text.slice(at, lineEnd), 16);
        if (lineEnd < 0 || Number.isNaN(size)) return { statuses, rest: text.slice(at) };
        at = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
    } else if (headers.has("content-length")) {
      at += Number(headers.get("content-length"));
    } else {
      return { statuses, rest: "" };
    }
  }
}

/** What one exchange got through nginx, read until nginx closed the connection. */
interface ExchangeResult {
  readonly entry: ExchangeEntry;
  readonly request: string;
  readonly port: number;
  readonly received: string;
  /** `closed` (by nginx), `reset …`, or `left open` (nothing more within the time allowed). */
  readonly ended: string;
  /** nginx's access-log lines from the exchange's start to after its end. */
  readonly nginx: NginxLine[];
  readonly service: (ServiceLine | string)[];
}

/** Sends `request` in one write to `port`; reads until the other side closes, or `ms` pass. */
async function exchange(port: number, request: string, ms: number) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const local = conn.localAddr.port;
  let ended = "closed";
  const timer = setTimeout(() => {
    ended = "left open";
    conn.close();
  }, ms);
  let received = "";
  try {
    await conn.write(bytesOf(request)).catch(() => {}); // nginx may close before reading it all
    const buffer = new Uint8Array(64 * 1024);
    for (;;) {
      const n = await conn.read(buffer).catch((error) => {
        if (ended === "closed") ended = `reset (${error})`;
        return null;
      });
      if (n === null) break;
      received += latin1(buffer.subarray(0, n));
    }
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // closed by the timer
    }
  }
  return { port: local, received, ended };
}

/** What is wrong with one exchange, given nginx's lines for its connection; or `undefined`. */
function exchangeProblem(got: ExchangeResult, lines: NginxLine[]): string | undefined {
  const { entry, request, received, ended, service } = got;
  const heads = entry.answers.map((answer) => answer.head ?? false);
  const { statuses, rest } = answersIn(received, heads);
  if (ended !== "closed") return `after ${statuses}: connection ${ended}`;
  if (rest !== "") return `bytes after the answers: ${JSON.stringify(rest.slice(0, 80))}`;
  const wrong = fiveHundreds(lines, request) ?? loggedProblem(lines, service);
  if (wrong !== undefined) return wrong;
  const paths = service.map((item) => (item as ServiceLine).path);
  const framed = frameRequests(request).map((request) => pathOf(request.target));
  const lenient = LENIENT_CHUNKS[entry.name];
  if (lenient === undefined) {
    if (isSubsequence(paths, framed)) return undefined;
    return `the service logged ${paths.join(", ")}; the client framed ${framed.join(", ")}`;
  }
  if (isSubsequence(paths, framed)) {
    return `in LENIENT_CHUNKS (${lenient}) but within RFC 9112's framing: remove it`;
  }
  const read = lines.filter((line) => handled(line).length > 0).map((line) => pathOf(line.uri));
  if (JSON.stringify(paths) === JSON.stringify(read)) return undefined;
  return `the service logged ${paths.join(", ")}; nginx passed ${read.join(", ")}`;
}

Deno.test({
  name: "nginx recipe + main.ts: framing exchanges re-framed, nothing smuggled to the service",
  ignore: nginx.ignore,
  async fn() {
    await using stack = await startStack();
    const { service, proxy, values } = stack;
    const started = performance.now();
    const results: ExchangeResult[] = [];
    let hiding = 0;
    for (const entry of EXCHANGES) {
      const filled = fill(entry.request, values);
      if (filled.includes(SMUGGLED)) hiding++;
      const request = filled.split(SMUGGLED).join(RENAMED);
      const from = service.printed.length;
      const nginxFrom = proxy.printed.length;
      // Each exchange ends in Connection: close or a refusal; a body that never comes would be
      // waited for client_body_timeout.
      const got = await exchange(proxy.port, request, 60_000);
      const nginx = accessLines(proxy, nginxFrom, await nginxMark(proxy, nginxFrom));
      results.push({ entry, request, ...got, nginx, service: await serviceLines(service, from) });
    }
    const ms = performance.now() - started;
    assert.ok(hiding >= 40, `only ${hiding} exchanges hide ${JSON.stringify(SMUGGLED)}`);

    const problems: string[] = [];
    let framed = 0;
    let read = 0;
    let passed = 0;
    let logged = 0;
    const renamedThrough: string[] = [];
    for (const got of results) {
      const { own: lines, stray } = ownLines(got.nginx, got.port);
      const wrong = stray ?? exchangeProblem(got, lines);
      if (wrong !== undefined) problems.push(`${got.entry.name}: ${wrong}`);
      framed += frameRequests(got.request).length;
      read += lines.length;
      passed += lines.flatMap(attempts).length;
      logged += got.service.length;
      if (got.service.some((item) => typeof item !== "string" && item.path === RENAMED_PATH)) {
        renamedThrough.push(got.entry.name);
      }
    }
    assert.deepEqual(problems, [], `${problems.length} problems\n${proxy.log().slice(-3000)}`);
    await assertNoSecrets(stack);
    console.log(
      `${EXCHANGES.length} exchanges (${hiding} hiding a request) in ${Math.round(ms)} ms: ` +
        `RFC 9112 frames ${framed} requests in them; nginx logged ${read} (its refusals ` +
        `included), passed ${passed} on, ` +
        `the service logged ${logged}; ${RENAMED_PATH} reached it in: ${renamedThrough.join("; ")}`,
    );
  },
});

/** Socket descriptors the process `pid` holds (listening and connected). */
function sockets(pid: number): number {
  let count = 0;
  for (const entry of Deno.readDirSync(`/proc/${pid}/fd`)) {
    try {
      if (Deno.readLinkSync(`/proc/${pid}/fd/${entry.name}`).startsWith("socket:")) count++;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}

/** The soft limit on open files of the process `pid` (`self`: this one). */
function openFileLimit(pid: number | "self"): number {
  const limits = Deno.readTextFileSync(`/proc/${pid}/limits`);
  const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1];
  return soft === undefined || soft === "unlimited" ? Infinity : Number(soft);
}

/** `promise`, or a failure naming `what` when it has not settled within `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What the keep-alive connection `n` asks once: `/healthz`, answered by the service (never
 * stored), its query ignored. Each asks its own URL: the recipe's `proxy_cache_lock` lets one
 * request at a time through for a URL not in the cache yet, and the others wait, each half a
 * second longer, up to `proxy_cache_lock_timeout` (5 s), whether or not the answer is then stored.
 */
function keepAliveRequest(n: number): Uint8Array {
  return encoder.encode(`GET /healthz?n=${n} HTTP/1.1\r\nHost: logos.example.com\r\n\r\n`);
}

/** A connection the test holds open until nginx ends it. */
class IdleClient {
  /** When it was made (`performance.now()`). */
  readonly opened: number;
  /** When its last bytes came: its answer's, for a keep-alive one. */
  lastRead: number;
  /** When nginx ended it; undefined while it is open. */
  closed: number | undefined;
  /** Everything received, as Latin-1. */
  received = "";
  /** Resolves once it has ended. */
  readonly ended: Promise<void>;
  #closedHere = false;
  #answered = Promise.withResolvers<void>();

  private constructor(private readonly conn: Deno.TcpConn) {
    this.opened = this.lastRead = performance.now();
    this.#answered.promise.catch(() => {}); // looked at only when an answer is expected
    this.ended = this.#read();
  }

  /** Connects to 127.0.0.1:`port` and sends `request`, if any. */
  static async open(port: number, request?: Uint8Array): Promise<IdleClient> {
    const client = new IdleClient(await Deno.connect({ hostname: "127.0.0.1", port }));
    if (request !== undefined) await client.conn.write(request);
    return client;
  }

  /** Resolves once one whole answer has come; rejects if the connection ended first. */
  answered(): Promise<void> {
    return this.#answered.promise;
  }

  async #read(): Promise<void> {
    const buffer = new Uint8Array(1024);
    try {
      for (;;) {
        const n = await this.conn.read(buffer);
        if (n === null) break;
        this.received += latin1(buffer.subarray(0, n));
        this.lastRead = performance.now();
        const { statuses, rest } = answersIn(this.received, []);
        if (statuses.length > 0 && rest === "") this.#answered.resolve();
      }
    } catch {
      // reset by nginx, or closed here
    }
    this.closed = performance.now();
    this.#answered.reject(new Error(`ended after ${JSON.stringify(this.received.slice(0, 80))}`));
    if (!this.#closedHere) this.conn.close();
  }

  /** Closes it from this side (cleanup). */
  close(): void {
    if (this.closed !== undefined || this.#closedHere) return;
    this.#closedHere = true;
    this.conn.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Idle connections of each kind the issue asks nginx to hold. */
const IDLE = 3000;
/**
 * Keep-alive requests in flight at once: no more than the upstream `keepalive`, so nginx opens no
 * more connections to the service than it keeps idle (none to close, nothing to wait for).
 */
const IN_FLIGHT = 30;
const PROBES = 20;

Deno.test({
  name: "nginx recipe + main.ts: 3,000 idle keep-alive and 3,000 silent connections held, " +
    "probes answered, the service's sockets bounded",
  ignore: nginx.ignore,
  async fn() {
    const keepAliveMs = milliseconds(directive("keepalive_timeout"));
    const headerMs = milliseconds(directive("client_header_timeout"));
    assert.ok(IN_FLIGHT <= UPSTREAM_KEEPALIVE);
    assert.ok(IN_FLIGHT < Number(directive("limit_conn").split(/\s+/)[1]), "under limit_conn");
    await using stack = await startStack();
    const { service, proxy, values, worker } = stack;
    // Each idle connection takes a descriptor here and one in nginx's worker, which inherits this
    // process's limit when raising it to worker_rlimit_nofile is refused (as in a container).
    const room = Math.min(openFileLimit("self"), openFileLimit(worker)) - 500;
    const idle = Math.min(IDLE, Math.floor(room / 2));
    if (idle < IDLE) {
      console.warn(
        `open-file limits (this process ${openFileLimit("self")}, nginx's worker ` +
          `${openFileLimit(worker)}) leave room for ${idle} connections of each kind, not ${IDLE}`,
      );
    }
    assert.ok(idle >= 500, `descriptors for ${idle} connections of each kind only`);
    const before = sockets(service.pid);

    const keepAlive: IdleClient[] = [];
    const silent: IdleClient[] = [];
    try {
      const started = performance.now();
      for (let i = 0; i < idle; i += IN_FLIGHT) {
        const batch = await Promise.all(
          Array.from(
            { length: Math.min(IN_FLIGHT, idle - i) },
            (_, j) => IdleClient.open(proxy.port, keepAliveRequest(i + j)),
          ),
        );
        keepAlive.push(...batch);
        await within(
          Promise.all(batch.map((client) => client.answered())),
          60_000,
          `keep-alive requests ${i + 1}–${i + batch.length} answered`,
        );
      }
      const askedMs = performance.now() - started;
      const statuses = new Set(keepAlive.map((client) => client.received.slice(0, 12)));
      assert.deepEqual([...statuses], ["HTTP/1.1 200"], "every keep-alive request answered 200");
      assert.ok(
        keepAlive.every((client) => !/^connection: *close/im.test(client.received)),
        "nginx keeps each connection alive",
      );
      const afterAsking = sockets(service.pid);

      const silentStarted = performance.now();
      for (let i = 0; i < idle; i += 100) {
        const batch = Array.from(
          { length: Math.min(100, idle - i) },
          () => IdleClient.open(proxy.port),
        );
        silent.push(...await Promise.all(batch));
      }
      const silentMs = performance.now() - silentStarted;

      const probeMs: number[] = [];
      for (let i = 0; i < PROBES; i++) {
        const path = i % 2 === 0 ? "/healthz" : `/example.com?token=${values.pk}`;
        const asked = performance.now();
        const answer = await rawExchange(
          proxy.port,
          `GET ${path} HTTP/1.1\r\nHost: logos.example.com\r\nConnection: close\r\n\r\n`,
          { timeoutMs: 30_000 },
        );
        probeMs.push(performance.now() - asked);
        const status = answer.kind === "response" ? answer.status : "closed";
        assert.equal(status, 200, `probe ${i + 1} (${path.slice(0, 12)})\n${proxy.log()}`);
      }
      const probed = performance.now();
      const serviceSockets = sockets(service.pid);
      const workerFds = [...Deno.readDirSync(`/proc/${worker}/fd`)].length;
      // Held while the probes were answered: each still open, or ended by nginx at its timeout.
      const heldKeepAlive = keepAlive.filter((client) => client.closed === undefined).length;
      const heldSilent = silent.filter((client) => client.closed === undefined).length;
      const early = [
        ...keepAlive.filter((client) =>
          client.closed !== undefined && client.closed - client.lastRead < keepAliveMs * 0.9
        ),
        ...silent.filter((client) =>
          client.closed !== undefined && client.closed - client.opened < headerMs * 0.9
        ),
      ];
      assert.equal(early.length, 0, `${early.length} ended by nginx before their timeout`);
      assert.ok(
        serviceSockets <= before + UPSTREAM_KEEPALIVE,
        `service sockets: ${before} before, ${afterAsking} after the keep-alive requests, ` +
          `${serviceSockets} with ${heldKeepAlive} + ${heldSilent} idle connections held`,
      );
      assert.equal(silent.reduce((sum, client) => sum + client.received.length, 0), 0);

      // nginx ends them: the silent ones at client_header_timeout (from the connection), the
      // keep-alive ones at keepalive_timeout (from their answer). Generous for a loaded machine.
      const lateMs = 30_000;
      await within(
        Promise.all([...keepAlive, ...silent].map((client) => client.ended)),
        Math.max(keepAliveMs, headerMs) + lateMs,
        "nginx ends every idle connection",
      );
      const keepAliveLived = keepAlive.map((client) => client.closed! - client.lastRead);
      const silentLived = silent.map((client) => client.closed! - client.opened);
      for (
        const [kind, lived, timeout] of [
          ["keep-alive", keepAliveLived, keepAliveMs],
          ["silent", silentLived, headerMs],
        ] as const
      ) {
        const [shortest, longest] = [Math.min(...lived), Math.max(...lived)];
        assert.ok(shortest >= timeout * 0.9, `${kind}: one ended after ${shortest} ms`);
        assert.ok(longest < timeout + lateMs, `${kind}: one ended after ${longest} ms`);
      }
      const after = await rawExchange(
        proxy.port,
        "GET /healthz HTTP/1.1\r\nHost: logos.example.com\r\nConnection: close\r\n\r\n",
      );
      assert.equal(after.kind === "response" && after.status, 200, "and after");
      await assertNoSecrets(stack);

      console.log(
        `${idle} keep-alive requests answered 200 in ${Math.round(askedMs)} ms (${IN_FLIGHT} in ` +
          `flight), ${idle} silent connections opened in ${Math.round(silentMs)} ms; ${PROBES} ` +
          `probes 200 (median ${Math.round(median(probeMs))} ms, slowest ${
            Math.round(Math.max(...probeMs))
          } ms), done ${((probed - started) / 1000).toFixed(1)} s after the first connection, ` +
          `${heldKeepAlive} + ${heldSilent} held; service sockets ${before} → ${afterAsking} → ` +
          `${serviceSockets} (keepalive ${UPSTREAM_KEEPALIVE}); nginx's worker ${workerFds} ` +
          `descriptors; nginx ended the keep-alive ones ${
            Math.round(median(keepAliveLived))
          } ms after their answer (median; keepalive_timeout ${keepAliveMs}), the silent ones ` +
          `${Math.round(median(silentLived))} ms after connecting (client_header_timeout ` +
          `${headerMs})`,
      );
    } finally {
      for (const client of [...keepAlive, ...silent]) client.close();
      await Promise.all([...keepAlive, ...silent].map((client) => client.ended));
    }
  },
});
