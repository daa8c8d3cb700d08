import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import type { SignerConfig } from '../../config';
import type { SignerAnswer, SignerRequest } from './protocol';

// The channel between the web process and the signer, one JSON line per request and per
// answer, one request per connection. The signer answers one request at a time per chain (its
// lanes: signer/server/service.ts), whichever connection it comes on.
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

/** The TLS options of either side: the deployment's CA, this side's certificate, TLS 1.3. */
export function tlsFiles(endpoint: Extract<SignerEndpoint, { kind: 'tls' }>) {
  return {
    ca: readFileSync(endpoint.ca),
    cert: readFileSync(endpoint.cert),
    key: readFileSync(endpoint.key),
    minVersion: 'TLSv1.3' as const,
  };
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
