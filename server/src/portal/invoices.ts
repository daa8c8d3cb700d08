import type { FastifyReply } from 'fastify';
import { ownedApp } from '../domain/apps/apps';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import {
  cancelInvoice,
  createInvoice,
  getInvoice,
  invoicePage,
  markInvoice,
  tokenOnChainOf,
} from '../domain/invoices/invoices';
import { acceptPayment } from '../domain/invoices/strays';
import { localChains } from '../domain/payments/testDeposits';
import {
  claimInvoiceSimulation,
  confirmInvoicePayments,
  SIMULATION_MSG,
  simulatePayment,
} from '../domain/testMode/simulations';
import { forbidden, HttpError } from '../http/errors';
import { invoiceTimeline } from '../domain/invoices/timeline';
import { RateBook } from '../domain/rates/rates';
import { ipnLogView } from '../domain/webhooks/portal';
import { requireUser } from '../http/requestContext';
import { pageEnvelope } from '../../../src/shared/paging';
import { done } from './replies';
import type { HandlerModule, Reply } from '../http/operationTypes';
import { codedMessages } from '../domain/messageCodes';
import { INVOICE_MESSAGES } from '../../../src/shared/invoices';

/** What the Invoices tab's actions answer when they succeed. */
const INVOICE_REPLIES = codedMessages('invoiceReplies', {
  created: 'Invoice created',
  markedSettled: 'Invoice marked settled',
  markedInvalid: 'Invoice marked invalid',
  paymentAccepted: 'Payment accepted',
  simulated: 'Simulated payment sent',
  confirmed: 'Payments confirmed',
  cancelled: 'Invoice cancelled',
} as const);

/**
 * The words of the invoice and payment link forms (src/shared/, openapi.yaml's x-messages) that
 * both say, coded once here; the payment link form's own are paymentLinks.ts', the reason's is
 * the Refund form's (`refundForm.reasonRequired`), the settings' are apps.ts'.
 */
codedMessages('form', {
  amountRequired: INVOICE_MESSAGES.amountRequired,
  amountInvalid: INVOICE_MESSAGES.amountInvalid,
  currencyRequired: INVOICE_MESSAGES.currencyRequired,
} as const);

/** The invoice form's own words. */
codedMessages('invoiceForm', { expiryInvalid: INVOICE_MESSAGES.expiryInvalid } as const);

/** The Invoices tab's rows a page, as the app detail's lists. */
const PER_PAGE = 10;

/** A form's empty text field: not sent. */
const given = (text: string | undefined) => (text === undefined || text === '' ? undefined : text);

