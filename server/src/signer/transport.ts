import { chmodSync, existsSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseRequest, type SignerAnswer, type SignerRequest } from './protocol';

// The channel between the web process and the signer on one machine: a unix socket (mode 0600,
// in the owner-only DATA_DIR), one JSON line per request and per answer. Requests are answered
// one at a time, in order, whichever connection they come on.
//
// Across hosts (the signer on its own machine, PostgreSQL shared): the same lines over TCP with
// mutual TLS (tls.createServer with requestCert + rejectUnauthorized and a private CA, the web
// process holding a client certificate). Not built yet: SIGNER_SOCKET takes a socket path only.

export const SIGNER_SOCKET_FILE = 'signer.sock';

/** Where the signer listens: SIGNER_SOCKET, else DATA_DIR/signer.sock. */
export function signerSocketPath(config: {
  dataDir: string;
  signer: { socket: string | undefined };
}): string {
  return path.resolve(config.signer.socket ?? path.join(config.dataDir, SIGNER_SOCKET_FILE));
}

export interface SignerServer {
  close(): Promise<void>;
}

/** Listens on `socketPath` and answers each request line with `handle`. */
export async function listenSigner(
  socketPath: string,
  handle: (request: SignerRequest) => Promise<SignerAnswer>,
  onError: (error: unknown) => void,
): Promise<SignerServer> {
  // A socket file left by a signer that died is in the way; a live one answers and is not ours.
  if (existsSync(socketPath)) {
    if (await answers(socketPath)) throw new Error(`A signer already listens on ${socketPath}`);
    rmSync(socketPath, { force: true });
  }
  let queue: Promise<unknown> = Promise.resolve();
  const server = net.createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > 64 * 1024) {
        socket.destroy(); // no request is this long
        return;
      }
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const request = parseRequest(line);
        const answer: Promise<SignerAnswer> = request
          ? ((queue = queue.then(
              () => handle(request),
              () => handle(request),
            )) as Promise<SignerAnswer>)
          : Promise.resolve({ state: 'refused', reason: 'Not a request the signer knows.' });
        answer.then(
          (a) => socket.write(`${JSON.stringify(a)}\n`),
          (error: unknown) => {
            onError(error);
            socket.write(`${JSON.stringify({ state: 'waiting', reason: 'The signer failed.' })}\n`);
          },
        );
        newline = buffer.indexOf('\n');
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The web process's side: the three requests. */
export interface SignerClient {
  request(request: SignerRequest): Promise<SignerAnswer>;
}

/** One connection per request: simple, and a restarted signer is found again at once. */
export function signerClient(socketPath: string, timeoutMs = 60_000): SignerClient {
  return {
    request(request) {
      return new Promise<SignerAnswer>((resolve, reject) => {
        const socket = net.connect(socketPath);
        let buffer = '';
        const timer = setTimeout(() => {
          socket.destroy();
          reject(new SignerUnavailableError(`The signer did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
        socket.setEncoding('utf8');
        socket.once('connect', () => socket.write(`${JSON.stringify(request)}\n`));
        socket.on('data', (chunk: string) => {
          buffer += chunk;
          const newline = buffer.indexOf('\n');
          if (newline < 0) return;
          clearTimeout(timer);
          socket.end();
          try {
            resolve(JSON.parse(buffer.slice(0, newline)) as SignerAnswer);
          } catch (error) {
            reject(new SignerUnavailableError('The signer answered nonsense', { cause: error }));
          }
        });
        socket.once('error', (error) => {
          clearTimeout(timer);
          reject(
            new SignerUnavailableError(`The signer is unreachable at ${socketPath}`, {
              cause: error,
            }),
          );
        });
      });
    },
  };
}

export class SignerUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignerUnavailableError';
  }
}
