import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { PlanLimitError } from '../domain/apps/plan';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { InvalidError } from '../domain/errors';
import { randomToken } from '../domain/ids';
import { tokenOnChainOf } from '../domain/invoices/invoices';
import {
  isSlug,
  PaymentLinkAmountError,
  PaymentLinkClosedError,
  paymentLinkBySlug,
  payInvoice,
  type PaymentLinkStatus,
  type PublicPaymentLink,
} from '../domain/paymentLinks/paymentLinks';
import { RateBook, RateUnavailableError } from '../domain/rates/rates';
import { renderLinkPage, type AmountRefusal } from './link';
import { languageFor, type Language, type MessageId, type Params } from './messages';
import { renderMessagePage, withQuery, type CheckoutAssets } from './page';
import { CHECKOUT_PREFIX, PAGE_HEADERS, readAssets, requestLanguage } from './plugin';
import { formatters } from './screens';
import { named } from '../http/contexts';

// A payment link's public page (no session: the slug, 16 random characters, is the key):
// GET /l/{slug} draws it, POST /l/{slug} (a plain form) makes the visit's invoice and sends the
// shopper to its checkout page with a 303. Both are in the checkout's budget per client address
// (app.ts), and the invoices they make in one of their own (LINK_INVOICE_RATE_LIMIT_MAX); the
// headers are the checkout's: its CSP, never indexed, no referrer, never stored.

export const LINK_PREFIX = '/l';
/** The budget of invoices made from links' pages, per client address. */
const LINK_INVOICE_RATE_LIMIT_GROUP = 'link-invoices';
/** A form holds three short fields: anything much larger is not this page's. */
const FORM_BODY_LIMIT = 2048;
/** A visit's token as the page draws it: 128 random bits in base64url. */
const VISIT = /^[A-Za-z0-9_-]{22}$/;

interface SlugParams {
  slug: string;
}

/** The invoices budget was spent: the 429 page, after `retryAfter` seconds. */
class InvoiceBudgetSpent extends Error {
  constructor(readonly retryAfter: number) {
    super('Too many invoices from this address.');
  }
}

/** The sentence saying why a link is closed. */
const CLOSED: Record<Exclude<PaymentLinkStatus, 'active'>, MessageId> = {
  expired: 'link.expired',
  used_up: 'link.usedUp',
  deactivated: 'link.off',
};

/**
 * Plain form posts, read by `pages` only (the rest of the server takes no forms): their fields as
 * URLSearchParams.
 */
export function acceptForms(pages: FastifyInstance): void {
  pages.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      done(null, new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8')));
    },
  );
}

/** The form's fields, parsed by acceptForms' parser; anything else sent is no form. */
export function formOf(request: FastifyRequest): URLSearchParams | undefined {
  return request.body instanceof URLSearchParams ? request.body : undefined;
}

/** The one value of a form field; none when absent or given twice. */
export function field(form: URLSearchParams | undefined, name: string): string | undefined {
  const values = form?.getAll(name) ?? [];
  return values.length === 1 ? values[0] : undefined;
}

/**
 * The page's language: the form's `lang` (a page drawn in a picked language posts it), else the
 * checkout's rule (the picker's `?lang=`, else Accept-Language).
 */
export function pageLanguage(request: FastifyRequest): { language: Language; picked: boolean } {
  const posted = field(formOf(request), 'lang');
  if (posted === undefined) return requestLanguage(request);
  const language = languageFor(posted, request.headers['accept-language']);
  return { language, picked: posted === language.code };
}

/**
 * A public form page's message pages (404, 400, 429 and the like, in the shopper's language) and
 * the error handler that answers every refusal with one: the budget's 429, a body too large, a
 * fault (`what` names it in the log).
 */
export function messagePages(assets: CheckoutAssets, what: string) {
  const messagePage = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    heading: MessageId,
    text: MessageId,
    params: Params = {},
  ) =>
    reply
      .code(status)
      .headers(PAGE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(
        renderMessagePage(pageLanguage(request).language, heading, text, {
          params,
          assets,
          path: request.url.split('?')[0] ?? '',
        }),
      );
  const onError = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const status =
      error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, what);
    return status === 429
      ? messagePage(request, reply, 429, 'tooMany.heading', 'tooMany.status')
      : messagePage(request, reply, status, 'error.heading', 'error.status');
  };
  return { messagePage, onError };
}

