/**
 * Where one hop of a safe fetch may connect: the URL's scheme is checked, `LOGO_CONNECT_TO`
 * mappings come first, then the host name is resolved here and every address classified by the
 * address policy; the first public address is the one the connection goes to (pinned, so DNS
 * rebinding cannot swap it).
 *
 * @module
 */
import { classifyAddress } from "./address_policy.ts";
import { connectTarget, type ConnectToMap, NO_CONNECT_TO } from "./connect_to.ts";
import { SafeFetchError, timeoutError } from "./safe_fetch_error.ts";

/** Resolves a host name to IP addresses (A and AAAA). */
export type Resolver = (hostname: string, signal?: AbortSignal) => Promise<string[]>;

/** What {@link pin} needs of the fetch's options. */
export interface PinOptions {
  /** Resolve overrides; the only way to reach non-public addresses. */
  connectTo?: ConnectToMap;
  /** Name resolution; default {@link resolveWithDeno}. */
  resolve?: Resolver;
  /** Aborts the name resolution: the overall time budget. */
  signal?: AbortSignal;
}

/** A DNS server to ask instead of the system's (`LOGO_DNS_SERVER`): `Deno.resolveDns`'s `nameServer`. */
export interface NameServer {
  /** IPv4 or IPv6 address. */
  ipAddr: string;
  /** UDP/TCP port. */
  port: number;
}

/**
 * Resolves A and AAAA records with `Deno.resolveDns` (on `nameServer` when given); fails only
 * when both fail.
 *
 * @example
 * ```ts
 * const addresses = await resolveWithDeno("example.com");
 * ```
 */
export async function resolveWithDeno(
  hostname: string,
  signal?: AbortSignal,
  nameServer?: NameServer,
): Promise<string[]> {
  const [v4, v6] = await Promise.allSettled([
    Deno.resolveDns(hostname, "A", { signal, nameServer }),
    Deno.resolveDns(hostname, "AAAA", { signal, nameServer }),
  ]);
  if (v4.status === "rejected" && v6.status === "rejected") throw v4.reason;
  return [
    ...(v4.status === "fulfilled" ? v4.value : []),
    ...(v6.status === "fulfilled" ? v6.value : []),
  ];
}

/**
 * What a failed lookup means, in words: the resolver's own text (`proto error: no records found
 * for Query { … }`) names its internals, not the cause. Unknown texts pass through.
 *
 * @example
 * ```ts
 * dnsDetail(new Error("proto error: request timed out")); // "DNS failure: no answer from the DNS server in time"
 * ```
 */
export function dnsDetail(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (/timed out/i.test(text)) return "DNS failure: no answer from the DNS server in time";
  if (/no records found/.test(text)) {
    return "DNS failure: the name has no address (no A or AAAA record)";
  }
  if (/connection refused|unreachable|os error/i.test(text)) {
    return "DNS failure: the DNS server cannot be reached";
  }
  return text;
}

/** The checked address one hop connects to. */
export interface Pinned {
  address: string;
  family: 4 | 6;
  port: number;
}

function defaultPort(url: URL): number {
  return url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** The URL's host name without the brackets of an IPv6 literal. */
export function bareHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith("[") ? host.slice(1, -1) : host;
}

/**
 * Decides where one hop may connect, or refuses with a {@link SafeFetchError}.
 *
 * @example
 * ```ts
 * const target = await pin(new URL("https://example.com/"), {});
 * console.log(target.address, target.port);
 * ```
 */
export async function pin(url: URL, options: PinOptions): Promise<Pinned> {
  const href = url.href;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SafeFetchError(
      "bad_scheme",
      href,
      `Refused ${url.protocol} URL: only http and https`,
    );
  }
  const port = defaultPort(url);
  const mapped = connectTarget(options.connectTo ?? NO_CONNECT_TO, url.hostname, port);
  if (mapped) return { address: mapped.address, family: mapped.family, port: mapped.port };
  const literal = classifyAddress(bareHost(url));
  if (literal.family !== 0) {
    if (!literal.allowed) {
      throw new SafeFetchError(
        "blocked_address",
        href,
        `Refused ${literal.address}: ${literal.range} address is not public`,
      );
    }
    return { address: literal.address, family: literal.family, port };
  }
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? resolveWithDeno)(url.hostname, options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw timeoutError(href);
    throw new SafeFetchError("dns", href, `Cannot resolve ${url.hostname}: ${dnsDetail(error)}`);
  }
  const verdicts = addresses.map(classifyAddress);
  const usable = verdicts.find((verdict) => verdict.allowed);
  if (!usable || usable.family === 0) {
    const seen = verdicts.map((v) => `${v.address} (${v.range})`).join(", ") || "no address";
    throw new SafeFetchError(
      addresses.length === 0 ? "dns" : "blocked_address",
      href,
      `Refused ${url.hostname}: resolves to ${seen}, no public address`,
    );
  }
  return { address: usable.address, family: usable.family, port };
}
