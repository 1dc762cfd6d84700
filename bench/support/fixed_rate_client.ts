/**
 * An open-loop HTTP client for the render-pool benchmark: sends requests at a fixed rate, each at
 * its scheduled time whether or not earlier ones have been answered (so a stalled server shows up
 * in the latencies instead of slowing the client down), and prints one JSON line with the
 * statuses and latency percentiles, measured from each request's scheduled time.
 *
 * Usage: deno run -A bench/support/fixed_rate_client.ts MODE RATE SECONDS BASE TOKEN DOMAINS
 * - MODE `hot`: every request is the first domain's default logo (a cache hit once warm);
 * - MODE `cold`: every request is a variant not asked before (size × greyscale × theme × domain),
 *   so the server renders each one.
 *
 * @module
 */

/** What the client prints when done. */
export interface FixedRateResult {
  /** Requests sent. */
  sent: number;
  /** Responses by status, an error's with its body's start (`error` for a failed fetch). */
  statuses: Record<string, number>;
  /** Latency percentiles in ms, from the scheduled send time. */
  p50Ms: number;
  /** 99th percentile. */
  p99Ms: number;
  /** Largest latency. */
  maxMs: number;
}

/** The `i`-th cold variant's query: walks domain × size (1..800) × greyscale × theme. */
export function coldPath(i: number, token: string, domains: string[]): string {
  const domain = domains[i % domains.length];
  let rest = Math.floor(i / domains.length);
  const size = (rest % 800) + 1;
  rest = Math.floor(rest / 800);
  const grey = rest % 2 === 1;
  const theme = ["", "&theme=light", "&theme=dark"][Math.floor(rest / 2) % 3];
  return `/${domain}?token=${token}&size=${size}&greyscale=${grey}${theme}`;
}

/** Where the cold walk starts: the dark theme, far from what wrk's cold script asks for. */
const COLD_OFFSET = 64_000;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

if (import.meta.main) {
  const [mode, rateText, secondsText, base, token, domainList] = Deno.args;
  const rate = Number(rateText);
  const total = Math.round(rate * Number(secondsText));
  const domains = domainList.split(",");
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const inflight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // Cold variants start where `cold_variants.lua` (which begins with no theme) will not reach.
    const path = mode === "cold"
      ? coldPath(COLD_OFFSET + i, token, domains)
      : `/${domains[0]}?token=${token}`;
    inflight.push((async () => {
      let status = "error";
      try {
        const response = await fetch(base + path);
        const body = await response.arrayBuffer();
        status = String(response.status);
        // An error's body says why: a full render queue and a slow KV are both 503s.
        if (response.status >= 400) status += ` ${new TextDecoder().decode(body).slice(0, 40)}`;
      } catch {
        // counted as "error"
      }
      latencies.push(performance.now() - due);
      statuses[status] = (statuses[status] ?? 0) + 1;
    })());
  }
  await Promise.all(inflight);
  latencies.sort((a, b) => a - b);
  const result: FixedRateResult = {
    sent: total,
    statuses,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? NaN,
  };
  console.log(JSON.stringify(result));
}
