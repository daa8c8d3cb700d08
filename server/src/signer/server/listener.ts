import { chmodSync, existsSync, rmSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { tlsFiles, type SignerEndpoint } from '../client/client';
import { parseRequest, type SignerAnswer, type SignerRequest } from '../client/protocol';

// The signer's side of the channel (signer/client/client.ts has the web process's side).

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
          ? handle(request)
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
