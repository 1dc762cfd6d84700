/**
 * Every setting Logo Lookup reads from the environment, each declared once: its variable, what it
 * does, its default, the programs that read it and its parser. `readSettings` reads them from
 * this table, `--help` of `deno task start` and the admin CLI's usage list them from it, and the
 * {@link Settings} type the server, discovery and the admin CLI are given is derived from it. The
 * parsers stay beside what they configure (`listen_address.ts`, `render_pool.ts`, …); their
 * messages are the start-up errors.
 *
 * @module
 */
import { DEFAULT_KV_PATH, kvLocation } from "../store/open_kv.ts";
import { discoveryEnabled } from "../discovery/discovery_setting.ts";
import { parseConnectTo } from "../discovery/connect_to.ts";
import { parseDnsServer } from "../discovery/bimi.ts";
import { readDenoCert } from "../discovery/extra_ca.ts";
import { parseAccessLogFormat, parseAccessLogSample } from "../observe/access_log.ts";
import { MIN_METRICS_TOKEN_LENGTH, parseMetricsToken } from "../observe/metrics_endpoint.ts";
import { otelEnabled } from "../observe/step_spans.ts";
import { DEFAULT_VARIANT_CACHE_BYTES } from "../http/variant_cache.ts";
import { DEFAULT_SOURCE_CACHE_BYTES } from "../http/render_variant.ts";
import { LOGO_CACHE_MAX_BYTES } from "../http/resolve_logo.ts";
import {
  DEFAULT_HOSTNAME,
  DEFAULT_PORT,
  parseHostname,
  parsePort,
  parseReusePort,
} from "../server/listen_address.ts";
import { DEFAULT_WATCHDOG_MS, parseWatchdogMs } from "../server/watchdog.ts";
import { MAX_CACHE_MB, parseCacheMb } from "../server/cache_budgets.ts";
import {
  MAX_RENDER_DEADLINE_MS,
  MAX_RENDER_WORKERS,
  RENDER_DEADLINE_MS,
  renderDeadlineMs,
  renderWorkers,
} from "../server/render_pool.ts";
import type { Program, Setting, SettingsEnv } from "./setting.ts";

/** `deno task start` alone: how it listens and is watched. */
const START = ["start"] as const;
/** The service behind the handler, under either entry point. */
const SERVER = ["start", "serve"] as const;
/** The server and the admin CLI: the store and discovery's network. */
const EVERY = ["start", "serve", "admin"] as const;

const MiB = 1024 * 1024;

/** A cache budget in MiB, read into bytes. */
function cacheMb(name: string, fallback: number, memory: string, more = "") {
  return {
    name,
    help: `Memory for ${memory}, in MiB, 0 to ${MAX_CACHE_MB}.${more}`,
    default: String(fallback / MiB),
    usedBy: SERVER,
    parse: (value: string | undefined) => parseCacheMb(name, value, fallback),
  };
}

