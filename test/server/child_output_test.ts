import assert from "node:assert/strict";
import { readChildOutput } from "../../src/server/child_output.ts";
import { readyLine, supervisedChild } from "../../src/server/supervised_child.ts";

const encode = (text: string) => new TextEncoder().encode(text);

/** Feeds `chunks` through readChildOutput; what was held, the port, and what was written. */
async function feed(chunks: string[]) {
  const writes: string[] = [];
  const output = readChildOutput(
    ReadableStream.from(chunks.map(encode)),
    (bytes) => writes.push(new TextDecoder().decode(bytes)),
  );
  const started = await output.started;
  await output.ended;
  return { ...started, writes };
}

Deno.test("child output: start-up lines held up to the ready line, then whole lines passed on", async () => {
  const { lines, port, writes } = await feed([
    "Logo Lookup listen",
    "ing on http://localhost:8000\nConnections: …\n",
    `${readyLine(8000)}\nGET /a 2`,
    "00\nGET /b 200\nGET /c",
    " 404\n",
  ]);
  assert.deepEqual(lines, ["Logo Lookup listening on http://localhost:8000", "Connections: …"]);
  assert.equal(port, 8000);
  // Never part of a line: each write ends with a newline.
  assert.deepEqual(writes, ["GET /a 200\nGET /b 200\n", "GET /c 404\n"]);
});

Deno.test("child output: a ready line split over two reads is found", async () => {
  const line = readyLine(43210);
  const { port, writes } = await feed([line.slice(0, 10), `${line.slice(10)}\nafter\n`]);
  assert.equal(port, 43210);
  assert.deepEqual(writes, ["after\n"]);
});

Deno.test("child output: ending before the ready line gives every line and no port", async () => {
  const { lines, port, writes } = await feed(["Cannot open the store\n", "last words"]);
  assert.equal(port, undefined);
  assert.deepEqual(lines, ["Cannot open the store", "last words"]);
  assert.deepEqual(writes, []);
});

Deno.test("child output: an unfinished last line is written when the output ends", async () => {
  const { writes } = await feed([`${readyLine(1)}\nno newline`]);
  assert.deepEqual(writes, ["no newline"]);
});

Deno.test("supervised child: only with the index variable; prints the ready line; sees stdin end", async () => {
  assert.equal(supervisedChild(() => undefined), undefined);
  const printed: string[] = [];
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const child = supervisedChild(() => "2", () => readable, (line) => printed.push(line));
  assert.ok(child);
  assert.equal(child.index, 2);
  child.ready(8123);
  assert.deepEqual(printed, [readyLine(8123)]);
  let gone = false;
  const watching = child.supervisorGone().then(() => gone = true);
  const writer = writable.getWriter();
  await writer.write(encode("ignored"));
  assert.equal(gone, false);
  await writer.close();
  await watching;
  assert.equal(gone, true);
});
