import assert from "node:assert/strict";

const CHILD = new URL("../support/hostile_discovery_child.ts", import.meta.url).pathname;

Deno.test({
  name: "discovery: a PNG with zlib bombs in iCCP and zTXt does not grow the process past 512 MiB",
  ignore: Deno.build.os !== "linux", // reads /proc
  async fn() {
    // 2 × 0.5 GiB once inflated. Decoded in the serving isolate, it took the process past 4 GiB.
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", CHILD, "0.5"],
      stderr: "inherit",
    }).output();
    assert.equal(out.code, 0);
    const { grown, status, result } = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.ok(grown < 512 * 2 ** 20, `the process grew by ${Math.round(grown / 2 ** 20)} MiB`);
    // Refused (deadline, memory cap, or imagecore's chunk caps), or stored without the bombs.
    if (status === "stored") assert.equal(result, "png 64x64");
    else assert.match(result, /Cannot (decode|process) image/);
  },
});
