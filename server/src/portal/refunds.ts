import { ownedApp } from '../domain/apps/apps';
import { gasBalanceReader } from '../domain/chain/balances';
import { InvalidError, type FieldErrors } from '../domain/errors';
import { tokenOnChainOf } from '../domain/invoices/invoices';
import { RateBook } from '../domain/rates/rates';
import { mailClaimLink } from '../domain/refunds/claimMail';
import {
  cancelRefund,
  previewRefund,
  reinitiateRefund,
  REFUND_MSG,
  requestRefund,
  type RefundQuoteAsk,
} from '../domain/refunds/refunds';
import { refundPage, refundView } from '../domain/refunds/views';
import { requireUser } from '../http/requestContext';
import { pageEnvelope } from '../../../src/shared/paging';
import { REFUND_MESSAGES } from '../../../src/shared/refunds';
import { done } from './replies';
import type { components } from '../generated/portal.gen';
import type { HandlerModule, Reply } from '../http/operationTypes';
import { codedMessages } from '../domain/messageCodes';

/**
 * The Refund form's words: its own (shared with the client, and openapi.yaml's x-messages), and
 * the gateway's refusals that `portalWords` rewrites, as it writes them.
 */
const REFUND_FORM = codedMessages('refundForm', {
  ...REFUND_MESSAGES,
  whichMethod: (paid: string) => `The invoice was paid in ${paid}: choose the method to refund in.`,
  currency: (invoiceCurrency: string, asset: string) =>
    `Choose the invoice's currency (${invoiceCurrency}) or the token (${asset}).`,
  invoiceAddress:
    "The address is the invoice's own address: the refund would be paid to the gateway, not the shopper.",
} as const);

/** What the refunds' actions answer when they succeed. */
const REFUND_REPLIES = codedMessages('refundReplies', {
  created: 'Refund created',
  cancelled: 'Refund cancelled',
  reinitiated: 'Refund re-initiated',
} as const);

type RefundBody = components['schemas']['CreateRefundRequest'];

/** Rows a page, as the Invoices tab's lists. */
const PER_PAGE = 10;

/** The gateway's refusals that name its request's fields, as the portal's form says them. */
const EXACT: Readonly<Record<string, string>> = {
  [REFUND_MSG.amountRequired]: REFUND_FORM.amountRequired,
  [REFUND_MSG.amountOnlyCustom]: REFUND_FORM.amountOnlyCustom,
  'amount must be a decimal number above 0, like "10.00".': REFUND_FORM.amountInvalid,
};

/** One refusal in the portal's words: no field names of the API, no API vocabulary. */
function portalWords(message: string): string {
  const exact = EXACT[message];
  if (exact !== undefined) return exact;
  return message
    .replace(/: name the method to refund in \(method\)\.$/, ': choose the method to refund in.')
    .replace(/^currency must be /, 'Choose ')
    .replace(/^address is /, 'The address is ');
}

/** Runs a refund's domain call, its field refusals put in the portal's words. */
async function inPortalWords<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof InvalidError)) throw error;
    const errors: FieldErrors = {};
    for (const [field, messages] of Object.entries(error.errors)) {
      errors[field] = messages.map(portalWords);
    }
    throw new InvalidError(undefined, errors);
  }
}

// Operations tagged Refunds in openapi.yaml, keyed by operationId. Each finds the app through the
// signed-in user (another account's app is a 404), then calls the refund functions the
// gateway's refunds call: one request, one cap, one view. The claim links are served from the
// portal's own origin, as the invoices' checkout pages.
export const refundsHandlers: HandlerModule = (ctx) => {
  // This process's rates and their few seconds' cache (domain/rates/), as the gateway's.
  const rates = new RateBook({ db: ctx.db, config: ctx.config });
  const tokenOnChain = tokenOnChainOf(ctx.chain, ctx.config.chainTokenContracts);

  /** What the request's body and path ask, as the refund functions take it. */
  const quoteOf = (body: RefundBody, appId: string, invoiceId: string): RefundQuoteAsk => {
    return {
      appId,
      invoiceId,
      amountKind: body.amount_kind,
      amount: body.amount,
      currency: body.currency,
      rate: body.rate,
      method: body.method,
      address: body.address,
      reason: body.reason,
      now: ctx.clock(),
      rates,
      tokenOnChain,
    };
  };

  return {
    async previewAppRefund(request) {
      const user = requireUser(request);
      const app = await ownedApp(ctx.db, user.id, request.params.id);
      const preview = await inPortalWords(() =>
        previewRefund(ctx.db, quoteOf(request.body, app.id, request.params.invoiceId)),
      );
      return {
        status: true,
        data: {
          method: preview.method,
          chain_id: preview.chainId,
          asset: preview.asset,
          amount: preview.amount,
          rate: preview.rate,
          rate_kind: preview.rateKind,
          refundable: preview.refundable,
        },
      } satisfies Reply<'previewAppRefund'>;
    },

    async createAppRefund(request) {
      const user = requireUser(request);
      const app = await ownedApp(ctx.db, user.id, request.params.id);
      const made = await inPortalWords(() =>
        requestRefund(ctx.db, {
          ...quoteOf(request.body, app.id, request.params.invoiceId),
          origin: `${request.protocol}://${request.host}`,
          serverKey: ctx.config.secretKey,
          sign: ctx.sign,
          readerFor: (db) => gasBalanceReader(ctx.config, ctx.chain, db),
        }),
      );
      await mailClaimLink(ctx, made, request.log);
      return done(REFUND_REPLIES.created, { data: made.refund }) satisfies Reply<'createAppRefund'>;
    },

    async listAppRefunds(request) {
      const user = requireUser(request);
      const app = await ownedApp(ctx.db, user.id, request.params.id);
      const { page = 1, invoice } = request.query;
      const { rows, total } = await refundPage(
        ctx.db,
        app.id,
        { invoiceId: invoice },
        { page, perPage: PER_PAGE },
      );
      const query = new URLSearchParams();
      if (invoice !== undefined) query.set('invoice', invoice);
      query.set('page', '1');
      const url = `/api/cryptosafelock/app-refunds/${encodeURIComponent(app.id)}?${query}`;
      const urls = { serverKey: ctx.config.secretKey };
      return {
        status: true,
        data: pageEnvelope(
          rows.map((row) => refundView(row, urls)),
          total,
          page,
          PER_PAGE,
          url,
        ),
      } satisfies Reply<'listAppRefunds'>;
    },

    async cancelAppRefund(request) {
      const user = requireUser(request);
      const { id, refundId } = request.params;
      const app = await ownedApp(ctx.db, user.id, id);
      const refund = await cancelRefund(ctx.db, app.id, refundId, ctx.clock());
      return done(REFUND_REPLIES.cancelled, { data: refund }) satisfies Reply<'cancelAppRefund'>;
    },

    async reinitiateAppRefund(request) {
      const user = requireUser(request);
      const { id, refundId } = request.params;
      const app = await ownedApp(ctx.db, user.id, id);
      const refund = await reinitiateRefund(
        ctx.db,
        (db) => gasBalanceReader(ctx.config, ctx.chain, db),
        { userId: user.id, appId: app.id },
        refundId,
        ctx.clock(),
      );
      return done(REFUND_REPLIES.reinitiated, {
        data: refund,
      }) satisfies Reply<'reinitiateAppRefund'>;
    },
  };
};
