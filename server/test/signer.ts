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
import { signerStoreDir, SignerStore } from '../src/signer/server/store';
import { importSharedSettings } from '../src/signer/server/storeImport';
import type { Clock } from '../src/domain/time';
import {
  queuePayoutRegistration,
  queueWhitelistRegistration,
  REGISTER_KIND,
  registerWithSigner,
  type RegistrationPayload,
} from '../src/domain/apps/signerRegistration';
import { requestSigner } from '../src/signer/client/requestMac';
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
  /** Its own store (DATA_DIR/signer unless told otherwise). */
  store: SignerStore;
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
 * not sent), as when the signer dies between the two. `hangs`: chains whose providers never
 * answer: every call of their sender waits until the signer is closed, then fails as an
 * unreachable node's.
 */
export async function startTestSigner(
  t: TestApp,
  settings: Partial<SignerSettings> = {},
  options: {
    failBroadcasts?: number;
    socketFile?: string;
    clock?: Clock;
    hangs?: ReadonlySet<number>;
  } = {},
): Promise<TestSigner> {
  let failing = options.failBroadcasts ?? 0;
  let release: (error: Error) => void = () => {};
  const hung = new Promise<never>((_, reject) => {
    release = reject;
  });
  hung.catch(() => {});
  const senderFor = (chainId: number): ChainSender => {
    const sender = chainSenderFor(t.config, t.db, chainId as SpecChainId);
    if (options.hangs?.has(chainId)) {
      return new Proxy(sender, {
        get: (target, key) =>
          typeof Reflect.get(target, key) === 'function' ? () => hung : Reflect.get(target, key),
      });
    }
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
  const clock = options.clock ?? t.clock;
  const store = SignerStore.open(signerStoreDir(t.config));
  // As at the signer's first start: the settings already in the database (the demo app's).
  await importSharedSettings(store, t.db, clock());
  const service = new SignerService({
    db: t.db,
    store,
    account,
    senderFor,
    transfersFor: (chainId) => chainAdapterFor(t.config, t.db, chainId as SpecChainId),
    tokenContract: (chainId, contract) =>
      chainAdapterFor(t.config, t.db, chainId as SpecChainId).tokenContract(contract),
    settings: {
      feeAddress: undefined,
      sweepMin: undefined,
      gasTopUpCap: '0.01',
      replaceAfterMs: 120_000,
      operatorEmail: OPERATOR_EMAIL,
      signerHoldHours: 24,
      signerApprovalHours: 72,
      ...settings,
    },
    requestKey: t.config.signerRequestKey,
    // Into the test app's outbox (readOutbox(t.dataDir)), as the signer's mails go to DATA_DIR's.
    mail: (message) => sendMail(t.config, message, quiet, t.clock),
    clock,
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
    store,
    close: async () => {
      release(new ChainUnavailableError('the test node was stopped'));
      await server.close();
      store.close();
    },
  };
}

/**
 * Runs the queued `signer.register` jobs against `signer`, as the web process's worker does,
 * oldest first, and takes them off the queue.
 */
export async function runRegistrations(t: TestApp, signer: TestSigner): Promise<void> {
  const jobs = await t.db
    .selectFrom('jobs')
    .select(['id', 'payload'])
    .where('kind', '=', REGISTER_KIND)
    .orderBy('created_at')
    .execute();
  for (const job of jobs) {
    await registerWithSigner(t.db, signer.client, JSON.parse(job.payload) as RegistrationPayload);
    await t.db.deleteFrom('jobs').where('id', '=', job.id).execute();
  }
}

/**
 * Registers an app written straight to the database (its whitelist and every payout address)
 * with the signer, as the portal's calls would have.
 */
export async function registerApp(t: TestApp, signer: TestSigner, appId: string): Promise<void> {
  const sign = requestSigner(t.config.signerRequestKey);
  const at = t.clock();
  const app = await t.db
    .selectFrom('apps')
    .select('whitelist_ip')
    .where('id', '=', appId)
    .executeTakeFirstOrThrow();
  await queueWhitelistRegistration(t.db, sign, { appId, whitelist: app.whitelist_ip, at });
  const methods = await t.db
    .selectFrom('app_payment_methods')
    .select(['payment_method_id', 'collect_address'])
    .where('app_id', '=', appId)
    .execute();
  for (const m of methods) {
    await queuePayoutRegistration(t.db, sign, {
      appId,
      paymentMethodId: m.payment_method_id,
      address: m.collect_address,
      at,
    });
  }
  await runRegistrations(t, signer);
}
