/**
 * The change signal of logos, read side: a server process reads the logo change counter once a
 * second (`logo_changes.ts` writes it), and when it moved, the change log since a little before
 * the previous read. It tells its listeners which domains changed, or — when the counter moved
 * further than the log entries it found explain (a writer's clock far behind, a read that came
 * too late) — that anything may have changed. It also says until when the cached records are known
 * to be current ({@link LogoChangeFeed.confirmedAt}): the start of the last read that succeeded.
 *
 * Why not `kv.watch`: on a local store file Deno does not tell one process of another's writes
 * (denoland/deno#21640), and several instances may share one file (docs/operate/scaling.md). One small read
 * a second per process works the same on a file, denokv and Deno Deploy.
 *
 * Nothing runs until {@link LogoChangeFeed.start}; {@link LogoChangeFeed.stop} ends the loop.
 *
 * @example
 * ```ts
 * import { LogoChangeFeed } from "./logo_change_feed.ts";
 * const kv = await Deno.openKv(":memory:");
 * const feed = new LogoChangeFeed(kv);
 * feed.subscribe({
 *   changed: (domains) => console.log("changed:", domains),
 *   cleared: () => console.log("anything may have changed"),
 * });
 * feed.start();
 * // … later
 * await feed.stop();
 * kv.close();
 * ```
 * @module
 */
import { LOGO_CHANGE_COUNT_KEY, LOGO_CHANGE_LOG_PREFIX, logoChangeKey } from "./keyspace.ts";

/** What a feed tells. */
export interface LogoChangeListener {
  /** These domains' logos were written (added, replaced or removed). */
  changed(domains: readonly string[]): void;
  /** Changes were missed: anything may have changed. */
  cleared(): void;
}

/** Options of {@link LogoChangeFeed}. */
export interface LogoChangeFeedOptions {
  /** Epoch-ms clock; default `Date.now`. */
  clock?: () => number;
  /** Pause between two reads, ms; default {@link CHANGE_POLL_MS}. */
  pollMs?: number;
  /**
   * How far before the previous read the log is read again, ms: room for writers' clocks behind
   * this one and for slow commits; default {@link CHANGE_LOG_MARGIN_MS}.
   */
  marginMs?: number;
  /** A read not answered within this many ms is given up (and counts as failed); default 5000. */
  readTimeoutMs?: number;
  /** Where a failed read is reported (once until one succeeds again); default `console.error`. */
  log?: (message: string, error?: unknown) => void;
}

/** One read: the counter (`null` when absent), and the log entries listed when it moved. */
interface CounterRead {
  count: bigint | null;
  entries: Deno.KvEntry<unknown>[];
}

/** Pause between two reads of the counter. */
export const CHANGE_POLL_MS = 1_000;
/** How far back, before the previous read, the change log is read again. */
export const CHANGE_LOG_MARGIN_MS = 5_000;

/** Reads the logo change signal; see the module documentation. */
export class LogoChangeFeed {
  readonly #kv: Deno.Kv;
  readonly #clock: () => number;
  readonly #pollMs: number;
  readonly #marginMs: number;
  readonly #readTimeoutMs: number;
  readonly #log: (message: string, error?: unknown) => void;
  readonly #listeners = new Set<LogoChangeListener>();
  /** The counter as last read (`null` before the first read or while it does not exist). */
  #count: bigint | null = null;
  #started = false;
  /** The start of the last read that succeeded; `-Infinity` before one. */
  #confirmedAt = -Infinity;
  /** Where the log was last read from's upper end: the previous read's start. */
  #previousStart = -Infinity;
  /** Log entries already told (key and versionstamp), by their time, to tell each once. */
  readonly #seen = new Map<string, number>();
  /** Log entries told beyond the counter's moves so far (entries committed after its read). */
  #credit = 0n;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = false;
  #failing = false;

