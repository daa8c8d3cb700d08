import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { gasBalanceReader } from '../domain/chain/balances';
import { tokenOnChainOf } from '../domain/invoices/invoices';
import {
  ClaimAddressError,
  ClaimConflictError,
  claimOf,
  claimRefund,
  type ClaimAddressProblem,
  type RefundClaim,
} from '../domain/refunds/claims';
import { claimPath, renderClaimPage, type ClaimPageView, type ClaimRefusal } from './claim';
import { acceptForms, field, formOf, messagePages, pageLanguage } from './links';
import type { MessageId } from './messages';
import { withQuery } from './page';
import { PAGE_HEADERS, readAssets } from './plugin';
import { named } from '../http/contexts';

// A refund's claim page (no session: the token, 192 random bits, is the key): GET /refund/{token}
// draws it, POST /refund/{token} (a plain form: `address` and the ticked `confirm`) claims the
// refund to the shopper's address and sends the shopper back to the page with a 303, which then
// shows the claim. A refused claim is the page again: 422 with the sentence next to its field and
// what was typed kept, or 409 when the refund can no longer be claimed. Both routes have a budget
// per client address of their own (app.ts, REFUND_CLAIM_RATE_LIMIT_MAX); the headers are the
// checkout's: its CSP, never indexed, no referrer, never stored.

export const REFUND_PREFIX = '/refund';
/** The group whose routes (the page and its form) share one budget per client address. */
export const REFUND_CLAIM_RATE_LIMIT_GROUP = 'refund-claim';
/** A claim token as refunds.ts makes it: 24 random bytes in base64url. */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

interface TokenParams {
  token: string;
}

/** The sentence next to the address for each way it can be refused. */
const ADDRESS_REFUSAL: Record<ClaimAddressProblem, MessageId> = {
  format: 'refund.addressInvalid',
  lost: 'refund.addressLost',
  merchant: 'refund.addressMerchant',
};

export async function registerClaims(
  app: FastifyInstance,
  ctx: AppContext,
  options: { assetsDir?: string } = {},
): Promise<void> {
  const assets = readAssets(options.assetsDir).urls;
  const tokenOnChain = tokenOnChainOf(ctx.chain, ctx.config.chainTokenContracts);

  await app.register(
    named('refund claim pages', async (claims) => {
      acceptForms(claims);

      // Refusals (the budget's 429 among them, a body too large) are pages too.
      const { messagePage, onError } = messagePages(assets, 'refund claim');
      claims.setErrorHandler(onError);

      /** The refund of a request's link, or its 404 page sent and null. */
      const claimFor = async (
        request: FastifyRequest<{ Params: TokenParams }>,
        reply: FastifyReply,
      ): Promise<RefundClaim | null> => {
        const { token } = request.params;
        // Anything not of a token's shape is no link, unasked.
        const found = TOKEN.test(token) ? await claimOf(ctx.db, token, ctx.clock()) : null;
        if (!found) {
          void messagePage(request, reply, 404, 'refund.notFoundHeading', 'refund.notFound');
        }
        return found;
      };

      const claimPage = (
        request: FastifyRequest<{ Params: TokenParams }>,
        reply: FastifyReply,
        status: number,
        claim: RefundClaim,
        again: Pick<ClaimPageView, 'typed' | 'refusal' | 'alreadyClaimed'> = {},
      ) =>
        reply
          .code(status)
          .headers(PAGE_HEADERS)
          .type('text/html; charset=utf-8')
          .send(
            renderClaimPage(
              { claim, token: request.params.token, ...pageLanguage(request), ...again },
              assets,
            ),
          );

      claims.get<{ Params: TokenParams }>('/:token', async (request, reply) => {
        const claim = await claimFor(request, reply);
        if (!claim) return reply;
        return claimPage(request, reply, 200, claim);
      });

      claims.post<{ Params: TokenParams }>('/:token', async (request, reply) => {
        const claim = await claimFor(request, reply);
        if (!claim) return reply;
        const form = formOf(request);
        const typed = field(form, 'address') ?? '';
        const refused = (refusal: ClaimRefusal) =>
          claimPage(request, reply, 422, claim, { typed, refusal });
        if (claim.state.kind === 'open' && field(form, 'confirm') === undefined) {
          return refused({ field: 'confirm', id: 'refund.confirmMissing' });
        }
        const { token } = request.params;
        try {
          await claimRefund(ctx.db, {
            token,
            address: typed,
            now: ctx.clock(),
            sign: ctx.sign,
            tokenOnChain,
            readerFor: (db) => gasBalanceReader(ctx.config, ctx.chain, db),
          });
        } catch (err) {
          if (err instanceof ClaimAddressError) {
            return refused({ field: 'address', id: ADDRESS_REFUSAL[err.problem] });
          }
          if (err instanceof ClaimConflictError) {
            // The page as the refund now stands: claimed (by another post), expired, cancelled.
            const now = (await claimOf(ctx.db, token, ctx.clock())) ?? claim;
            return claimPage(request, reply, 409, now, {
              alreadyClaimed: err.reason === 'claimed',
            });
          }
          throw err;
        }
        const { language, picked } = pageLanguage(request);
        return reply
          .code(303)
          .headers(PAGE_HEADERS)
          .header('location', withQuery(claimPath(token), { lang: picked ? language.code : '' }))
          .send();
      });
    }),
    { prefix: REFUND_PREFIX },
  );
}