/** The settings, in the order `--help` lists them and `readSettings` checks them. */
export const SETTINGS = {
  port: {
    name: "PORT",
    help: "TCP port to listen on; 0 picks a free port.",
    default: String(DEFAULT_PORT),
    usedBy: START,
    parse: parsePort,
  },
  hostname: {
    name: "LOGO_HOSTNAME",
    help: "IP address to listen on: 127.0.0.1 behind a reverse proxy on the same machine, " +
      ":: for IPv6.",
    default: `${DEFAULT_HOSTNAME}, every IPv4 address`,
    usedBy: START,
    parse: parseHostname,
  },
  reusePort: {
    name: "LOGO_REUSE_PORT",
    help: "on: share PORT with other instances that set it too (SO_REUSEPORT, Linux); one " +
      "instance per core: docs/operate/scaling.md.",
    default: "off",
    usedBy: START,
    parse: parseReusePort,
  },
  watchdogMs: {
    name: "LOGO_WATCHDOG_MS",
    help: "When the serving thread has not run for this many ms (a hang), end the process so " +
      "that its supervisor replaces it; 0: off. Needs --allow-run (the task has it).",
    default: String(DEFAULT_WATCHDOG_MS),
    usedBy: START,
    parse: parseWatchdogMs,
  },
  kvLocation: {
    name: "LOGO_KV",
    help: "The store: a file path (its directory is created), :memory:, platform " +
      "(Deno.openKv() with no path: on Deno Deploy the app's own KV, where a file or :memory: " +
      "is refused), or the http(s):// URL of a KV Connect server (a denokv server or Deno " +
      "Deploy KV).",
    default: `${DEFAULT_KV_PATH}; platform when DENO_DEPLOYMENT_ID is set`,
    usedBy: EVERY,
    parse: (value: string | undefined, env: SettingsEnv) =>
      kvLocation(value, env.DENO_DEPLOYMENT_ID),
  },
  kvAccessToken: {
    name: "DENO_KV_ACCESS_TOKEN",
    help: "Access token of the remote KV named by LOGO_KV (read by Deno).",
    default: "unset",
    usedBy: EVERY,
  },
  deploymentId: {
    name: "DENO_DEPLOYMENT_ID",
    help: "Set by Deno Deploy: the store defaults to the deployment's KV, and the server seeds " +
      "no demo key (docs/operate/deploy.md).",
    default: "unset",
    usedBy: EVERY,
    parse: (value: string | undefined) => value?.trim() || undefined,
  },
  discovery: {
    name: "LOGO_DISCOVERY",
    help: "on or off: on a miss, look for the logo on the domain's own website. Needs outbound " +
      "HTTPS (and HTTP); without it misses are 404s and discovery retries after 1 min, 2, 4 … " +
      "up to 1 h.",
    default: "on",
    usedBy: SERVER,
    parse: discoveryEnabled,
  },
  connectTo: {
    name: "LOGO_CONNECT_TO",
    help: "host:port:address:port,…: send discovery's connections for host:port to " +
      "address:port instead (private deployments, tests).",
    default: "unset",
    usedBy: EVERY,
    parse: parseConnectTo,
  },
  dnsServer: {
    name: "LOGO_DNS_SERVER",
    help: "address:port ([v6]:port) of the name server discovery asks (A, AAAA and BIMI TXT " +
      "lookups) instead of the system's (private deployments, tests).",
    default: "the system's",
    usedBy: EVERY,
    parse: parseDnsServer,
  },
  extraCaCerts: {
    name: "DENO_CERT",
    help: "A PEM file of extra CA certificates (a private CA's): Deno trusts them, and so does " +
      "discovery, besides the default roots (docs/operate/deploy.md).",
    default: "unset",
    usedBy: EVERY,
    parse: (value: string | undefined) => readDenoCert(value),
  },
  accessLogFormat: {
    name: "LOGO_ACCESS_LOG",
    help:
      "off, json or logfmt: one line per request on stdout (docs/operate/observability.md); never a " +
      "token or a query string.",
    default: "off",
    usedBy: SERVER,
    parse: parseAccessLogFormat,
  },
  accessLogSample: {
    name: "LOGO_ACCESS_LOG_SAMPLE",
    help: "Share of requests in the access log, above 0 and at most 1.",
    default: "1",
    usedBy: SERVER,
    parse: parseAccessLogSample,
  },
  metricsToken: {
    name: "LOGO_METRICS_TOKEN",
    help: "Turns on GET /metrics (Prometheus text) for Authorization: Bearer <this token>, at " +
      `least ${MIN_METRICS_TOKEN_LENGTH} characters.`,
    default: "unset: /metrics does not exist",
    usedBy: SERVER,
    parse: parseMetricsToken,
  },
  spans: {
    name: "OTEL_DENO",
    help: "true: Deno's OpenTelemetry export, with a span per request step " +
      "(OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL; read by Deno).",
    default: "false",
    usedBy: SERVER,
    parse: otelEnabled,
  },
  variantCacheBytes: cacheMb(
    "LOGO_VARIANT_CACHE_MB",
    DEFAULT_VARIANT_CACHE_BYTES,
    "rendered logos (default answers live with their records)",
  ),
  sourceCacheBytes: cacheMb(
    "LOGO_SOURCE_CACHE_MB",
    DEFAULT_SOURCE_CACHE_BYTES,
    "stored renditions kept to render from",
  ),
  logoCacheBytes: cacheMb(
    "LOGO_RECORD_CACHE_MB",
    LOGO_CACHE_MAX_BYTES,
    "logo records (each with its default image and answer)",
    " docs/operate/capacity.md: what RSS to expect.",
  ),
  renderWorkers: {
    name: "LOGO_RENDER_WORKERS",
    help: "Worker threads that render resized, greyscale or themed logos, 0 to " +
      `${MAX_RENDER_WORKERS}; 0 renders in the serving isolate.`,
    default: "one per core",
    usedBy: SERVER,
    parse: (value: string | undefined) => renderWorkers(value, navigator.hardwareConcurrency),
  },
  renderDeadlineMs: {
    name: "LOGO_RENDER_DEADLINE_MS",
    help:
      `Longest a render may take once a worker has it, in ms, 100 to ${MAX_RENDER_DEADLINE_MS}; ` +
      "past it the answer is 503 with Retry-After.",
    default: String(RENDER_DEADLINE_MS),
    usedBy: SERVER,
    parse: renderDeadlineMs,
  },
} as const satisfies Readonly<Record<string, Setting>>;

type Table = typeof SETTINGS;
type Parsed<S> = S extends { readonly parse: (...args: never[]) => infer T } ? T : never;

/**
 * The settings `program` reads, parsed: one property per row of {@link SETTINGS} that `program`
 * uses and that is parsed (not read by Deno alone).
 */
export type SettingsFor<P extends Program> = {
  readonly [
    K in keyof Table as Table[K] extends { readonly parse: unknown }
      ? P extends Table[K]["usedBy"][number] ? K : never
      : never
  ]: Parsed<Table[K]>;
};

/** What `deno task start` reads: every setting of the server. */
export type Settings = SettingsFor<"start">;
/** What the service behind the handler reads (`startService`), under either entry point. */
export type ServiceSettings = SettingsFor<"serve">;
/** What the admin CLI reads. */
export type AdminSettings = SettingsFor<"admin">;
