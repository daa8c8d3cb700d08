import pg from 'pg';

// PostgreSQL's notifications, heard on one connection per process and database. PostgreSQL wakes
// every backend that listens, whatever its channels, at each commit that notifies: with a
// connection per channel, each process's backends woke twice for every such commit (the owner
// changes' and the jobs' listeners, 19 % of the backends' CPU while invoices were created).

/** What a channel's subscriber is told. */
export interface ChannelHandlers {
  /** A notification on the channel, with its payload when it has one. */
  heard(payload: string | undefined): void;
  /** The connection listens to the channel (again): what was sent while it did not, is lost. */
  listening(): void;
  /** The connection dropped: nothing is heard until `listening` again. */
  lost(): void;
}

export interface Subscription {
  close(): Promise<void>;
}

/** The listening connection's application_name (pg_stat_activity). */
export const LISTENER_NAME = 'portal listener';
const RECONNECT_MS = 1_000;

interface Subscriber {
  channel: string;
  handlers: ChannelHandlers;
}

/** One connection's subscribers; it connects with the first and ends with the last. */
class SharedListener {
  readonly #subscribers = new Set<Subscriber>();
  #client: pg.Client | undefined;
  #connected = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly ended: () => void,
  ) {}

  add(subscriber: Subscriber): void {
    this.#subscribers.add(subscriber);
    if (this.#connected) this.#listenFor(subscriber);
    else if (!this.#client && !this.#retry) this.#start();
  }

  async remove(subscriber: Subscriber): Promise<void> {
    if (!this.#subscribers.delete(subscriber)) return;
    if (this.#subscribers.size > 0) return;
    this.ended();
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = undefined;
    const last = this.#client;
    this.#client = undefined;
    this.#connected = false;
    await last?.end().catch(() => {});
  }

  #start(): void {
    this.#retry = undefined;
    if (this.#client || this.#subscribers.size === 0) return;
    const mine = new pg.Client({
      connectionString: this.connectionString,
      application_name: LISTENER_NAME,
    });
    this.#client = mine;
    mine.on('notification', (message) => {
      for (const { channel, handlers } of this.#subscribers) {
        if (channel === message.channel) handlers.heard(message.payload);
      }
    });
    mine.on('error', () => this.#drop(mine));
    mine.on('end', () => this.#drop(mine));
    mine
      .connect()
      .then(() => {
        if (this.#client !== mine) return;
        this.#connected = true;
        for (const subscriber of this.#subscribers) this.#listenFor(subscriber);
      })
      .catch(() => this.#drop(mine));
  }

  /** LISTEN, then the subscriber is told (a second LISTEN of a channel changes nothing). */
  #listenFor(subscriber: Subscriber): void {
    const mine = this.#client;
    if (!mine) return;
    mine
      .query(`LISTEN ${pg.escapeIdentifier(subscriber.channel)}`)
      .then(() => {
        if (this.#client === mine && this.#subscribers.has(subscriber)) {
          subscriber.handlers.listening();
        }
      })
      .catch(() => this.#drop(mine));
  }

  #drop(failed: pg.Client): void {
    if (this.#client !== failed) return;
    this.#client = undefined;
    this.#connected = false;
    failed.end().catch(() => {});
    for (const { handlers } of this.#subscribers) handlers.lost();
    if (this.#subscribers.size > 0) {
      this.#retry = setTimeout(() => this.#start(), RECONNECT_MS).unref();
    }
  }
}

const listeners = new Map<string, SharedListener>();

function sharedListener(connectionString: string): SharedListener {
  const found = listeners.get(connectionString);
  if (found) return found;
  const made = new SharedListener(connectionString, () => {
    if (listeners.get(connectionString) === made) listeners.delete(connectionString);
  });
  listeners.set(connectionString, made);
  return made;
}

/**
 * Hears `channel` on the process's listening connection to `connectionString` until closed.
 * The connection is made by the first subscriber, remade a second after it drops, and ended
 * with the last subscriber.
 */
export function listen(
  connectionString: string,
  channel: string,
  handlers: ChannelHandlers,
): Subscription {
  const shared = sharedListener(connectionString);
  const subscriber: Subscriber = { channel, handlers };
  shared.add(subscriber);
  return { close: () => shared.remove(subscriber) };
}
