import path from 'node:path';
import { bytesToHex, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { chainAdapterFor, chainSenderFor } from '../src/domain/chain';
import { ChainUnavailableError } from '../src/domain/chain/adapter';
import type { ChainSender } from '../src/domain/chain/sender';
import type { SpecChainId } from '../src/domain/chain/specChains';
import { loadAccountKey } from '../src/signer/server/seed';
import { SignerService, type SignerSettings } from '../src/signer/server/service';
import { signerClient, type SignerClient } from '../src/signer/client/client';
import { listenSigner } from '../src/signer/server/listener';
import { sendMail } from '../src/domain/mailer';
import type { TestApp } from './testApp';

/** Where the test signers send their alerts. */
export const OPERATOR_EMAIL = 'operator@gateway.test';

const quiet = { info: () => {}, error: () => {} };

export interface TestSigner {
  /** The web process's side, over the real unix socket. */
  client: SignerClient;
  socketPath: string;
  /** Every line the signer logged. */
  logged: Record<string, unknown>[];
  close(): Promise<void>;
}

/** The viem account of the wallet key at `keyPath` of the test app's seed (what the signer holds). */
export function seedAccount(t: TestApp, keyPath: string): PrivateKeyAccount {
  const key = loadAccountKey({
    seedFile: undefined,
    dataDir: t.dataDir,
    isProduction: false,
    walletXpub: undefined,
  }).derive(`m/${keyPath}`);
  if (!key.privateKey) throw new Error('The account key has no private half');
  return privateKeyToAccount(bytesToHex(key.privateKey));
}

/**
 * A signer over the test app's DATA_DIR seed and database, on a socket in its DATA_DIR.
 * `failBroadcasts`: its first broadcasts fail as an unreachable node's do (the transaction stored,
 * not sent), as when the signer dies between the two.
 */
export async function startTestSigner(
  t: TestApp,
  settings: Partial<SignerSettings> = {},
  options: { failBroadcasts?: number; socketFile?: string } = {},
): Promise<TestSigner> {
  let failing = options.failBroadcasts ?? 0;
  const senderFor = (chainId: number): ChainSender => {
    const sender = chainSenderFor(t.config, t.db, chainId as SpecChainId);
    if (failing === 0) return sender;
    return Object.assign(Object.create(sender) as ChainSender, {
      async sendRaw(raw: Hex): Promise<Hex> {
        if (failing > 0) {
          failing -= 1;
          throw new ChainUnavailableError('the test node is unreachable');
        }
        return sender.sendRaw(raw);
      },
    });
  };
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
    senderFor,
    tokenContract: (chainId, contract) =>
      chainAdapterFor(t.config, t.db, chainId as SpecChainId).tokenContract(contract),
    settings: {
      feeAddress: undefined,
      sweepMin: undefined,
      gasTopUpCap: '0.01',
      replaceAfterMs: 120_000,
      operatorEmail: OPERATOR_EMAIL,
      ...settings,
    },
    requestKey: t.config.signerRequestKey,
    // Into the test app's outbox (readOutbox(t.dataDir)), as the signer's mails go to DATA_DIR's.
    mail: (message) => sendMail(t.config, message, quiet, t.clock),
    clock: t.clock,
    log: (line) => logged.push(line),
  });
  const socketPath = path.join(t.dataDir, options.socketFile ?? 'signer.sock');
  const server = await listenSigner(
    { kind: 'unix', path: socketPath },
    (request) => service.handle(request),
    (error) => {
      throw error;
    },
  );
  return {
    client: signerClient({ kind: 'unix', path: socketPath }),
    socketPath,
    logged,
    close: () => server.close(),
  };
}