// Operations tagged Invoices in openapi.yaml, keyed by operationId. Each finds the app through the
// signed-in user (another account's app is a 404), then calls the invoice functions the
// gateway's /invoices calls: one creation, one state machine, one view.
export const invoicesHandlers: HandlerModule = (ctx) => {
  const xpub = resolveWalletXpub(ctx.config);
  // This process's rates and their few seconds' cache (domain/rates/), as the gateway's.
  const rates = new RateBook({ db: ctx.db, config: ctx.config });
  const tokenOnChain = tokenOnChainOf(ctx.chain, ctx.config.chainTokenContracts);
  const local = localChains(ctx.config, ctx.db);

  /**
   * A test app's invoice may take a simulation now: the app is a test app (403 otherwise) and the
   * invoice has simulations left this minute (429, with Retry-After, otherwise).
   */
  async function simulationAllowed(
    app: { id: string; livemode: number },
    invoiceId: string,
    reply: FastifyReply,
  ): Promise<void> {
    if (app.livemode !== 0) throw forbidden(SIMULATION_MSG.liveInvoice);
    await getInvoice(ctx.db, app.id, invoiceId);
    const wait = await claimInvoiceSimulation(ctx.db, invoiceId, ctx.clock().getTime());
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      throw new HttpError(429, SIMULATION_MSG.invoiceLimit(wait));
    }
  }

  return {
    async listAppInvoices(request) {
      const user = requireUser(request);
      const { id } = request.params;
      const app = await ownedApp(ctx.db, user.id, id);
      const { page = 1, status, order_id: orderId, from, to } = request.query;
      const filter = { status, orderId, from, to };
      const { invoices, total } = await invoicePage(ctx.db, app.id, filter, {
        page,
        perPage: PER_PAGE,
      });
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries({ status, order_id: orderId, from, to })) {
        if (value !== undefined) query.set(key, value);
      }
      query.set('page', '1');
      const url = `/api/cryptosafelock/app-invoices/${encodeURIComponent(app.id)}?${query}`;
      return {
        status: true,
        data: pageEnvelope(invoices, total, page, PER_PAGE, url),
      } satisfies Reply<'listAppInvoices'>;
    },

    async createAppInvoice(request) {
      const user = requireUser(request);
      const app = await ownedApp(ctx.db, user.id, request.params.id);
      const { body } = request;
      const invoice = await createInvoice(ctx.db, rates, xpub, {
        appId: app.id,
        amount: body.amount,
        currency: body.currency,
        orderId: given(body.order_id),
        description: given(body.description),
        expiresIn: body.expires_in,
        // The checkout page is served from the portal's own origin, as the gateway's.
        checkoutOrigin: `${request.protocol}://${request.host}`,
        now: ctx.clock(),
        tokenOnChain,
      });
      return done(INVOICE_REPLIES.created, { data: invoice }) satisfies Reply<'createAppInvoice'>;
    },

    async getAppInvoice(request) {
      const user = requireUser(request);
      const { id, invoiceId } = request.params;
      const app = await ownedApp(ctx.db, user.id, id);
      const invoice = await getInvoice(ctx.db, app.id, invoiceId);
      const timeline = await invoiceTimeline(ctx.db, app.id, invoiceId);
      return {
        status: true,
        data: {
          invoice,
          timeline: timeline.map((entry) => ({
            event_id: entry.eventId,
            event: entry.event,
            at: entry.at,
            status: entry.status,
            exceptions: entry.exceptions,
            detail: entry.detail,
            deliveries: entry.deliveries.map(ipnLogView),
          })),
        },
      } satisfies Reply<'getAppInvoice'>;
    },

    async markAppInvoice(request) {
      const user = requireUser(request);
      const { id, invoiceId } = request.params;
      const app = await ownedApp(ctx.db, user.id, id);
      const invoice = await markInvoice(ctx.db, app.id, invoiceId, request.body, ctx.clock());
      const msg =
        request.body.status === 'settled'
          ? INVOICE_REPLIES.markedSettled
          : INVOICE_REPLIES.markedInvalid;
      return done(msg, { data: invoice }) satisfies Reply<'markAppInvoice'>;
    },

    async acceptAppInvoicePayment(request) {
      const user = requireUser(request);
      const { id, invoiceId, paymentId } = request.params;
      const app = await ownedApp(ctx.db, user.id, id);
      const invoice = await acceptPayment(ctx.db, rates, app.id, invoiceId, paymentId, ctx.clock());
      return done(INVOICE_REPLIES.paymentAccepted, {
        data: invoice,
      }) satisfies Reply<'acceptAppInvoicePayment'>;
    },

    async simulateAppInvoicePayment(request, reply) {
      const user = requireUser(request);
      const { id, invoiceId } = request.params;
      const app = await ownedApp(ctx.db, user.id, id);
      await simulationAllowed(app, invoiceId, reply);
      const paid = await simulatePayment(ctx.db, local, {
        appId: app.id,
        invoiceId,
        scenario: request.body.scenario,
        now: ctx.clock(),
      });
      return done(INVOICE_REPLIES.simulated, {
        data: {
          scenario: request.body.scenario,
          method: paid.method,
          chain_id: paid.chainId,
          amount: paid.amount,
          tx_hash: paid.txHash,
          confirmations: paid.confirmations,
        },
      }) satisfies Reply<'simulateAppInvoicePayment'>;
    },

    async confirmAppInvoicePayments(request, reply) {
      const user = requireUser(request);
      const { id, invoiceId } = request.params;
      const app = await ownedApp(ctx.db, user.id, id);
      await simulationAllowed(app, invoiceId, reply);
      const confirmed = await confirmInvoicePayments(ctx.db, local, { appId: app.id, invoiceId });
      return done(INVOICE_REPLIES.confirmed, {
        data: confirmed,
      }) satisfies Reply<'confirmAppInvoicePayments'>;
    },

    async cancelAppInvoice(request) {
      const user = requireUser(request);
      const { id, invoiceId } = request.params;
      const app = await ownedApp(ctx.db, user.id, id);
      const invoice = await cancelInvoice(ctx.db, app.id, invoiceId, ctx.clock());
      return done(INVOICE_REPLIES.cancelled, { data: invoice }) satisfies Reply<'cancelAppInvoice'>;
    },
  };
};
