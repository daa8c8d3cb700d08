import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import {
  customerAccounts,
  gatewayMethods,
  listAccounts,
  openAccount,
  type GatewayAccount,
} from '../domain/payments/accounts';
import { getDeposit } from '../domain/payments/depositReads';
import {
  depositTotals,
  isPolledPage,
  listDeposits,
  polledPageTables,
} from '../domain/payments/deposits';
import { gasBalanceReader } from '../domain/chain/balances';
import { fieldInvalid } from '../domain/errors';
import { idempotent } from '../domain/payments/idempotency';
import { webhookDeps } from '../domain/webhooks/delivery';
import { eventPage, storedEvent } from '../domain/webhooks/feed';
import {
  testEvents,
  NoWebhookUrlError,
  sendTestPing,
  TestEventsUsedUpError,
  WebhookSwitchedOffError,
} from '../domain/webhooks/portal';
import {
  cancelInvoice,
  createInvoice,
  depositMethods,
  getInvoice,
  invoiceTables,
  listInvoices,
  markInvoice,
  ratesFor,
  tokenOnChainOf,
} from '../domain/invoices/invoices';
import {
  createPaymentLink,
  deactivatePaymentLink,
  getPaymentLink,
  listPaymentLinks,
} from '../domain/paymentLinks/paymentLinks';
import { currencyDecimals, unknownCurrency } from '../domain/rates/currencies';
import { RateBook } from '../domain/rates/rates';
import { acceptPayment } from '../domain/invoices/strays';
import { mailClaimLink } from '../domain/refunds/claimMail';
import { cancelRefund, requestRefund } from '../domain/refunds/refunds';
import { listRefunds, refundRow, refundView } from '../domain/refunds/views';
import { getWithdrawal, listWithdrawals } from '../domain/payments/withdrawalReads';
import { operationalWallets } from '../domain/payments/operationalWallets';
import { requestWithdrawal } from '../domain/payments/withdrawals';
import { keptAnswer } from '../http/keptAnswers';
import { withMode } from '../domain/livemode';
import { claimRequests } from '../domain/rateLimits';
import { localChains } from '../domain/payments/testDeposits';
import { confirmPayment, SIMULATION_MSG, simulatePayment } from '../domain/testMode/simulations';
import { csvAnswer } from '../http/csvDownload';
import { keyMay } from '../domain/apps/gatewayKeys';
import { exportCsv, planExport } from '../domain/exports/stream';
import { requireKey } from './auth';
import { GatewayError } from './errors';
import { depositView, withdrawalView } from '../domain/payments/views';
import type { GatewayHandlers, GatewayReply, GatewaySchemas } from './types';

const DEFAULT_PAGE = 50;

/** Test helper calls a minute per key. */
const TEST_HELPER_LIMIT = 30;

function accountView(account: GatewayAccount, livemode: boolean): GatewaySchemas['Account'] {
  return {
    unique_id: account.uniqueId,
    method: account.methodCode,
    chain_id: account.chainId,
    address: account.address,
    created_at: account.createdAt,
    livemode,
  };
}

/** The origin a request reached: the checkout's and payment links' pages are served from it. */
function originOf(request: { protocol: string; host: string }): string {
  return `${request.protocol}://${request.host}`;
}

/** The gateway's operations, keyed by operationId of server/openapi/gateway.yaml. */
/** The test event's refusals, in the gateway's words and with codes of their own. */
function webhookRefusal(err: unknown): unknown {
  if (err instanceof NoWebhookUrlError) {
    return new GatewayError(
      409,
      'webhook_not_configured',
      "The app has no Webhook URl; set one in the portal's Merchant Setting.",
    );
  }
  if (err instanceof WebhookSwitchedOffError) {
    return new GatewayError(
      409,
      'webhook_switched_off',
      "The app's webhook is switched off (its endpoint answered 410 Gone); switch it on in the" +
        " portal's Merchant Setting.",
    );
  }
  return err;
}

