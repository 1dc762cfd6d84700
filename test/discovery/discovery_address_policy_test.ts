import assert from "node:assert/strict";
import {
  classifyAddress,
  isIpLiteral,
  isPublicAddress,
} from "../../src/discovery/address_policy.ts";

const REFUSED: [string, string][] = [
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["10.0.0.1", "private"],
  ["172.16.5.4", "private"],
  ["192.168.1.1", "private"],
  ["100.64.0.1", "carrierGradeNat"],
  ["100.127.255.254", "carrierGradeNat"],
  ["169.254.169.254", "linkLocal"],
  ["224.0.0.251", "multicast"],
  ["239.255.255.250", "multicast"],
  ["0.0.0.0", "unspecified"],
  ["255.255.255.255", "broadcast"],
  ["192.0.2.10", "reserved"], // TEST-NET-1
  ["198.51.100.7", "reserved"], // TEST-NET-2
  ["203.0.113.9", "reserved"], // TEST-NET-3
  ["198.18.0.1", "reserved"], // benchmarking
  ["240.0.0.1", "reserved"],
  ["192.0.0.8", "reserved"],
  ["::1", "loopback"],
  ["::", "unspecified"],
  ["fe80::1", "linkLocal"],
  ["fc00::1", "uniqueLocal"],
  ["fd12:3456::1", "uniqueLocal"],
  ["ff02::1", "multicast"],
  ["::ffff:127.0.0.1", "ipv4Mapped"],
  ["::ffff:8.8.8.8", "ipv4Mapped"], // even a public one: no tunnelling through mapped forms
  ["::127.0.0.1", "ipv4Mapped"], // IPv4-compatible
  ["64:ff9b::7f00:1", "rfc6052"], // NAT64
  ["2002:7f00:1::1", "6to4"],
  ["2001::1", "teredo"],
  ["2001:db8::1", "reserved"], // documentation
  ["3fff::1", "reserved"], // documentation (RFC 9637)
  ["fec0::1", "deprecatedSiteLocal"],
  ["100::1", "discard"],
  ["[::1]", "loopback"],
];

Deno.test("address policy refuses every non-public range, IPv4 and IPv6", () => {
  for (const [address, range] of REFUSED) {
    const verdict = classifyAddress(address);
    assert.equal(verdict.allowed, false, `${address} must be refused`);
    assert.equal(verdict.range, range, `${address} range`);
    assert.equal(isPublicAddress(address), false);
  }
});

Deno.test("address policy allows public unicast addresses", () => {
  for (
    const address of [
      "8.8.8.8",
      "1.1.1.1",
      "93.184.216.34",
      "2606:4700:4700::1111",
      "[2a00:1450::1]",
    ]
  ) {
    assert.equal(isPublicAddress(address), true, address);
  }
  assert.deepEqual(classifyAddress("2606:4700:4700:0:0:0:0:1111"), {
    allowed: true,
    address: "2606:4700:4700::1111",
    family: 6,
    range: "unicast",
  });
});

Deno.test("address policy refuses IPv6 outside global unicast 2000::/3 even when unclassified", () => {
  const verdict = classifyAddress("4000::1");
  assert.equal(verdict.allowed, false);
  assert.equal(verdict.range, "notGlobalUnicast");
});

Deno.test("address policy does not treat names or odd numeric forms as addresses", () => {
  for (const input of ["example.com", "0x7f.1", "2130706433", "127.1", "", "1.2.3.4.5", "::g"]) {
    const verdict = classifyAddress(input);
    assert.equal(verdict.allowed, false, input);
    assert.equal(verdict.family, 0, input);
    assert.equal(isIpLiteral(input), false, input);
  }
  assert.equal(isIpLiteral("[::1]"), true);
  assert.equal(isIpLiteral("10.0.0.1"), true);
});
