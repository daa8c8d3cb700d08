import type { CheckoutStatus } from './screens';

// The checkout's live status, one feed per process: a single timer asks the database, once a
// tick, which of the invoices with an open stream changed (one query for all of them, whatever
// the number of streams), loads each changed invoice once, and hands its status to every stream
// open on it. An open stream costs no query of its own; an idle feed (no stream) runs no timer.

export interface StatusListener {
  status(status: CheckoutStatus): void;
  /** A comment line now and then, so proxies keep an idle stream open. */
  ping(): void;
}

export interface FeedSource {
  /** For each existing invoice of `ids`, a text that changes with anything its page shows. */
  fingerprints(ids: readonly string[]): Promise<Map<string, string>>;
  /** The status of invoice `id` now, undefined when it is gone. */
  status(id: string): Promise<CheckoutStatus | undefined>;
}

export interface FeedOptions {
  tickMs: number;
  /** Every this many ticks, each stream gets a ping. */
  pingEvery: number;
  onError?: (error: unknown) => void;
}

export class StatusFeed {
  readonly #listeners = new Map<string, Set<StatusListener>>();
  readonly #prints = new Map<string, string>();
  readonly #source: FeedSource;
  readonly #options: FeedOptions;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #ticks = 0;

  constructor(source: FeedSource, options: FeedOptions) {
    this.#source = source;
    this.#options = options;
  }

  /** Streams open now (metrics, tests). */
  get streams(): number {
    let n = 0;
    for (const set of this.#listeners.values()) n += set.size;
    return n;
  }

  /** Listens to invoice `id`'s changes until the returned function is called. */
  subscribe(id: string, listener: StatusListener): () => void {
    let set = this.#listeners.get(id);
    if (!set) {
      set = new Set();
      this.#listeners.set(id, set);
    }
    set.add(listener);
    this.#timer ??= setInterval(() => void this.tick(), this.#options.tickMs);
    return () => {
      const open = this.#listeners.get(id);
      open?.delete(listener);
      if (open?.size === 0) {
        this.#listeners.delete(id);
        this.#prints.delete(id);
      }
      if (this.#listeners.size === 0) this.#stop();
    };
  }

  /**
   * One turn: one query for every watched invoice, then one load per changed invoice. An invoice
   * seen for the first time counts as changed (its streams may have opened after a change).
   * A turn still running when the next is due lets that one pass.
   */
  async tick(): Promise<void> {
    if (this.#running || this.#listeners.size === 0) return;
    this.#running = true;
    try {
      this.#ticks += 1;
      if (this.#ticks % this.#options.pingEvery === 0) {
        for (const set of this.#listeners.values()) for (const l of set) l.ping();
      }
      const ids = [...this.#listeners.keys()];
      const prints = await this.#source.fingerprints(ids);
      for (const id of ids) {
        const print = prints.get(id);
        if (print === undefined || print === this.#prints.get(id)) continue;
        const status = await this.#source.status(id);
        // Unsubscribed meanwhile: nothing to remember.
        const set = this.#listeners.get(id);
        if (!set || status === undefined) continue;
        this.#prints.set(id, print);
        for (const listener of set) listener.status(status);
      }
    } catch (error) {
      this.#options.onError?.(error);
    } finally {
      this.#running = false;
    }
  }

  #stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  close(): void {
    this.#stop();
    this.#listeners.clear();
    this.#prints.clear();
  }
}