export async function registerLinks(
  app: FastifyInstance,
  ctx: AppContext,
  options: { assetsDir?: string } = {},
): Promise<void> {
  const assets = readAssets(options.assetsDir).urls;
  const xpub = resolveWalletXpub(ctx.config);
  // This process's rates and their few seconds' cache (domain/rates/), as the gateway's.
  const rates = new RateBook({ db: ctx.db, config: ctx.config });
  const tokenOnChain = tokenOnChainOf(ctx.chain, ctx.config.chainTokenContracts);
  // Counted in the limiter's store (the database), apart from the page's own budget: its own
  // group is its own count.
  const budget: RateLimitOptions = {
    max: ctx.config.rateLimit.linkInvoiceMax,
    timeWindow: ctx.config.rateLimit.windowMs,
    groupId: LINK_INVOICE_RATE_LIMIT_GROUP,
  };
  const invoiceBudget = app.createRateLimit(budget);

  await app.register(
    named('payment link pages', async (links) => {
      acceptForms(links);

      // Refusals (the page's budget's 429 among them, a body too large) are pages too.
      const { messagePage, onError } = messagePages(assets, 'payment link');
      links.setErrorHandler(onError);

      /** The link of a request, or its 404 page sent and undefined. */
      const linkOf = async (
        request: FastifyRequest<{ Params: SlugParams }>,
        reply: FastifyReply,
      ): Promise<PublicPaymentLink | undefined> => {
        const { slug } = request.params;
        const found = isSlug(slug) ? await paymentLinkBySlug(ctx.db, slug, ctx.clock()) : undefined;
        if (!found) void messagePage(request, reply, 404, 'link.notFoundHeading', 'link.notFound');
        return found;
      };

      /** The 410 page of a link that makes no more invoices, saying why. */
      const closedPage = (
        request: FastifyRequest,
        reply: FastifyReply,
        found: PublicPaymentLink,
        status: Exclude<PaymentLinkStatus, 'active'>,
      ) => {
        const { language } = pageLanguage(request);
        const expiresAt = found.link.expires_at;
        const date =
          expiresAt === null ? '' : formatters(language).time(new Date(expiresAt).toISOString());
        return messagePage(request, reply, 410, 'link.closedHeading', CLOSED[status], {
          app: found.appName,
          date,
        });
      };

      /** The link's page: a new visit's, or the same visit's again with its refusal. */
      const linkPage = (
        request: FastifyRequest,
        reply: FastifyReply,
        status: number,
        found: PublicPaymentLink,
        again: { visit: string; typed?: string; refusal?: AmountRefusal } = {
          visit: randomToken(16),
        },
      ) =>
        reply
          .code(status)
          .headers(PAGE_HEADERS)
          .type('text/html; charset=utf-8')
          .send(renderLinkPage({ found, ...pageLanguage(request), ...again }, assets));

      links.get<{ Params: SlugParams }>('/:slug', async (request, reply) => {
        const found = await linkOf(request, reply);
        if (!found) return reply;
        if (found.status !== 'active') return closedPage(request, reply, found, found.status);
        return linkPage(request, reply, 200, found);
      });

      links.post<{ Params: SlugParams }>('/:slug', async (request, reply) => {
        const found = await linkOf(request, reply);
        if (!found) return reply;
        const form = formOf(request);
        const visit = field(form, 'visit');
        // No visit of a page drawn here (a hand-made request): the page, to post from.
        if (visit === undefined || !VISIT.test(visit)) {
          if (found.status !== 'active') return closedPage(request, reply, found, found.status);
          return linkPage(request, reply, 400, found);
        }
        const typed = field(form, 'amount');
        const { language, picked } = pageLanguage(request);
        try {
          const invoice = await payInvoice(ctx.db, rates, xpub, {
            link: found.link,
            amount: typed,
            visit,
            checkoutOrigin: `${request.protocol}://${request.host}`,
            now: ctx.clock(),
            tokenOnChain,
            beforeCreating: async () => {
              const spent = await invoiceBudget(request);
              if (!spent.isAllowed && spent.isExceeded) {
                throw new InvoiceBudgetSpent(spent.ttlInSeconds);
              }
            },
          });
          return reply
            .code(303)
            .headers(PAGE_HEADERS)
            .header(
              'location',
              withQuery(`${CHECKOUT_PREFIX}/${invoice.id}`, { lang: picked ? language.code : '' }),
            )
            .send();
        } catch (err) {
          if (err instanceof PaymentLinkAmountError) {
            const money = (value: string) => formatters(language).money(value, found.link.currency);
            const refusal: AmountRefusal =
              err.reason === 'tooLow'
                ? { id: 'link.amountTooLow', params: { min: money(err.bound ?? '0') } }
                : err.reason === 'tooHigh'
                  ? { id: 'link.amountTooHigh', params: { max: money(err.bound ?? '0') } }
                  : err.reason === 'places'
                    ? { id: 'link.amountPlaces', params: { currency: found.link.currency } }
                    : { id: 'link.amountInvalid' };
            return linkPage(request, reply, 400, found, { visit, typed, refusal });
          }
          if (err instanceof PaymentLinkClosedError) {
            return closedPage(request, reply, found, err.status);
          }
          if (err instanceof InvoiceBudgetSpent) {
            void reply.header('retry-after', String(err.retryAfter));
            return messagePage(request, reply, 429, 'tooMany.heading', 'tooMany.status');
          }
          // No fresh rate, no room in the merchant's plan, a method of the link switched off
          // since: nothing the shopper can mend, and nothing was made.
          if (
            err instanceof RateUnavailableError ||
            err instanceof PlanLimitError ||
            err instanceof InvalidError
          ) {
            request.log.warn({ err, link: found.link.id }, 'payment link made no invoice');
            return messagePage(request, reply, 503, 'link.unavailableHeading', 'link.unavailable', {
              app: found.appName,
            });
          }
          throw err;
        }
      });
    }),
    { prefix: LINK_PREFIX },
  );
}
