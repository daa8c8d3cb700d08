import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import type { SignerRequest } from './client/protocol';
import {
  signerClient,
  signerEndpoint,
  SignerUnavailableError,
  type SignerEndpoint,
} from './client/client';
import { listenSigner, type SignerServer } from './server/listener';

// The signer on another host: TCP with mutual TLS. Certificates are made here with openssl, as
// an operator makes them: a private CA, the signer's certificate for the address the web
// process dials, the web process's client certificate; and a second CA an impostor holds.

let dir: string;
const file = (name: string) => path.join(dir, name);
/** Runs openssl with a command line (the paths have no spaces: they are under a temp dir). */
function openssl(line: string) {
  execFileSync('openssl', line.split(' '), { stdio: 'ignore' });
}
const EC = '-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes';
function ca(name: string) {
  openssl(
    `req -x509 ${EC} -days 2 -subj /CN=${name} -keyout ${file(`${name}.key`)} -out ${file(`${name}.pem`)}`,
  );
}
function leaf(name: string, signedBy: string, san: string) {
  openssl(`req ${EC} -subj /CN=${name} -keyout ${file(`${name}.key`)} -out ${file(`${name}.csr`)}`);
  writeFileSync(file(`${name}.ext`), `subjectAltName=${san}\n`);
  openssl(
    `x509 -req -in ${file(`${name}.csr`)} -CA ${file(`${signedBy}.pem`)} -CAkey ${file(`${signedBy}.key`)} -CAcreateserial -days 2 -extfile ${file(`${name}.ext`)} -out ${file(`${name}.pem`)}`,
  );
}

const PING: SignerRequest = { op: 'sendWithdrawal', withdrawalId: 'wd_1' };
let server: SignerServer;
let handled: SignerRequest[];
let port: number;

function endpoint(caName: string, client: string | null): SignerEndpoint {
  return {
    kind: 'tls',
    host: '127.0.0.1',
    port,
    ca: file(`${caName}.pem`),
    cert: client ? file(`${client}.pem`) : file('none.pem'),
    key: client ? file(`${client}.key`) : file('none.key'),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'signer-tls-'));
  ca('ca');
  ca('other-ca');
  leaf('signer', 'ca', 'IP:127.0.0.1');
  leaf('web', 'ca', 'DNS:web.internal');
  leaf('impostor', 'other-ca', 'IP:127.0.0.1');
  // A "client" with a key pair but no certificate of any CA: a self-signed one.
  ca('none');
  handled = [];
  port = 20_000 + (process.pid % 20_000);
  server = await listenSigner(
    endpoint('ca', 'signer'),
    (request) => {
      handled.push(request);
      return Promise.resolve({ state: 'refused', reason: 'No withdrawal wd_1.' });
    },
    (error) => {
      throw error;
    },
  );
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the signer over TCP with mutual TLS', () => {
  it('answers a web process holding a certificate of the private CA', async () => {
    await expect(signerClient(endpoint('ca', 'web')).request(PING)).resolves.toEqual({
      state: 'refused',
      reason: 'No withdrawal wd_1.',
    });
    expect(handled).toEqual([PING]);
  });

  it('drops a client with no certificate of the CA, before any request is read', async () => {
    handled = [];
    await expect(signerClient(endpoint('ca', 'none')).request(PING)).rejects.toBeInstanceOf(
      SignerUnavailableError,
    );
    await expect(signerClient(endpoint('ca', 'impostor')).request(PING)).rejects.toBeInstanceOf(
      SignerUnavailableError,
    );
    expect(handled).toEqual([]);
  });

  it('does not talk to a signer whose certificate is not of the CA it trusts', async () => {
    handled = [];
    // The web process trusts only other-ca: the real signer's certificate is refused.
    await expect(
      signerClient(endpoint('other-ca', 'impostor')).request(PING),
    ).rejects.toBeInstanceOf(SignerUnavailableError);
    expect(handled).toEqual([]);
  });
});

describe('SIGNER_SOCKET=tls://', () => {
  const files = () => ({
    SIGNER_TLS_CA: file('ca.pem'),
    SIGNER_TLS_CERT: file('web.pem'),
    SIGNER_TLS_KEY: file('web.key'),
  });

  it('reads the endpoint and its PEM files', () => {
    const config = loadConfig({
      SIGNER_SOCKET: 'tls://signer.internal:7443',
      DATABASE_URL: 'postgres://gateway@db.internal/gateway',
      ...files(),
    });
    expect(signerEndpoint({ dataDir: '/data', signer: config.signer })).toEqual({
      kind: 'tls',
      host: 'signer.internal',
      port: 7443,
      ca: file('ca.pem'),
      cert: file('web.pem'),
      key: file('web.key'),
    });
  });

  it('needs PostgreSQL, the three files and a host:port', () => {
    expect(() => loadConfig({ SIGNER_SOCKET: 'tls://signer.internal:7443', ...files() })).toThrow(
      new ConfigError(
        'SIGNER_SOCKET=tls://… puts the signer on another host: it needs DATABASE_URL (PostgreSQL), as a SQLite file cannot be shared across hosts',
      ),
    );
    const pg = { DATABASE_URL: 'postgres://gateway@db.internal/gateway' };
    expect(() => loadConfig({ SIGNER_SOCKET: 'tls://signer.internal:7443', ...pg })).toThrow(
      new ConfigError('SIGNER_SOCKET=tls://… needs SIGNER_TLS_CA (a PEM file)'),
    );
    expect(() => loadConfig({ SIGNER_SOCKET: 'tls://signer.internal', ...pg, ...files() })).toThrow(
      new ConfigError(
        "SIGNER_SOCKET must be a path or tls://host:port, got 'tls://signer.internal'",
      ),
    );
  });
});
