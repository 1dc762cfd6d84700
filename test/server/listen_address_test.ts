/**
 * `LOGO_HOSTNAME`: the real server listens on that address only (behind a proxy on the same box,
 * nothing reaches it on another address); a value that is no IP address, or no address of this
 * machine, stops start-up with one line naming the setting.
 */
import assert from "node:assert/strict";
import { parseHostname, urlHost } from "../../src/server/listen_address.ts";
import { startMainProcess } from "../support/main_process.ts";

Deno.test("LOGO_HOSTNAME: parsed as an IP address, default every IPv4 address", () => {
  assert.equal(parseHostname(undefined), "0.0.0.0");
  assert.equal(parseHostname("  "), "0.0.0.0");
  assert.equal(parseHostname(" 127.0.0.1 "), "127.0.0.1");
  assert.equal(parseHostname("::1"), "::1");
  assert.throws(
    () => parseHostname("localhost"),
    /Invalid LOGO_HOSTNAME "localhost": expected an IP/,
  );
  assert.throws(() => parseHostname("127.0.0.1:80"), /Invalid LOGO_HOSTNAME/);
  assert.equal(urlHost("::1"), "[::1]");
  assert.equal(urlHost("::"), "localhost");
  assert.equal(urlHost("127.0.0.2"), "127.0.0.2");
});

async function answers(hostname: string, port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://${hostname}:${port}/healthz`);
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

Deno.test("LOGO_HOSTNAME=127.0.0.2: the server answers there and not on 127.0.0.1", async () => {
  await using server = await startMainProcess({ LOGO_KV: ":memory:", LOGO_HOSTNAME: "127.0.0.2" });
  assert.ok(
    server.printed.some((line) => line.includes(`listening on http://127.0.0.2:${server.port}`)),
    server.printed.join("\n"),
  );
  assert.equal(await answers("127.0.0.2", server.port), true);
  assert.equal(await answers("127.0.0.1", server.port), false);
  assert.equal(await server.stop(), 0);
});

Deno.test("LOGO_HOSTNAME: a bad value stops start-up with one line naming it", async () => {
  for (
    const [value, message] of [
      ["example.com", /^Invalid LOGO_HOSTNAME "example.com": expected an IP address/],
      // TEST-NET-1 (RFC 5737): never an address of this machine. Only bound, never sent to.
      ["192.0.2.1", /^Cannot listen on LOGO_HOSTNAME=192.0.2.1: not an address of this machine/],
    ] as const
  ) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../../src/main.ts", import.meta.url).pathname],
      env: { LOGO_KV: ":memory:", LOGO_HOSTNAME: value, PORT: "0", LOGO_DISCOVERY: "off" },
      stdout: "null",
      stderr: "piped",
    }).output();
    const lines = new TextDecoder().decode(output.stderr).trim().split("\n");
    assert.equal(output.code, 1);
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(lines[0], message);
  }
});
