import path from 'node:path';
import { loadConfig } from '../../config';
import { openDb } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { chainAdapterFor, chainSenderFor } from '../../domain/chain';
import type { ChainSender } from '../../domain/chain/sender';
import type { SpecChainId } from '../../domain/chain/specChains';
import { sendMail } from '../../domain/mailer';
import { registerPlansAtUpgrade } from '../../domain/billing/subscriptions';
import { macWithdrawalsAtUpgrade } from '../../domain/payments/withdrawals';
import { systemClock } from '../../domain/time';
import { resolveConfig } from '../../runtime';
import { ensureDevSeed, loadAccountKey } from './seed';
import { SignerService } from './service';
import { endpointName, signerEndpoint } from '../client/client';
import { listenSigner } from './listener';
import { requestSigner } from '../client/requestMac';
import { runSignerCommand } from './commands';
import { signerStoreDir, SignerStore } from './store';
import { importSharedSettings } from './storeImport';

// The signer's own process (dist/server/signer.cjs; `npm start` runs it beside the server): the
// only one that reads the wallet seed. It answers the web process's requests on a unix socket,
// checks each money request's MAC and re-checks it, takes payout addresses and holds from its
// own store (SIGNER_STORE_DIR), and logs every signature with its reason.

function log(line: Record<string, unknown>): void {
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), name: 'signer', ...line })}\n`,
  );
}

async function main(): Promise<void> {
  process.umask(0o077);
  // `npm run signer -- <command>`: the operator's commands on the signer's store, then exit (an
  // unknown one prints the usage: a mistyped command never starts a second signer).
  const command = process.argv[2];
  if (command !== undefined && command !== '--dev-wallet') {
    const loaded = loadConfig(process.env);
    process.exitCode = runSignerCommand(
      process.argv.slice(2),
      signerStoreDir({ dataDir: path.resolve(loaded.dataDir), signer: loaded.signer }),
      (line) => process.stdout.write(`${line}\n`),
      systemClock(),
    );
    return;
  }
  // `--dev-wallet <DATA_DIR>`: write the development seed and its xpub there, then exit (a web
  // process started without its signer asks for this; it holds no code that makes a seed).
  const devWallet = process.argv.indexOf('--dev-wallet');
  if (devWallet >= 0) {
    const dataDir = process.argv[devWallet + 1];
    if (!dataDir) throw new Error('--dev-wallet needs the DATA_DIR to write the wallet in');
    ensureDevSeed(dataDir);
    return;
  }
  // The request key is made here when missing: the web process, started after, reads it.
  const config = resolveConfig(loadConfig(process.env), { createRequestKey: true });
  const account = loadAccountKey({
    seedFile: config.signer.seedFile,
    dataDir: config.dataDir,
    isProduction: config.isProduction,
    walletXpub: config.walletXpub,
  });
  const db = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const migrated = await migrateToLatest(db);
  // The start that brings request MACs vouches, once, for the withdrawals then in flight.
  await macWithdrawalsAtUpgrade(db, migrated, requestSigner(config.signerRequestKey));
  await registerPlansAtUpgrade(db, migrated, requestSigner(config.signerRequestKey), systemClock());
  const store = SignerStore.open(signerStoreDir(config));
  const imported = await importSharedSettings(store, db, systemClock());
  if (imported) {
    log({
      msg: `First start of the signer's store: imported ${imported.payouts} payout address(es) and ${imported.whitelists} app whitelist(s) from the shared database`,
    });
  }
  const senders = new Map<number, ChainSender>();
  const service = new SignerService({
    db,
    store,
    account,
    senderFor: (chainId) => {
      let sender = senders.get(chainId);
      if (!sender) {
        sender = chainSenderFor(config, db, chainId as SpecChainId);
        senders.set(chainId, sender);
      }
      return sender;
    },
    transfersFor: (chainId) => chainAdapterFor(config, db, chainId as SpecChainId),
    tokenContract: (chainId, contract) =>
      chainAdapterFor(config, db, chainId as SpecChainId).tokenContract(contract),
    settings: config.signer,
    requestKey: config.signerRequestKey,
    mail: (message) =>
      sendMail(config, message, {
        info: (obj, msg) => log({ ...obj, msg }),
        error: (obj, msg) => log({ level: 'error', ...obj, msg }),
      }),
    clock: systemClock,
    log,
  });
  const endpoint = signerEndpoint(config);
  const server = await listenSigner(
    endpoint,
    (request) => service.handle(request),
    (error) => log({ level: 'error', msg: 'request failed', err: String(error) }),
  );
  log({ msg: `Signer listening on ${endpointName(endpoint)}`, xpub: account.publicExtendedKey });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log({ msg: `${signal} received, shutting down` });
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server
      .close()
      .then(() => db.destroy())
      .then(() => store.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
