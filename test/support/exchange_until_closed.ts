/** One raw exchange read to its end: every byte the other side sent until it closed. */
import { latin1 } from "./latin1.ts";

/** What {@link exchangeUntilClosed} received. */
export interface WholeExchange {
  /** The client's local port (which connection, in a proxy's log). */
  readonly port: number;
  /** Every byte received, as Latin-1. */
  readonly received: string;
  /** `closed` (by the other side), `reset …`, or `left open` (not closed within the time). */
  readonly ended: string;
}

/**
 * Sends `request` in one write to 127.0.0.1:`port` and reads until the other side closes the
 * connection, or `ms` pass (then it is closed here: "left open").
 */
export async function exchangeUntilClosed(
  port: number,
  request: Uint8Array,
  ms: number,
): Promise<WholeExchange> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const local = conn.localAddr.port;
  let ended = "closed";
  const timer = setTimeout(() => {
    ended = "left open";
    conn.close();
  }, ms);
  let received = "";
  try {
    await conn.write(request).catch(() => {}); // the other side may close before reading it all
    const buffer = new Uint8Array(64 * 1024);
    for (;;) {
      const n = await conn.read(buffer).catch((error) => {
        if (ended === "closed") ended = `reset (${error})`;
        return null;
      });
      if (n === null) break;
      received += latin1(buffer.subarray(0, n));
    }
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // closed by the timer
    }
  }
  return { port: local, received, ended };
}
