import { ownedApp } from '../domain/apps/apps';
import { invoicePage } from '../domain/invoices/invoices';
import {
  createPaymentLink,
  deactivatePaymentLink,
  getPaymentLink,
  paymentLinkPage,
} from '../domain/paymentLinks/paymentLinks';
import { gatewayMethods } from '../domain/payments/accounts';
import { requireUser } from '../http/requestContext';
import { pageEnvelope } from '../../../src/shared/paging';
import { done } from './replies';
import type { HandlerModule, Reply } from '../http/operationTypes';
import { codedMessages } from '../domain/messageCodes';
import { PAYMENT_LINK_MESSAGES } from '../../../src/shared/paymentLinks';

/** What the payment links' actions answer when they succeed. */
const PAYMENT_LINK_REPLIES = codedMessages('paymentLinkReplies', {
  created: 'Payment link created',
  deactivated: 'Payment link deactivated',
} as const);

/**
 * The Create payment link form's own words (src/shared/paymentLinks.ts, openapi.yaml's
 * x-messages); its amount's and currency's are the invoice form's too, coded once as `form` in
 * invoices.ts.
 */
codedMessages('paymentLinkForm', {
  titleRequired: PAYMENT_LINK_MESSAGES.titleRequired,
  titleTooLong: PAYMENT_LINK_MESSAGES.titleTooLong,
  descriptionTooLong: PAYMENT_LINK_MESSAGES.descriptionTooLong,
  minInvalid: PAYMENT_LINK_MESSAGES.minInvalid,
  maxInvalid: PAYMENT_LINK_MESSAGES.maxInvalid,
  rangeInvalid: PAYMENT_LINK_MESSAGES.rangeInvalid,
  expiryInvalid: PAYMENT_LINK_MESSAGES.expiryInvalid,
  maxUsesInvalid: PAYMENT_LINK_MESSAGES.maxUsesInvalid,
  redirectInvalid: PAYMENT_LINK_MESSAGES.redirectInvalid,
} as const);

/** Rows a page, as the Invoices tab's lists. */
const PER_PAGE = 10;

/** A form's empty text field: not sent. */
const given = (text: string | undefined) => (text === undefined || text === '' ? undefined : text);

// Operations tagged PaymentLinks in openapi.yaml, keyed by operationId. Each finds the app through
// the signed-in user (another account's app is a 404), then calls the payment link functions
// the gateway's /payment-links calls: one creation, one view with its totals. The links' pages
// are served from the portal's own origin, as the invoices' checkout pages.
export const paymentLinksHandlers: HandlerModule = (ctx) => {
  const origin = (request: { protocol: string; host: string }) =>
    `${request.protocol}://${request.host}`;
  return {
    async listAppPaymentLinks(request) {
      const user = requireUser(request);
      const app = await ownedApp(ctx.db, user.id, request.params.id);
      const { page = 1 } = request.query;
      const { links, total } = await paymentLinkPage(
        ctx.db,
        app.id,
        { page, perPage: PER_PAGE },
        { origin: origin(request), now: ctx.clock() },
      );
      const url = `/api/cryptosafelock/app-payment-links/${encodeURIComponent(app.id)}?page=1`;
      return {
        status: true,
        data: pageEnvelope(links, total, page, PER_PAGE, url),
      } satisfies Reply<'listAppPaymentLinks'>;
    },

    async createAppPaymentLink(request) {
      const user = requireUser(request);
      const app = await ownedApp(ctx.db, user.id, request.params.id);
      const { body } = request;
      // The portal names methods by its ids, the domain by their codes; an id the app has not
      // enabled goes through as it is, for the domain to refuse with the other faults.
      let methods: string[] | undefined;
      if (body.methods !== undefined && body.methods.length > 0) {
        const enabled = await gatewayMethods(ctx.db, app.id);
        methods = body.methods.map((id) => enabled.find((m) => m.id === id)?.code ?? id);
      }
      const link = await createPaymentLink(ctx.db, {
        appId: app.id,
        title: body.title,
        description: given(body.description),
        amount: body.amount,
        amountMin: body.amount_min,
        amountMax: body.amount_max,
        currency: body.currency,
        methods,
        redirectUrl: given(body.redirect_url),
        expiresAt: body.expires_at,
        maxUses: body.max_uses,
        origin: origin(request),
        now: ctx.clock(),
      });
      return done(PAYMENT_LINK_REPLIES.created, {
        data: link,
      }) satisfies Reply<'createAppPaymentLink'>;
    },

    async getAppPaymentLink(request) {
      const user = requireUser(request);
      const { id, linkId } = request.params;
      const { page = 1 } = request.query;
      const app = await ownedApp(ctx.db, user.id, id);
      const link = await getPaymentLink(ctx.db, app.id, linkId, {
        origin: origin(request),
        now: ctx.clock(),
      });
      const { invoices, total } = await invoicePage(
        ctx.db,
        app.id,
        { paymentLinkId: link.id },
        { page, perPage: PER_PAGE },
      );
      const url = `/api/cryptosafelock/app-payment-links/${encodeURIComponent(app.id)}/${encodeURIComponent(link.id)}?page=1`;
      return {
        status: true,
        data: { link, invoices: pageEnvelope(invoices, total, page, PER_PAGE, url) },
      } satisfies Reply<'getAppPaymentLink'>;
    },

    async deactivateAppPaymentLink(request) {
      const user = requireUser(request);
      const { id, linkId } = request.params;
      const app = await ownedApp(ctx.db, user.id, id);
      const link = await deactivatePaymentLink(ctx.db, app.id, linkId, {
        origin: origin(request),
        now: ctx.clock(),
      });
      return done(PAYMENT_LINK_REPLIES.deactivated, {
        data: link,
      }) satisfies Reply<'deactivateAppPaymentLink'>;
    },
  };
};
