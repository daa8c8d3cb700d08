import path from 'node:path';
import { chainAdapterFor, chainSenderFor } from '../src/domain/chain';
import type { SpecChainId } from '../src/domain/chain/specChains';
import { loadAccountKey } from '../src/signer/seed';
import { SignerService, type SignerSettings } from '../src/signer/service';
import { listenSigner, signerClient, type SignerClient } from '../src/signer/transport';
import type { TestApp } from './testApp';

export interface TestSigner {
  /** The web process's side, over the real unix socket. */
  client: SignerClient;
  socketPath: string;
  /** Every line the signer logged. */
  logged: Record<string, unknown>[];
  close(): Promise<void>;
}

/** A signer over the test app's DATA_DIR seed and database, on a socket in its DATA_DIR. */
export async function startTestSigner(
  t: TestApp,
  settings: Partial<SignerSettings> = {},
): Promise<TestSigner> {
  const account = loadAccountKey({
    seedFile: undefined,
    dataDir: t.dataDir,
    isProduction: false,
    walletXpub: undefined,
  });
  const logged: Record<string, unknown>[] = [];
  const service = new SignerService({
    db: t.db,
    account,
    senderFor: (chainId) => chainSenderFor(t.config, t.db, chainId as SpecChainId),
    tokenContract: (chainId, contract) =>
      chainAdapterFor(t.config, t.db, chainId as SpecChainId).tokenContract(contract),
    settings: {
      feeAddress: undefined,
      sweepMin: undefined,
      gasTopUpCap: '0.01',
      replaceAfterMs: 120_000,
      ...settings,
    },
    clock: t.clock,
    log: (line) => logged.push(line),
  });
  const socketPath = path.join(t.dataDir, 'signer.sock');
  const server = await listenSigner(
    socketPath,
    (request) => service.handle(request),
    (error) => {
      throw error;
    },
  );
  return { client: signerClient(socketPath), socketPath, logged, close: () => server.close() };
}
