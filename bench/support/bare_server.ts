/**
 * The benchmarks' ceiling: a bare `Deno.serve` answering every request with the same image bytes,
 * so a benchmark can compare Logo Lookup's hot path with what this machine can do at all.
 *
 * Usage: deno run --allow-net --allow-read bench/support/bare_server.ts IMAGE_FILE [HEADERS_FILE]
 *
 * HEADERS_FILE is a JSON object of response headers (`bench/serve_bench.ts` passes those the
 * real service answered its default request with, so both send the same bytes and headers);
 * without it, `Content-Type: image/png` and `Cache-Control: public, max-age=86400`.
 * Prints `{"port": N}` once listening on 127.0.0.1 (a free port); exits when stdin closes or on
 * SIGTERM.
 *
 * @module
 */

if (import.meta.main) {
  const bytes = await Deno.readFile(Deno.args[0]);
  const headers: Record<string, string> = Deno.args[1]
    ? JSON.parse(await Deno.readTextFile(Deno.args[1]))
    : { "Content-Type": "image/png", "Cache-Control": "public, max-age=86400" };
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => console.log(JSON.stringify({ port })),
  }, () => new Response(bytes, { headers }));
  for await (const _ of Deno.stdin.readable) {
    // Runs until the benchmark closes stdin.
  }
  await server.shutdown();
}
