/**
 * BIMI (Brand Indicators for Message Identification): a domain's `default._bimi.DOMAIN` TXT record
 * (`v=BIMI1; l=https://…/logo.svg; a=…`) names its brand logo, a square SVG (SVG Tiny PS) that
 * mail providers show — the best source there is for the brands that publish one.
 *
 * Discovery looks the record up with `Deno.resolveDns` (on the name server of `LOGO_DNS_SERVER`
 * when set, see {@link parseDnsServer}), and the SVG it names becomes a candidate of kind `bimi`,
 * fetched through the same SSRF-safe path and limits as every other candidate. `rank.ts` puts a
 * square SVG from BIMI first; anything else it names is refused. The certificate (`a=`) is not
 * verified: a logo discovery stores is a convenience, not a trust mark.
 *
 * @module
 */
import type { Candidate } from "./candidate.ts";
import type { ConnectToMap } from "./connect_to.ts";
import type { NameServer, Resolver } from "./pin_address.ts";

export type { NameServer } from "./pin_address.ts";

/** Looks up the TXT records of `name`; each record is its list of character strings. */
export type TxtLookup = (name: string, signal: AbortSignal) => Promise<string[][]>;

/**
 * Parses `LOGO_DNS_SERVER`: `address:port` (IPv6 in brackets: `[::1]:53`), or the address alone
 * (port 53). Empty or unset: undefined (the system's resolver).
 *
 * @throws {Error} "Invalid LOGO_DNS_SERVER …" for anything else.
 * @example
 * ```ts
 * parseDnsServer("127.0.0.1:5353"); // { ipAddr: "127.0.0.1", port: 5353 }
 * ```
 */
export function parseDnsServer(value: string | undefined): NameServer | undefined {
  const text = value?.trim() ?? "";
  if (text === "") return undefined;
  const match = /^(?:\[([0-9a-f:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$/i.exec(text);
  const port = Number(match?.[3] ?? 53);
  const ipAddr = match?.[1] ?? match?.[2];
  if (!match || !ipAddr || port < 1 || port > 65535 || (match[2] && !isIpv4(match[2]))) {
    throw new Error(
      `Invalid LOGO_DNS_SERVER "${text}": expected address:port, e.g. 127.0.0.1:53 or [::1]:53`,
    );
  }
  return { ipAddr, port };
}

function isIpv4(text: string): boolean {
  const parts = text.split(".");
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/**
 * The TXT lookup of `Deno.resolveDns`, on `nameServer` when given.
 *
 * @example
 * ```ts
 * const lookup = denoTxtLookup({ ipAddr: "127.0.0.1", port: 5353 });
 * await lookup("default._bimi.example.com", AbortSignal.timeout(2000));
 * ```
 */
export function denoTxtLookup(nameServer?: NameServer): TxtLookup {
  return (name, signal) => Deno.resolveDns(name, "TXT", { nameServer, signal });
}

/**
 * Which TXT lookup BIMI uses, from discovery's settings: `lookupTxt` when given; else
 * `Deno.resolveDns` on `dnsServer` when one is set; else none when a custom `resolve` is injected
 * (its DNS is not Deno's); else the system resolver, except for domains `connectTo` maps (their
 * names are private: public DNS says nothing about them).
 *
 * @example
 * ```ts
 * const lookup = bimiLookup({ dnsServer: { ipAddr: "127.0.0.1", port: 5353 } });
 * ```
 */
export function bimiLookup(settings: {
  lookupTxt?: TxtLookup;
  dnsServer?: NameServer;
  resolve?: Resolver;
  connectTo?: ConnectToMap;
}): TxtLookup | undefined {
  if (settings.lookupTxt) return settings.lookupTxt;
  if (settings.dnsServer) return denoTxtLookup(settings.dnsServer);
  if (settings.resolve) return undefined;
  const lookup = denoTxtLookup();
  const mapped = [...(settings.connectTo?.keys() ?? [])].map((key) => key.replace(/:\d+$/, ""));
  return (name, signal) =>
    mapped.some((host) => name === `default._bimi.${host}`)
      ? Promise.reject(new Error(`${name}: mapped by LOGO_CONNECT_TO`))
      : lookup(name, signal);
}

/**
 * The logo URL of a BIMI record, or undefined: the record must start with `v=BIMI1`, and its
 * `l=` must be one `https:` URL (an empty `l=` declines to publish a logo).
 *
 * @example
 * ```ts
 * bimiLogoUrl("v=BIMI1; l=https://acme.test/bimi.svg; a=;"); // "https://acme.test/bimi.svg"
 * ```
 */
export function bimiLogoUrl(record: string): string | undefined {
  const tags = new Map<string, string>();
  for (const part of record.split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const key = part.slice(0, at).trim().toLowerCase();
    if (!tags.has(key)) tags.set(key, part.slice(at + 1).trim());
  }
  if (!/^\s*v\s*=\s*BIMI1\s*(;|$)/i.test(record)) return undefined;
  const location = tags.get("l") ?? "";
  if (location === "" || location.includes(",")) return undefined;
  try {
    const url = new URL(location);
    return url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The BIMI candidate of `domain`, or undefined when it publishes none (no record, a DNS error,
 * several records, no valid `l=`).
 *
 * @example
 * ```ts
 * const candidate = await bimiCandidate("acme.test", denoTxtLookup(), AbortSignal.timeout(2000));
 * ```
 */
export async function bimiCandidate(
  domain: string,
  lookup: TxtLookup,
  signal: AbortSignal,
): Promise<Candidate | undefined> {
  let records: string[][];
  try {
    records = await lookup(`default._bimi.${domain}`, signal);
  } catch {
    return undefined; // No record (NXDOMAIN, no TXT) or no answer: no BIMI logo.
  }
  const bimi = records.map((chunks) => chunks.join("")).filter((r) => /^\s*v\s*=\s*BIMI1/i.test(r));
  const url = bimi.length === 1 ? bimiLogoUrl(bimi[0]) : undefined;
  return url === undefined ? undefined : { url, kind: "bimi", type: "image/svg+xml" };
}