  /** Wraps `kv`; reads nothing until {@link start} or {@link poll}. */
  constructor(kv: Deno.Kv, options: LogoChangeFeedOptions = {}) {
    this.#kv = kv;
    this.#clock = options.clock ?? Date.now;
    this.#pollMs = options.pollMs ?? CHANGE_POLL_MS;
    this.#marginMs = options.marginMs ?? CHANGE_LOG_MARGIN_MS;
    this.#readTimeoutMs = options.readTimeoutMs ?? 5_000;
    this.#log = options.log ?? console.error;
  }

  /** Tells `listener` of every change from now on; returns a function that stops that. */
  subscribe(listener: LogoChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Epoch ms up to which what a listener cached is known current, unless it was told otherwise:
   * the start of the last read that succeeded (`-Infinity` before the first).
   */
  confirmedAt(): number {
    return this.#confirmedAt;
  }

  /** Starts reading: at once, then {@link CHANGE_POLL_MS} after each read ends. */
  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    const loop = () => {
      this.#running = this.poll().finally(() => {
        if (!this.#stopped) this.#timer = setTimeout(loop, this.#pollMs);
      });
    };
    loop();
  }

  /** Stops reading and waits for a read in flight (bounded by the read timeout). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /**
   * One read: the counter, and when it moved, the log. Resolves `true` when it succeeded (and
   * listeners were told), `false` when KV failed or was too slow (reported, nothing told).
   */
  async poll(): Promise<boolean> {
    const start = this.#clock();
    try {
      this.#apply(await this.#within(this.#read(start)));
      this.#confirmedAt = Math.max(this.#confirmedAt, start);
      this.#previousStart = start;
      if (this.#failing) this.#log("Logo change feed: reading again");
      this.#failing = false;
      return true;
    } catch (error) {
      if (!this.#failing) this.#log("Logo change feed: cannot read the change counter", error);
      this.#failing = true;
      return false;
    }
  }

  async #read(start: number): Promise<CounterRead> {
    const counter = await this.#kv.get<Deno.KvU64>(LOGO_CHANGE_COUNT_KEY);
    const count = counter.value?.value ?? null;
    const entries: Deno.KvEntry<unknown>[] = [];
    // A counter that did not move means no write; one that vanished leaves nothing to list.
    if (count === null || count === this.#count) return { count, entries };
    // From a little before the previous read (or this one, the first time).
    const since = Number.isFinite(this.#previousStart) ? this.#previousStart : start;
    const from = Math.max(0, Math.floor(since - this.#marginMs));
    const to = Math.floor(start + this.#marginMs) + 1;
    const selector = { start: logoChangeKey(from, ""), end: [...LOGO_CHANGE_LOG_PREFIX, to] };
    for await (const entry of this.#kv.list(selector)) entries.push(entry);
    return { count, entries };
  }

  #apply({ count, entries }: CounterRead): void {
    const before = this.#count;
    this.#count = count;
    if (count === before) return;
    const domains: string[] = [];
    for (const entry of entries) {
      const id = `${JSON.stringify(entry.key)} ${entry.versionstamp}`;
      if (this.#seen.has(id)) continue;
      this.#seen.set(id, entry.key[2] as number);
      domains.push(entry.key[3] as string);
    }
    // Forget what the next read cannot list again (it starts after this one's start − margin).
    const from = this.#previousStart - this.#marginMs;
    for (const [id, at] of this.#seen) if (at < from) this.#seen.delete(id);
    if (before === null || count === null) {
      // The first count seen (what was cached before it is not known current), or a counter that
      // vanished (a store emptied by hand): start over from here, the log read so far told.
      this.#credit = 0n;
      this.#tell((l) => l.cleared());
      return;
    }
    this.#credit += BigInt(domains.length) - (count - before);
    if (count < before || this.#credit < 0n) {
      this.#credit = 0n;
      this.#tell((l) => l.cleared());
    } else if (domains.length > 0) {
      this.#tell((l) => l.changed(domains));
    }
  }

  #tell(call: (listener: LogoChangeListener) => void): void {
    for (const listener of this.#listeners) call(listener);
  }

  /** `work`'s outcome, or a rejection when it takes longer than the read timeout. */
  async #within<T>(work: Promise<T>): Promise<T> {
    const ms = this.#readTimeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
