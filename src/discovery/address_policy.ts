/**
 * Which IP addresses discovery may connect to: public unicast only.
 *
 * Classification comes from the maintained `ipaddr.js` range tables (RFC 6890 special-purpose
 * registries); anything it does not call plain `unicast` is refused — loopback, private (RFC 1918),
 * link-local, CGNAT (100.64/10), multicast, broadcast, unspecified, reserved and documentation
 * ranges, benchmarking, unique-local (fc00::/7), site-local, IPv4-mapped and IPv4-compatible IPv6,
 * NAT64 (64:ff9b::/96), 6to4, Teredo, ORCHID and the rest. As a second fence, an IPv6 address must
 * also lie in the global unicast block 2000::/3.
 *
 * @module
 */
import ipaddr from "ipaddr.js";

/** The verdict on one address. */
export interface AddressVerdict {
  /** Whether discovery may connect to it. */
  allowed: boolean;
  /** The address in canonical form (IPv6 without brackets), or the input when it does not parse. */
  address: string;
  /** 4 or 6; 0 when the input is not an IP address. */
  family: 0 | 4 | 6;
  /** The ipaddr.js range name, e.g. "unicast", "loopback", "private", "ipv4Mapped", or "invalid". */
  range: string;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * Classifies `address` (an IPv4 dotted quad or an IPv6 address, brackets allowed) and says whether
 * discovery may connect to it.
 *
 * @example
 * ```ts
 * classifyAddress("127.0.0.1"); // { allowed: false, range: "loopback", family: 4, ... }
 * classifyAddress("8.8.8.8").allowed; // true
 * ```
 */
export function classifyAddress(address: string): AddressVerdict {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  // Only the canonical textual forms: "0x7f.1" or "2130706433" are not addresses here (the URL
  // parser has already turned such hosts into dotted quads).
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare) && !ipaddr.IPv6.isValid(bare)) {
    return { allowed: false, address, family: 0, range: "invalid" };
  }
  const parsed = ipaddr.parse(bare);
  const range = parsed.range();
  if (parsed.kind() === "ipv4") {
    return { allowed: range === "unicast", address: parsed.toString(), family: 4, range };
  }
  const v6 = parsed as ipaddr.IPv6;
  const global = v6.match(GLOBAL_UNICAST_V6);
  return {
    allowed: range === "unicast" && global,
    address: v6.toString(),
    family: 6,
    range: range === "unicast" && !global ? "notGlobalUnicast" : range,
  };
}

/**
 * Whether `address` is a public unicast address discovery may connect to.
 *
 * @example
 * ```ts
 * isPublicAddress("10.0.0.1"); // false
 * ```
 */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address).allowed;
}

/**
 * Whether `host` (a URL hostname) is an IP literal rather than a name.
 *
 * @example
 * ```ts
 * isIpLiteral("[::1]"); // true
 * isIpLiteral("example.com"); // false
 * ```
 */
export function isIpLiteral(host: string): boolean {
  return classifyAddress(host).family !== 0;
}
