import { chainAdapterFor, ChainUnavailableError } from '../domain/chain/adapter';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import {
  depositSummary,
  ensureDepositAddress,
  syncDeposits,
  type SyncResult,
} from '../domain/deposits';
import { balanceMicro } from '../domain/ledger';
import { microToDecimal } from '../domain/money';
import { subscriptionDueMicro } from '../domain/subscriptions';
import { HttpError } from '../http/errors';
import { requireUser } from '../http/requestContext';
import type { HandlerModule } from './types';
import { NEW_DEPOSIT_FOUND } from '../../../shared/money';

/** The deposit network shown with the address (the client labels it Binance smart chain). */
export const DEPOSIT_NETWORK = 'BEP20';
export const NEW_DEPOSIT_MESSAGE = NEW_DEPOSIT_FOUND;
export const CHAIN_UNAVAILABLE_MESSAGE =
  'The blockchain could not be reached. Please try again in a minute.';

// Operations tagged Wallet in openapi.yaml, keyed by operationId. Shape of an entry:
//   async someOperation(request: FastifyRequest<{ Body: SomeBody; Params: { id: string } }>, reply) {
//     const user = requireUser(request); // http/requestContext.ts
//     ...query ctx.db with Kysely...
//     return { status: true, msg: '...' }; // or throw validationFailed / notFound (http/errors.ts)
//   },
export const walletHandlers: HandlerModule = (ctx) => {
  // At start-up: the development key pair is created on first start, a bad key stops the start.
  const xpub = resolveWalletXpub(ctx.config);
  const chain = chainAdapterFor(ctx.config, ctx.db);

  return {
    // getBalance (portal slice: the sidebar's balance card): always derived from the ledger.
    async getBalance(request) {
      const user = requireUser(request);
      return {
        status: true,
        data: { payInBalance: microToDecimal(await balanceMicro(ctx.db, user.id)) },
      };
    },

    async getCryptoDeposit(request) {
      const user = requireUser(request);
      const { address } = await ensureDepositAddress(ctx.db, user.id, xpub, chain);
      const balance = await balanceMicro(ctx.db, user.id);
      const deposits = await depositSummary(ctx.db, user.id);
      const due = await subscriptionDueMicro(ctx.db, user.id, ctx.clock().toISOString(), balance);
      return {
        status: true,
        details: {
          address,
          network: DEPOSIT_NETWORK,
          balance: microToDecimal(balance),
          totalDepositCount: deposits.count,
          totalDepositAmount: microToDecimal(deposits.totalMicro),
          amountToPay: microToDecimal(due),
        },
        data: {
          data: deposits.recent.map((row) => ({
            tnx: row.tnx,
            amount: microToDecimal(row.amountMicro),
            status: row.status,
            created_at: row.createdAt,
          })),
        },
      };
    },

    async syncBalance(request) {
      const user = requireUser(request);
      let found: SyncResult;
      try {
        await ensureDepositAddress(ctx.db, user.id, xpub, chain);
        found = await syncDeposits(ctx.db, chain, user.id, ctx.clock().toISOString());
      } catch (error) {
        if (!(error instanceof ChainUnavailableError)) throw error;
        request.log.warn({ err: error.cause ?? error }, error.message);
        throw new HttpError(503, CHAIN_UNAVAILABLE_MESSAGE);
      }
      const isNew = found.credited > 0 || found.newPending > 0;
      return {
        status: true,
        balance: microToDecimal(await balanceMicro(ctx.db, user.id)),
        is_new: isNew,
        msg: isNew
          ? NEW_DEPOSIT_MESSAGE
          : found.pending > 0
            ? `Your deposit is waiting for ${chain.confirmations} block confirmations.`
            : 'No new deposit found',
      };
    },
  };
};
