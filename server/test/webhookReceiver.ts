import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A merchant's endpoint for webhook tests: an HTTP server on loopback that records every
// request and answers from a script (then 200 once the script is used up).

export interface ReceivedHook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface WebhookReceiver {
  url(path?: string): string;
  received: ReceivedHook[];
  /** Answers for the next requests, in order. */
  answer(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const script: ScriptedAnswer[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string') headers[name] = value;
      }
      received.push({
        path: request.url ?? '/',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const next = script.shift() ?? { status: 200, body: 'ok' };
      response.writeHead(next.status, next.headers);
      response.end(next.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (...answers) => script.push(...answers),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

export interface SilentReceiver {
  url(path?: string): string;
  /** Requests that arrived (none of them answered). */
  count(): number;
  /** Drops every connection: the requests waiting on it fail at once. */
  close(): Promise<void>;
}

/** A merchant's endpoint that accepts every request and never answers it. */
export async function startSilentReceiver(): Promise<SilentReceiver> {
  let requests = 0;
  const server = http.createServer(() => {
    requests += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    count: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
