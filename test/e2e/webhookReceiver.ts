import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// A merchant's webhook endpoint for the journeys: an HTTP server on loopback (the server under
// test runs with WEBHOOK_ALLOW_PRIVATE) that verifies every POST with the independent
// `standardwebhooks` package.

/** Longest wait for something the server does by itself (a poll of the chain, a retry). */
const WAIT_MS = 30_000;

export interface Arrival {
  /** webhook-id: the event's id, the same across retries and redeliveries. */
  id: string;
  timestamp: number;
  type: string;
  data: Record<string, unknown>;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
}

/**
 * The merchant's endpoint: verifies each POST with `standardwebhooks` (a POST that fails is
 * noted in `problems` and answered 400, as a real receiver would), counts arrivals by webhook-id
 * and answers as `plan` says (it may hold the answer back until the test lets it go).
 */
export class Receiver {
  secret = '';
  readonly arrivals: Arrival[] = [];
  readonly problems: string[] = [];
  plan: (arrival: Arrival, nth: number) => Answer | Promise<Answer> = () => ({ status: 200 });
  private readonly listeners = new Set<() => void>();
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void this.receive(request, Buffer.concat(chunks), response));
  });

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await new Promise((resolve) => this.server.once('listening', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async receive(
    request: http.IncomingMessage,
    body: Buffer,
    response: http.ServerResponse,
  ) {
    const header = (name: string) => String(request.headers[name] ?? '');
    let event: { id: string; type: string; data: Record<string, unknown> };
    try {
      event = new Webhook(this.secret).verify(body, {
        'webhook-id': header('webhook-id'),
        'webhook-timestamp': header('webhook-timestamp'),
        'webhook-signature': header('webhook-signature'),
      }) as typeof event;
      if (event.id !== header('webhook-id')) throw new Error('webhook-id is not the event id');
    } catch (error) {
      this.problems.push(`${header('webhook-id')}: ${String(error)}`);
      response.writeHead(400).end();
      return;
    }
    const arrival: Arrival = {
      id: event.id,
      timestamp: Number(header('webhook-timestamp')),
      type: event.type,
      data: event.data,
    };
    this.arrivals.push(arrival);
    // Told on the next turn, when an answer the plan gives at once is written: a journey woken
    // by this arrival may block its process (an admin command run synchronously) for longer than
    // the server waits for the answer, and the server would send the event again.
    setImmediate(() => {
      for (const listener of this.listeners) listener();
    });
    const answer = await this.plan(arrival, this.count(arrival.id));
    response.writeHead(answer.status, answer.headers).end(answer.status < 300 ? 'ok' : 'nope');
  }

  count(id: string): number {
    return this.arrivals.filter((a) => a.id === id).length;
  }

  /** Resolves with what `find` finds among the arrivals, as soon as it finds something. */
  until<T>(what: string, find: (arrivals: Arrival[]) => T | undefined): Promise<T> {
    return new Promise((resolve, reject) => {
      const look = () => {
        const found = find(this.arrivals);
        if (found === undefined) return;
        done();
        resolve(found);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`the receiver got no ${what} within ${WAIT_MS / 1000} s`));
      }, WAIT_MS);
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(look);
      };
      this.listeners.add(look);
      look();
    });
  }

  /** The first arrival of type `type` after the first `after` arrivals. */
  next(type: string, after: number): Promise<Arrival> {
    return this.until(type, (all) => all.slice(after).find((a) => a.type === type));
  }
}

/** A latch the test opens: a held answer goes out once it is open. */
export function latch(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
