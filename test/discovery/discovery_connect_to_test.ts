import assert from "node:assert/strict";
import { connectTarget, parseConnectTo } from "../../src/discovery/connect_to.ts";

Deno.test("connect-to maps host and port to an address and port, like curl --connect-to", () => {
  const map = parseConnectTo("acme.test:80:127.0.0.1:8081, Shop.Test:443:[::1]:8443");
  assert.deepEqual(connectTarget(map, "acme.test", 80), {
    address: "127.0.0.1",
    family: 4,
    port: 8081,
  });
  assert.deepEqual(connectTarget(map, "shop.test", 443), { address: "::1", family: 6, port: 8443 });
  assert.equal(connectTarget(map, "acme.test", 443), undefined);
  assert.equal(connectTarget(map, "other.test", 80), undefined);
});

Deno.test("connect-to accepts an empty or missing value", () => {
  assert.equal(parseConnectTo(undefined).size, 0);
  assert.equal(parseConnectTo("").size, 0);
  assert.equal(parseConnectTo(" , ").size, 0);
});

Deno.test("connect-to refuses malformed entries with a clear message", () => {
  for (
    const bad of [
      "acme.test",
      "acme.test:80",
      "acme.test:80:127.0.0.1",
      "acme.test:x:127.0.0.1:80",
      "acme.test:80:127.0.0.1:70000",
      "acme.test:80:not-an-ip:80",
      "acme.test:80:::1:80",
      ":80:127.0.0.1:80",
    ]
  ) {
    assert.throws(
      () => parseConnectTo(bad),
      (error: Error) =>
        error.message === `Invalid LOGO_CONNECT_TO entry "${bad}": expected host:port:address:port`,
      bad,
    );
  }
});