export function gatewayHandlers(ctx: AppContext): GatewayHandlers {
  const xpub = resolveWalletXpub(ctx.config);
  const webhooks = webhookDeps(ctx.config, ctx.db, ctx.clock);
  // The process's rates and their few seconds' cache (domain/rates/).
  const rates = new RateBook({ db: ctx.db, config: ctx.config });
  const tokenOnChain = tokenOnChainOf(ctx.chain, ctx.config.chainTokenContracts);
  const local = localChains(ctx.config, ctx.db);

  /**
   * The test helpers: a test key's only, and at most TEST_HELPER_LIMIT calls a minute per key
   * (each makes blocks on a chain every test app shares).
   */
  async function testHelperAllowed(key: { id: string; livemode: boolean }, reply: FastifyReply) {
    if (key.livemode) throw new GatewayError(403, 'test_mode_only', SIMULATION_MSG.liveApp);
    const now = ctx.clock().getTime();
    const window = await claimRequests(ctx.db, `test-helpers:${key.id}`, 60_000, now, 1);
    if (window.count > TEST_HELPER_LIMIT) {
      const seconds = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
      void reply.header('retry-after', String(seconds));
      throw new GatewayError(
        429,
        'rate_limited',
        `At most ${TEST_HELPER_LIMIT} test payments or confirmations a minute per key: try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      );
    }
  }

  return {
    async listMethods(request) {
      const key = requireKey(request);
      const methods = await gatewayMethods(ctx.db, key.appId);
      return {
        data: methods.map((m) => ({
          code: m.code,
          name: m.name,
          network: m.network,
          chain_id: m.chainId,
          token_contract: m.tokenContract,
          decimals: m.decimals,
          confirmations: m.confirmations,
          min_deposit: m.minDeposit,
          deposits_enabled: m.depositsEnabled,
          withdrawals_enabled: m.withdrawalsEnabled,
        })),
      } satisfies GatewayReply<'listMethods'>;
    },

    async createAccount(request, reply) {
      const key = requireKey(request);
      const { account, created } = await openAccount(ctx.db, xpub, {
        appId: key.appId,
        uniqueId: request.body.unique_id,
        code: request.body.method,
        now: ctx.clock(),
      });
      void reply.code(created ? 201 : 200);
      return accountView(account, key.livemode) satisfies GatewayReply<'createAccount'>;
    },

    async listAccounts(request) {
      const key = requireKey(request);
      const page = await listAccounts(ctx.db, key.appId, {
        cursor: request.query.cursor,
        limit: request.query.limit ?? DEFAULT_PAGE,
      });
      return {
        data: page.accounts.map((account) => accountView(account, key.livemode)),
        next_cursor: page.nextCursor,
      } satisfies GatewayReply<'listAccounts'>;
    },

    async getCustomerAccounts(request) {
      const key = requireKey(request);
      const accounts = await customerAccounts(ctx.db, key.appId, request.params.unique_id);
      return {
        data: accounts.map((account) => accountView(account, key.livemode)),
      } satisfies GatewayReply<'getCustomerAccounts'>;
    },

    exportRecords(request, reply) {
      const key = requireKey(request);
      const { query } = request;
      const plan = planExport({
        kind: request.params.kind,
        version: query.version,
        from: query.from,
        to: query.to,
        status: query.status,
        orderId: query.order_id,
      });
      // The ability of the kind's records, rather than one of the operation's.
      const missing = plan.kind.abilities.find((ability) => !keyMay(key, ability));
      if (missing) {
        throw new GatewayError(
          403,
          'ability_missing',
          `This API key lacks the ${missing} ability.`,
        );
      }
      const text = exportCsv(
        { db: ctx.db, ownerId: key.appId, feeLeg: ctx.config.signer.feeAddress !== undefined },
        plan,
        { bom: query.bom ?? false },
      );
      return csvAnswer(reply, plan, text) satisfies GatewayReply<'exportRecords'>;
    },

    // Not async: the polled page, kept, is answered without a promise.
    listDeposits(request) {
      const key = requireKey(request);
      const { query } = request;
      const filter = {
        uniqueId: query.unique_id,
        methodCode: query.method,
        status: query.status,
        from: query.from,
        to: query.to,
      };
      const page = { cursor: query.cursor, limit: query.limit ?? DEFAULT_PAGE };
      const answer = async () => {
        const found = await listDeposits(ctx.db, key.appId, filter, page);
        return {
          data: found.deposits.map((deposit) => withMode(depositView(deposit), key.livemode)),
          next_cursor: found.nextCursor,
        } satisfies GatewayReply<'listDeposits'>;
      };
      if (!isPolledPage(filter, page.cursor)) return answer();
      // Kept until one of the app's deposits changes (http/keptAnswers.ts); nothing in it
      // depends on the time.
      return keptAnswer(
        ctx.changes,
        {
          key: `listDeposits:${key.appId}:${page.limit}`,
          owner: key.appId,
          now: ctx.clock().getTime(),
          until: () => Infinity,
          tables: () => polledPageTables(ctx.db),
        },
        answer,
      );
    },

    async getDeposit(request) {
      const key = requireKey(request);
      return withMode(
        depositView(await getDeposit(ctx.db, key.appId, request.params.id)),
        key.livemode,
      ) satisfies GatewayReply<'getDeposit'>;
    },

    async createWithdrawal(request, reply) {
      const key = requireKey(request);
      const idempotencyKey = request.headers['idempotency-key'];
      if (typeof idempotencyKey !== 'string') {
        throw fieldInvalid('Idempotency-Key', 'Send an Idempotency-Key header.');
      }
      const { body } = request;
      const answer = await idempotent(
        ctx.db,
        {
          scope: `withdrawal:${key.appId}`,
          key: idempotencyKey,
          // In a fixed order: the same fields sent in another order are the same request.
          request: [body.unique_id, body.method, body.to_address, body.amount],
          now: ctx.clock().getTime(),
        },
        async () => {
          const withdrawal = await requestWithdrawal(
            ctx.db,
            (db) => gasBalanceReader(ctx.config, ctx.chain, db),
            {
              appId: key.appId,
              uniqueId: body.unique_id,
              code: body.method,
              toAddress: body.to_address,
              amount: body.amount,
              now: ctx.clock(),
              tokenOnChain,
              sign: ctx.sign,
            },
          );
          return { status: 201, body: withdrawalView(withdrawal) };
        },
      );
      void reply.code(answer.status);
      // Stripe's header: this is the first request's answer, nothing was done again.
      if (answer.replayed) void reply.header('idempotent-replayed', 'true');
      return withMode(answer.body, key.livemode) satisfies GatewayReply<'createWithdrawal'>;
    },

    async createInvoice(request, reply) {
      const key = requireKey(request);
      const { body } = request;
      const now = ctx.clock();
      const create = async () => ({
        status: 201,
        body: await createInvoice(ctx.db, rates, xpub, {
          appId: key.appId,
          amount: body.amount,
          currency: body.currency,
          methods: body.methods,
          orderId: body.order_id,
          description: body.description,
          buyerEmail: body.buyer_email,
          metadata: body.metadata,
          expiresIn: body.expires_in,
          redirectUrl: body.redirect_url,
          checkoutOrigin: originOf(request),
          now,
          tokenOnChain,
        }),
      });
      const idempotencyKey = request.headers['idempotency-key'];
      const answer =
        typeof idempotencyKey === 'string'
          ? await idempotent(
              ctx.db,
              {
                scope: `invoice:${key.appId}`,
                key: idempotencyKey,
                // In a fixed order: the same fields sent in another order are the same request.
                request: [
                  body.amount,
                  body.currency,
                  body.methods ?? null,
                  body.order_id ?? null,
                  body.description ?? null,
                  body.buyer_email ?? null,
                  body.metadata ?? null,
                  body.expires_in ?? null,
                  body.redirect_url ?? null,
                ],
                now: now.getTime(),
              },
              create,
            )
          : { ...(await create()), replayed: false };
      void reply.code(answer.status);
      if (answer.replayed) void reply.header('idempotent-replayed', 'true');
      return withMode(answer.body, key.livemode) satisfies GatewayReply<'createInvoice'>;
    },

    async listInvoices(request) {
      const key = requireKey(request);
      const { query } = request;
      const page = await listInvoices(
        ctx.db,
        key.appId,
        {
          status: query.status,
          orderId: query.order_id,
          paymentLinkId: query.payment_link,
          from: query.from,
          to: query.to,
        },
        { cursor: query.cursor, limit: query.limit ?? DEFAULT_PAGE },
      );
      return {
        data: page.invoices.map((invoice) => withMode(invoice, key.livemode)),
        next_cursor: page.nextCursor,
      } satisfies GatewayReply<'listInvoices'>;
    },

    // Not async: a kept invoice is answered without a promise.
    getInvoice(request) {
      const key = requireKey(request);
      const { id } = request.params;
      // Kept until a row of the app's that it reads changes (http/keptAnswers.ts; the invoice
      // tables' owner triggers: migration 0410): a checkout page or a merchant's server polls an invoice, and
      // nothing in the answer depends on the time (the expiry job writes the status).
      return keptAnswer(
        ctx.changes,
        {
          key: `getInvoice:${key.appId}:${id}`,
          owner: key.appId,
          now: ctx.clock().getTime(),
          until: () => Infinity,
          tables: () => invoiceTables(ctx.db),
        },
        async () =>
          withMode(
            await getInvoice(ctx.db, key.appId, id),
            key.livemode,
          ) satisfies GatewayReply<'getInvoice'>,
      );
    },

    async cancelInvoice(request) {
      const key = requireKey(request);
      return withMode(
        await cancelInvoice(ctx.db, key.appId, request.params.id, ctx.clock()),
        key.livemode,
      ) satisfies GatewayReply<'cancelInvoice'>;
    },

    async markInvoice(request) {
      const key = requireKey(request);
      return withMode(
        await markInvoice(ctx.db, key.appId, request.params.id, request.body, ctx.clock()),
        key.livemode,
      ) satisfies GatewayReply<'markInvoice'>;
    },

    async acceptInvoicePayment(request) {
      const key = requireKey(request);
      const { id, payment_id: paymentId } = request.params;
      return withMode(
        await acceptPayment(ctx.db, rates, key.appId, id, paymentId, ctx.clock()),
        key.livemode,
      ) satisfies GatewayReply<'acceptInvoicePayment'>;
    },

    async createRefund(request, reply) {
      const key = requireKey(request);
      const idempotencyKey = request.headers['idempotency-key'];
      if (typeof idempotencyKey !== 'string') {
        throw fieldInvalid('Idempotency-Key', 'Send an Idempotency-Key header.');
      }
      const { body } = request;
      const { id } = request.params;
      const answer = await idempotent(
        ctx.db,
        {
          scope: `refund:${key.appId}`,
          key: idempotencyKey,
          // In a fixed order: the same fields sent in another order are the same request.
          request: [
            id,
            body.amount_kind,
            body.amount ?? null,
            body.currency ?? null,
            body.rate ?? null,
            body.method ?? null,
            body.address ?? null,
            body.reason,
          ],
          now: ctx.clock().getTime(),
        },
        async () => {
          const made = await requestRefund(ctx.db, {
            appId: key.appId,
            invoiceId: id,
            amountKind: body.amount_kind,
            amount: body.amount,
            currency: body.currency,
            rate: body.rate,
            method: body.method,
            address: body.address,
            reason: body.reason,
            now: ctx.clock(),
            origin: originOf(request),
            serverKey: ctx.config.secretKey,
            rates,
            sign: ctx.sign,
            tokenOnChain,
            readerFor: (db) => gasBalanceReader(ctx.config, ctx.chain, db),
          });
          await mailClaimLink(ctx, made, request.log);
          return { status: 201, body: made.refund };
        },
      );
      void reply.code(answer.status);
      if (answer.replayed) void reply.header('idempotent-replayed', 'true');
      return withMode(answer.body, key.livemode) satisfies GatewayReply<'createRefund'>;
    },

    async listRefunds(request) {
      const key = requireKey(request);
      const { invoice, status, cursor, limit = 50 } = request.query;
      const page = await listRefunds(
        ctx.db,
        key.appId,
        { invoiceId: invoice, status },
        { cursor, limit },
      );
      const urls = { serverKey: ctx.config.secretKey };
      return {
        data: page.rows.map((row) => withMode(refundView(row, urls), key.livemode)),
        next_cursor: page.nextCursor,
      } satisfies GatewayReply<'listRefunds'>;
    },

    async getRefund(request) {
      const key = requireKey(request);
      const row = await refundRow(ctx.db, key.appId, request.params.id);
      return withMode(
        refundView(row, { serverKey: ctx.config.secretKey }),
        key.livemode,
      ) satisfies GatewayReply<'getRefund'>;
    },

    async cancelRefund(request) {
      const key = requireKey(request);
      return withMode(
        await cancelRefund(ctx.db, key.appId, request.params.id, ctx.clock()),
        key.livemode,
      ) satisfies GatewayReply<'cancelRefund'>;
    },

    async createPaymentLink(request, reply) {
      const key = requireKey(request);
      const { body } = request;
      const now = ctx.clock();
      const create = async () => ({
        status: 201,
        body: await createPaymentLink(ctx.db, {
          appId: key.appId,
          title: body.title,
          description: body.description,
          amount: body.amount,
          amountMin: body.amount_min,
          amountMax: body.amount_max,
          currency: body.currency,
          methods: body.methods,
          redirectUrl: body.redirect_url,
          expiresAt: body.expires_at,
          maxUses: body.max_uses,
          // Its page is served from the gateway's own origin, as the checkout is.
          origin: originOf(request),
          now,
        }),
      });
      const idempotencyKey = request.headers['idempotency-key'];
      const answer =
        typeof idempotencyKey === 'string'
          ? await idempotent(
              ctx.db,
              {
                scope: `payment_link:${key.appId}`,
                key: idempotencyKey,
                // In a fixed order: the same fields sent in another order are the same request.
                request: [
                  body.title,
                  body.description ?? null,
                  body.amount ?? null,
                  body.amount_min ?? null,
                  body.amount_max ?? null,
                  body.currency,
                  body.methods ?? null,
                  body.redirect_url ?? null,
                  body.expires_at ?? null,
                  body.max_uses ?? null,
                ],
                now: now.getTime(),
              },
              create,
            )
          : { ...(await create()), replayed: false };
      void reply.code(answer.status);
      if (answer.replayed) void reply.header('idempotent-replayed', 'true');
      return withMode(answer.body, key.livemode) satisfies GatewayReply<'createPaymentLink'>;
    },

    async listPaymentLinks(request) {
      const key = requireKey(request);
      const { query } = request;
      const page = await listPaymentLinks(
        ctx.db,
        key.appId,
        { cursor: query.cursor, limit: query.limit ?? DEFAULT_PAGE },
        { origin: originOf(request), now: ctx.clock() },
      );
      return {
        data: page.links.map((link) => withMode(link, key.livemode)),
        next_cursor: page.nextCursor,
      } satisfies GatewayReply<'listPaymentLinks'>;
    },

    async getPaymentLink(request) {
      const key = requireKey(request);
      const link = await getPaymentLink(ctx.db, key.appId, request.params.id, {
        origin: originOf(request),
        now: ctx.clock(),
      });
      return withMode(link, key.livemode) satisfies GatewayReply<'getPaymentLink'>;
    },

    async deactivatePaymentLink(request) {
      const key = requireKey(request);
      const link = await deactivatePaymentLink(ctx.db, key.appId, request.params.id, {
        origin: originOf(request),
        now: ctx.clock(),
      });
      return withMode(link, key.livemode) satisfies GatewayReply<'deactivatePaymentLink'>;
    },

    async listRates(request) {
      const key = requireKey(request);
      const { currency } = request.query;
      if (currencyDecimals(currency) === undefined) {
        throw fieldInvalid('currency', unknownCurrency(currency));
      }
      const now = ctx.clock();
      const priced = await ratesFor(rates, await depositMethods(ctx.db, key.appId), currency, now);
      return {
        currency,
        data: priced.map(({ method, rate }) => ({
          method: method.code,
          rate: rate.rate,
          rate_source: rate.source,
          rate_at: rate.at.toISOString(),
        })),
      } satisfies GatewayReply<'listRates'>;
    },

    async listWithdrawals(request) {
      const key = requireKey(request);
      const { query } = request;
      const page = await listWithdrawals(
        ctx.db,
        key.appId,
        { uniqueId: query.unique_id, methodCode: query.method, status: query.status },
        { cursor: query.cursor, limit: query.limit ?? DEFAULT_PAGE },
      );
      return {
        data: page.withdrawals.map((w) => withMode(withdrawalView(w), key.livemode)),
        next_cursor: page.nextCursor,
      } satisfies GatewayReply<'listWithdrawals'>;
    },

    async getWithdrawal(request) {
      const key = requireKey(request);
      return withMode(
        withdrawalView(await getWithdrawal(ctx.db, key.appId, request.params.id)),
        key.livemode,
      ) satisfies GatewayReply<'getWithdrawal'>;
    },

    async listOperationalWallets(request) {
      const key = requireKey(request);
      const wallets = await operationalWallets(
        ctx.db,
        gasBalanceReader(ctx.config, ctx.chain, ctx.db),
        key.appId,
      );
      return {
        data: wallets.map((w) => ({
          method: w.methodCode,
          chain_id: w.chainId,
          address: w.address,
          token_balance: w.tokenBalance,
          native_balance: w.nativeBalance,
          native_coin: w.nativeCoin,
          unavailable_reason: w.unavailableReason,
        })),
      } satisfies GatewayReply<'listOperationalWallets'>;
    },

    async listBalances(request) {
      const key = requireKey(request);
      const totals = await depositTotals(ctx.db, key.appId);
      return {
        data: totals.map((t) => ({
          method: t.methodCode,
          received: t.received,
          credited: t.credited,
        })),
      } satisfies GatewayReply<'listBalances'>;
    },

    async listEvents(request) {
      const key = requireKey(request);
      const page = await eventPage(ctx.db, key.appId, {
        after: Number(request.query.after ?? '0'),
        limit: request.query.limit ?? DEFAULT_PAGE,
      });
      return {
        data: page.bodies.map((body) => storedEvent(body, key.livemode)),
        next: String(page.next),
        has_more: page.hasMore,
      } satisfies GatewayReply<'listEvents'>;
    },

    async simulatePayment(request, reply) {
      const key = requireKey(request);
      await testHelperAllowed(key, reply);
      const { body } = request;
      const paid = await simulatePayment(ctx.db, local, {
        appId: key.appId,
        invoiceId: body.invoice_id,
        address: body.address,
        method: body.method,
        amount: body.amount,
        scenario: body.scenario,
        now: ctx.clock(),
      });
      void reply.code(201);
      return {
        scenario: paid.scenario,
        invoice_id: paid.invoiceId,
        address: paid.address,
        method: paid.method,
        chain_id: paid.chainId,
        amount: paid.amount,
        tx_hash: paid.txHash,
        block_number: paid.blockNumber,
        confirmations: paid.confirmations,
        livemode: false,
      } satisfies GatewayReply<'simulatePayment'>;
    },

    async confirmTestPayment(request, reply) {
      const key = requireKey(request);
      await testHelperAllowed(key, reply);
      const mined = await confirmPayment(ctx.db, local, {
        appId: key.appId,
        txHash: request.body.payment,
      });
      return {
        chain_id: mined.chainId,
        head: mined.head,
        mined: mined.mined,
        livemode: false,
      } satisfies GatewayReply<'confirmTestPayment'>;
    },

    async sendTestEvent(request, reply) {
      const key = requireKey(request);
      const d = await sendTestPing(webhooks, key.appId, testEvents(webhooks)).catch(
        (err: unknown) => {
          if (err instanceof TestEventsUsedUpError) {
            void reply.header('retry-after', String(Math.ceil(err.retryAfterMs / 1000)));
            throw new GatewayError(429, 'rate_limited', err.message);
          }
          throw webhookRefusal(err);
        },
      );
      const last = d.attemptsMade.at(-1);
      return {
        event_id: d.eventId,
        delivery_id: d.id,
        status: d.status,
        http_code: d.httpCode,
        error: last?.error ?? d.lastError,
        attempts: d.attempts,
        next_attempt_at: d.nextAttemptAt,
      } satisfies GatewayReply<'sendTestEvent'>;
    },
  };
}
