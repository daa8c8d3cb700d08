import { chmodSync, existsSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import type { SignerConfig } from '../config';
import { parseRequest, type SignerAnswer, type SignerRequest } from './protocol';

// The channel between the web process and the signer, one JSON line per request and per
// answer. Requests are answered one at a time, in order, whichever connection they come on.
// - On one machine: a unix socket (mode 0600, in the owner-only DATA_DIR).
// - Across hosts (the signer on its own machine, PostgreSQL shared): TCP with mutual TLS 1.3.
//   Both sides hold a certificate of the deployment's private CA; the signer refuses a client
//   without one (requestCert + rejectUnauthorized), the client checks the signer's certificate
//   and its name against the host it dials.

export const SIGNER_SOCKET_FILE = 'signer.sock';

export type SignerEndpoint =
  | { kind: 'unix'; path: string }
  | { kind: 'tls'; host: string; port: number; ca: string; cert: string; key: string };

/** Where the signer listens: SIGNER_SOCKET (a path or tls://host:port), else DATA_DIR/signer.sock. */
export function signerEndpoint(config: {
  dataDir: string;
  signer: Pick<SignerConfig, 'socket' | 'tls'>;
}): SignerEndpoint {
  const { socket, tls: files } = config.signer;
  if (socket?.startsWith('tls://') && files) {
    const url = new URL(socket);
    return { kind: 'tls', host: url.hostname, port: Number(url.port), ...files };
  }
  return {
    kind: 'unix',
    path: path.resolve(socket ?? path.join(config.dataDir, SIGNER_SOCKET_FILE)),
  };
}

/** Whether a signer may be listening (a unix socket's file exists; a TCP one is always tried). */
export function signerPresent(endpoint: SignerEndpoint): boolean {
  return endpoint.kind === 'tls' || existsSync(endpoint.path);
}

/** The endpoint's name in messages and logs. */
export function endpointName(endpoint: SignerEndpoint): string {
  return endpoint.kind === 'unix' ? endpoint.path : `tls://${endpoint.host}:${endpoint.port}`;
}

function tlsFiles(endpoint: Extract<SignerEndpoint, { kind: 'tls' }>) {
  return {
    ca: readFileSync(endpoint.ca),
    cert: readFileSync(endpoint.cert),
    key: readFileSync(endpoint.key),
    minVersion: 'TLSv1.3' as const,
  };
}

export interface SignerServer {
  close(): Promise<void>;
}

/** Listens on `endpoint` and answers each request line with `handle`. */
export async function listenSigner(
  endpoint: SignerEndpoint,
  handle: (request: SignerRequest) => Promise<SignerAnswer>,
  onError: (error: unknown) => void,
): Promise<SignerServer> {
  // A socket file left by a signer that died is in the way; a live one answers and is not ours.
  if (endpoint.kind === 'unix' && existsSync(endpoint.path)) {
    if (await answers(endpoint.path)) {
      throw new Error(`A signer already listens on ${endpoint.path}`);
    }
    rmSync(endpoint.path, { force: true });
  }
  let queue: Promise<unknown> = Promise.resolve();
  const serve = (socket: net.Socket) => {
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
  };
  const server =
    endpoint.kind === 'unix'
      ? net.createServer(serve)
      : tls.createServer(
          { ...tlsFiles(endpoint), requestCert: true, rejectUnauthorized: true },
          serve,
        );
  // A client refused at the handshake (no certificate of the CA) is dropped, nothing more.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.off('error', reject);
      resolve();
    };
    if (endpoint.kind === 'unix') server.listen(endpoint.path, listening);
    else server.listen(endpoint.port, endpoint.host, listening);
  });
  if (endpoint.kind === 'unix') chmodSync(endpoint.path, 0o600);
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
export function signerClient(endpoint: SignerEndpoint, timeoutMs = 60_000): SignerClient {
  const files = endpoint.kind === 'tls' ? tlsFiles(endpoint) : null;
  return {
    request(request) {
      return new Promise<SignerAnswer>((resolve, reject) => {
        const socket =
          endpoint.kind === 'unix'
            ? net.connect(endpoint.path)
            : tls.connect({ ...files, host: endpoint.host, port: endpoint.port });
        const connected = endpoint.kind === 'unix' ? 'connect' : 'secureConnect';
        let buffer = '';
        const timer = setTimeout(() => {
          socket.destroy();
          reject(new SignerUnavailableError(`The signer did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
        socket.setEncoding('utf8');
        socket.once(connected, () => socket.write(`${JSON.stringify(request)}\n`));
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
            new SignerUnavailableError(`The signer is unreachable at ${endpointName(endpoint)}`, {
              cause: error,
            }),
          );
        });
        // Closed without an answer: a signer that died mid-request, or (TLS 1.3, where the
        // client's certificate is checked after the client's handshake ends) one that refused us.
        socket.once('close', () => {
          clearTimeout(timer);
          reject(
            new SignerUnavailableError(
              `The signer at ${endpointName(endpoint)} closed the connection without an answer`,
            ),
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
