/**
 * Fixture websites for discovery tests: real HTTP servers on loopback (Deno.serve, port 0),
 * reached through `LOGO_CONNECT_TO`-style mappings, that record every request they receive.
 *
 * @module
 */
import { type ConnectToMap, parseConnectTo } from "../../src/discovery/connect_to.ts";

/** A route: a fixed response body (with content type), or a handler. */
export type Route =
  | { body: string | Uint8Array; type?: string; status?: number; headers?: Record<string, string> }
  | ((request: Request) => Response | Promise<Response>);

/** A running fixture site. */
export interface FixtureSite {
  /** The loopback port it listens on. */
  port: number;
  /** Paths (with query) requested so far, in order. */
  requests: string[];
  /** Stops the server (after releasing handlers that wait on {@link FixtureSite.release}). */
  close(): Promise<void>;
  /** Resolves when released: handlers that must hang await it. */
  held: Promise<void>;
}

/** Starts a site serving `routes` (by path; anything else is a 404 HTML page). */
export function startSite(routes: Record<string, Route>): FixtureSite {
  const requests: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    requests.push(url.pathname + url.search);
    const route = routes[url.pathname];
    if (route === undefined) {
      return new Response("<!doctype html><title>Not found</title>", {
        status: 404,
        headers: { "content-type": "text/html" },
      });
    }
    if (typeof route === "function") return await route(request);
    return new Response(route.body as BodyInit, {
      status: route.status ?? 200,
      headers: { "content-type": route.type ?? "text/html; charset=utf-8", ...route.headers },
    });
  });
  return {
    port: server.addr.port,
    requests,
    held,
    async close() {
      release();
      await server.shutdown();
    },
  };
}

/** A loopback port nothing listens on: connections to it are refused. */
export function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

/**
 * Maps each host's port 80 to its site, and port 443 to a closed port (so `https://` is refused
 * and discovery falls back to `http://`).
 */
export function mapHosts(hosts: Record<string, FixtureSite>): ConnectToMap {
  return parseConnectTo(connectToValue(hosts));
}

/** The `LOGO_CONNECT_TO` value of {@link mapHosts}. */
export function connectToValue(hosts: Record<string, FixtureSite>): string {
  const refused = closedPort();
  return Object.entries(hosts)
    .flatMap(([host, site]) => [
      `${host}:80:127.0.0.1:${site.port}`,
      `${host}:443:127.0.0.1:${refused}`,
    ])
    .join(",");
}

/** An HTML page whose `<head>` holds `head`. */
export function page(head: string, body = "<h1>Acme</h1>"): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Acme</title>${head}</head><body>${body}</body></html>`;
}

const FIXTURE_TLS = new URL("../fixtures/discovery_tls/", import.meta.url);
/** The certificate (its own CA) of the https fixture sites, for acme.test. */
export const FIXTURE_CERT: string = Deno.readTextFileSync(new URL("cert.pem", FIXTURE_TLS));

/**
 * An https server for acme.test (the fixture certificate of `test/fixtures/discovery_tls/`,
 * trusted through `caCerts: [FIXTURE_CERT]`) answering `routes` by path (404 otherwise); records
 * the paths requested.
 */
export function httpsSite(routes: Record<string, (request: Request) => Response>) {
  const requests: string[] = [];
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: FIXTURE_CERT,
    key: Deno.readTextFileSync(new URL("key.pem", FIXTURE_TLS)),
    onListen() {},
  }, (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    return routes[path]?.(request) ?? new Response("no", { status: 404 });
  });
  return { port: server.addr.port, requests, close: () => server.shutdown() };
}
