import { resolveWalletXpub } from '../domain/chain/walletKey';
import { topUpSummary, ensureTopUpAddress, syncTopUps } from '../domain/billing/topUps';
import { balanceMicro } from '../domain/billing/ledger';
import { microToDecimal } from '../domain/money';
import { subscriptionDueMicro } from '../domain/billing/subscriptions';
import { requireUser } from '../http/requestContext';
import type { HandlerModule, Reply, Schemas } from '../http/operationTypes';
import { NEW_DEPOSIT_FOUND } from '../../../src/shared/money';
import { codedMessages } from '../domain/messageCodes';

/** What the wallet's Check Balance answers. */
const WALLET_REPLIES = codedMessages('walletReplies', {
  newDeposit: NEW_DEPOSIT_FOUND,
  waiting: (confirmations: string) =>
    `Your deposit is waiting for ${confirmations} block confirmations.`,
  noNewDeposit: 'No new deposit found',
} as const);

/** The deposit network shown with the address (the client labels it Binance smart chain). */
export const DEPOSIT_NETWORK = 'BEP20';
export const NEW_DEPOSIT_MESSAGE = WALLET_REPLIES.newDeposit;

// Operations tagged Wallet in openapi.yaml, keyed by operationId. Shape of an entry (request
// and reply typed by the operationId, see handlers/types.ts):
//   async someOperation(request) {
//     const user = requireUser(request); // http/requestContext.ts
//     const data = await someRule(ctx.db, user.id, request.body); // domain/: queries and rules
//     return { status: true, data } satisfies Reply<'someOperation'>;
//   },
// A rule refuses by throwing a domain error (domain/errors.ts); the error handler answers it.
export const walletHandlers: HandlerModule = (ctx) => {
  // At start-up: the development key pair is created on first start, a bad key stops the start.
  const xpub = resolveWalletXpub(ctx.config);
  const { chain } = ctx;

  return {
    // getBalance (portal slice: the sidebar's balance card): always derived from the ledger.
    async getBalance(request) {
      const user = requireUser(request);
      return {
        status: true,
        data: { payInBalance: microToDecimal(await balanceMicro(ctx.db, user.id)) },
      } satisfies Reply<'getBalance'>;
    },

    async getCryptoDeposit(request) {
      const user = requireUser(request);
      const { address } = await ensureTopUpAddress(ctx.db, user.id, xpub, chain);
      const balance = await balanceMicro(ctx.db, user.id);
      const deposits = await topUpSummary(ctx.db, user.id);
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
          data: deposits.recent.map((row): Schemas['WalletTransaction'] => ({
            tnx: row.tnx,
            amount: microToDecimal(row.amountMicro),
            status: row.status,
            created_at: row.createdAt,
          })),
        },
      } satisfies Reply<'getCryptoDeposit'>;
    },

    async syncBalance(request) {
      const user = requireUser(request);
      await ensureTopUpAddress(ctx.db, user.id, xpub, chain);
      const found = await syncTopUps(ctx.db, chain, user.id);
      const isNew = found.credited > 0 || found.newPending > 0;
      return {
        status: true,
        balance: microToDecimal(await balanceMicro(ctx.db, user.id)),
        is_new: isNew,
        msg: isNew
          ? NEW_DEPOSIT_MESSAGE
          : found.pending > 0
            ? WALLET_REPLIES.waiting(String(chain.confirmations))
            : WALLET_REPLIES.noNewDeposit,
      } satisfies Reply<'syncBalance'>;
    },
  };
};
