/**
 * The load benchmark's ceiling: a bare `Deno.serve` answering every request with the same image
 * bytes, so the benchmark can compare Logo Lookup's hot path with what this machine can do at all.
 *
 * Usage: deno run --allow-net --allow-read bench/support/bare_server.ts IMAGE_FILE
 * Prints `{"port": N}` once listening; exits when stdin closes.
 *
 * @module
 */

if (import.meta.main) {
  const bytes = await Deno.readFile(Deno.args[0]);
  const headers = {
    "Content-Type": "image/png",
    "Cache-Control": "public, max-age=86400",
  };
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
