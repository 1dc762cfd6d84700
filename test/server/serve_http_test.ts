/**
 * `serveHttp` (src/server/serve_http.ts): a listener that fails is opened again on the same
 * address, at once and then on the retry timer while opening it throws; shutdown stops that; the
 * first listen's error rejects. Driven by a fake `serve` (each call scripted to open or throw, each
 * server failed by hand) and a fake `setTimer` (retries run when the test fires them), so nothing
 * waits on real time. One test serves real requests with `Deno.serve`.
 */
import assert from "node:assert/strict";
import {
  RELISTEN_RETRY_MS,
  serveHttp,
  type ServeHttpOptions,
} from "../../src/server/serve_http.ts";

/** The port the fake binds when asked for port 0. */
const BOUND_PORT = 41_234;

/** A `Deno.HttpServer` whose `finished` the test settles. */
class FakeServer {
  readonly finished: Promise<void>;
  readonly addr: Deno.NetAddr;
  shutdowns = 0;
  /** Whether `shutdown` leaves `finished` pending (requests in flight) until `fail`. */
  holdShutdown = false;
  #resolve!: () => void;
  #reject!: (error: unknown) => void;

  constructor(readonly options: Deno.ServeTcpOptions) {
    this.addr = {
      transport: "tcp",
      hostname: options.hostname ?? "0.0.0.0",
      port: options.port === 0 ? BOUND_PORT : options.port ?? 8000,
    };
    this.finished = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** The accept failed: the listener is gone and `finished` rejects, as Deno 2.9.6 does. */
  fail(message = "Too many open files (os error 24)"): void {
    this.#reject(new Error(message));
  }

  shutdown(): Promise<void> {
    this.shutdowns++;
    if (!this.holdShutdown) this.#resolve();
    return this.finished;
  }

  ref(): void {}
  unref(): void {}
  [Symbol.asyncDispose](): Promise<void> {
    return this.shutdown();
  }
}

/** A fake `serve`, `setTimer` and `log`, and what they were asked. */
function fakes(outcomes: (Error | "open")[] = []) {
  const servers: FakeServer[] = [];
  const calls: Deno.ServeTcpOptions[] = [];
  const handlers: Deno.ServeHandler[] = [];
  const timers: { callback: () => void; ms: number }[] = [];
  const logged: string[] = [];
  const handler = () => new Response("ok");
  const options: Omit<ServeHttpOptions, "port"> = {
    hostname: "127.0.0.1",
    serve(serveOptions, serveHandler) {
      calls.push(serveOptions);
      handlers.push(serveHandler);
      const outcome = outcomes.shift() ?? "open";
      if (outcome !== "open") throw outcome;
      const server = new FakeServer(serveOptions);
      servers.push(server);
      return server as unknown as Deno.HttpServer;
    },
    setTimer(callback, ms) {
      timers.push({ callback, ms });
    },
    log: (line) => logged.push(line),
  };
  /** Fires the oldest pending timer. */
  const fire = () => {
    const timer = timers.shift();
    assert.ok(timer, "no timer pending");
    timer.callback();
  };
  return { servers, calls, handlers, timers, logged, handler, options, fire };
}

/** Lets every pending promise reaction run (a rejected `finished` reaches its handler). */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

Deno.test("serveHttp: a listener that fails is opened again on the port first bound", async () => {
  const f = fakes();
  const server = await serveHttp({ ...f.options, port: 0 }, f.handler);
  assert.deepEqual(server.addr, { hostname: "127.0.0.1", port: BOUND_PORT });
  assert.equal(f.calls.length, 1);
  assert.equal(f.calls[0].port, 0);

  f.servers[0].fail();
  await settle();
  assert.equal(f.calls.length, 2, "opened again at once");
  assert.equal(f.calls[1].port, BOUND_PORT, "on the port the first listen got, not port 0");
  assert.equal(f.calls[1].hostname, "127.0.0.1");
  assert.equal(server.relistens, 1);
  assert.deepEqual(f.timers, [], "no retry needed");
  assert.equal(f.logged.length, 1);
  assert.match(f.logged[0], /Too many open files.*opening it again/);

  // The new listener fails too: opened again once more.
  f.servers[1].fail();
  await settle();
  assert.equal(f.calls.length, 3);
  assert.equal(f.calls[2].port, BOUND_PORT);
  assert.equal(server.relistens, 2);
  assert.equal(f.logged.length, 1, "one line for the whole episode");

  // A request answered ends the episode: one line says so, and the next failure is told again.
  const info = {} as Deno.ServeHandlerInfo<Deno.NetAddr>;
  const answer = await f.handlers[2](new Request("http://h/"), info);
  assert.equal(await answer.text(), "ok", "the service's handler answers");
  assert.deepEqual(f.logged.slice(1), ["Answering again after 2 failed listener(s)."]);
  await f.handlers[2](new Request("http://h/"), info);
  assert.equal(f.logged.length, 2, "said once");
  f.servers[2].fail();
  await settle();
  assert.equal(f.logged.length, 3);
  assert.match(f.logged[2], /opening it again/);

  await server.shutdown();
  assert.equal(f.servers[3].shutdowns, 1, "the current listener is shut down");
});

Deno.test("serveHttp: a reopen that throws is retried on the timer until it opens", async () => {
  const emfile = new Error("Too many open files (os error 24)");
  const f = fakes(["open", emfile, emfile]);
  const server = await serveHttp({ ...f.options, port: 8123 }, f.handler);

  f.servers[0].fail();
  await settle();
  assert.equal(f.calls.length, 2, "tried at once");
  assert.equal(server.relistens, 0, "not open yet");
  assert.deepEqual(f.timers.map((timer) => timer.ms), [RELISTEN_RETRY_MS]);

  f.fire(); // throws again: another retry
  assert.equal(f.calls.length, 3);
  assert.equal(server.relistens, 0);
  assert.deepEqual(f.timers.map((timer) => timer.ms), [RELISTEN_RETRY_MS]);

  f.fire(); // opens
  assert.equal(f.calls.length, 4);
  assert.deepEqual(f.calls.map((call) => call.port), [8123, 8123, 8123, 8123]);
  assert.equal(f.servers.length, 2);
  assert.equal(server.relistens, 1);
  assert.deepEqual(f.timers, [], "no retry once open");

  // The reopened listener is watched like the first.
  f.servers[1].fail();
  await settle();
  assert.equal(f.calls.length, 5);
  assert.equal(server.relistens, 2);

  await server.shutdown();
  assert.equal(f.servers[2].shutdowns, 1);
});

Deno.test("serveHttp: shutdown stops reopening, pending retries included", async (t) => {
  await t.step("a listener that fails while it shuts down is not opened again", async () => {
    const f = fakes();
    const server = await serveHttp({ ...f.options, port: 0 }, f.handler);
    f.servers[0].holdShutdown = true; // requests in flight: its shutdown takes a while
    let finished = false;
    server.finished.then(() => finished = true);
    const stopping = server.shutdown();
    assert.equal(f.servers[0].shutdowns, 1);
    f.servers[0].fail(); // the accept fails meanwhile
    await stopping;
    await settle();
    assert.equal(finished, true, "finished resolves with shutdown");
    assert.equal(f.calls.length, 1, "not opened again");
    assert.deepEqual(f.timers, []);
    assert.deepEqual(f.logged, []);
  });

  await t.step("a retry that fires after shutdown opens nothing", async () => {
    const f = fakes(["open", new Error("Too many open files (os error 24)")]);
    const server = await serveHttp({ ...f.options, port: 0 }, f.handler);
    f.servers[0].fail();
    await settle();
    assert.equal(f.timers.length, 1, "a retry is pending");
    await server.shutdown();
    f.fire();
    assert.equal(f.calls.length, 2, "not opened after shutdown");
    assert.equal(f.servers.length, 1);
    assert.deepEqual(f.timers, []);
    assert.equal(server.relistens, 0);
  });
});

Deno.test("serveHttp: the first listen's error rejects, nothing is retried", async () => {
  const inUse = new Deno.errors.AddrInUse("Address already in use (os error 98)");
  const f = fakes([inUse]);
  await assert.rejects(serveHttp({ ...f.options, port: 8123 }, f.handler), (error) => {
    assert.equal(error, inUse, "the error as thrown, for main.ts to name PORT");
    return true;
  });
  assert.equal(f.calls.length, 1);
  assert.deepEqual(f.timers, []);
  assert.deepEqual(f.logged, []);
});

Deno.test("serveHttp: with Deno.serve, answers on the port it reports and shuts down", async () => {
  const server = await serveHttp(
    { port: 0, hostname: "127.0.0.1" },
    (request) => new Response(new URL(request.url).pathname),
  );
  try {
    assert.ok(server.addr.port > 0);
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/healthz`);
    assert.equal(await response.text(), "/healthz");
  } finally {
    await server.shutdown();
  }
  await server.finished;
  await assert.rejects(fetch(`http://127.0.0.1:${server.addr.port}/`), TypeError);
});
