/**
 * Runs wrk (the HTTP load generator, Debian package `wrk`) and reads its report.
 *
 * @module
 */

/** What one wrk run measured. */
export interface WrkResult {
  /** Requests completed. */
  requests: number;
  /** Requests per second over the run. */
  requestsPerSecond: number;
  /** Median latency in milliseconds. */
  p50Ms: number;
  /** 99th-percentile latency in milliseconds. */
  p99Ms: number;
  /** Responses with a status outside 2xx/3xx. */
  non2xx: number;
  /** Connect, read, write and timeout errors. */
  socketErrors: number;
}

/** Options of {@link runWrk}. */
export interface WrkOptions {
  /** Seconds to run. */
  seconds: number;
  /** Open connections. */
  connections: number;
  /** wrk threads. */
  threads: number;
  /** A Lua script (wrk's `-s`) that shapes the requests. */
  script?: string;
  /** Extra environment for the script. */
  env?: Record<string, string>;
}

/** Whether wrk is installed. */
export async function hasWrk(): Promise<boolean> {
  try {
    await new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" }).output();
    return true;
  } catch {
    return false;
  }
}

function milliseconds(value: string, unit: string): number {
  const n = Number(value);
  switch (unit) {
    case "us":
      return n / 1000;
    case "ms":
      return n;
    case "s":
      return n * 1000;
    case "m":
      return n * 60_000;
    default:
      throw new Error(`Cannot read wrk latency: unknown unit "${unit}"`);
  }
}

/** Reads wrk's text report (run with `--latency`). */
export function parseWrk(report: string): WrkResult {
  const latency = (percentile: string) => {
    const match = report.match(new RegExp(`^\\s*${percentile}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m"));
    if (!match) throw new Error(`Cannot read wrk report: no ${percentile}% latency\n${report}`);
    return milliseconds(match[1], match[2]);
  };
  const requests = report.match(/^\s*(\d+) requests in/m);
  const rate = report.match(/^Requests\/sec:\s+([\d.]+)/m);
  if (!requests || !rate) throw new Error(`Cannot read wrk report:\n${report}`);
  const non2xx = report.match(/Non-2xx or 3xx responses:\s+(\d+)/);
  const socket = report.match(
    /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/,
  );
  return {
    requests: Number(requests[1]),
    requestsPerSecond: Number(rate[1]),
    p50Ms: latency("50"),
    p99Ms: latency("99"),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

/** Runs wrk against `url` and returns what it measured. */
export async function runWrk(url: string, options: WrkOptions): Promise<WrkResult> {
  const args = [
    "-t",
    String(options.threads),
    "-c",
    String(options.connections),
    "-d",
    `${options.seconds}s`,
    "--latency",
    "--timeout",
    "10s",
  ];
  if (options.script) args.push("-s", options.script);
  args.push(url);
  const output = await new Deno.Command("wrk", {
    args,
    env: options.env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const report = new TextDecoder().decode(output.stdout);
  if (!output.success) {
    throw new Error(`wrk failed: ${new TextDecoder().decode(output.stderr)}\n${report}`);
  }
  return parseWrk(report);
}
