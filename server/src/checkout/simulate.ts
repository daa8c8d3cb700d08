import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { checkoutInvoice } from '../domain/invoices/checkout';
import { localChains } from '../domain/payments/testDeposits';
import {
  claimInvoiceSimulation,
  SIMULATION_MSG,
  simulatePayment,
  simulationRefusal,
  type SimulationRefusal,
} from '../domain/testMode/simulations';
import { ConflictError } from '../domain/errors';
import { acceptForms, field, formOf, messagePages, pageLanguage } from './links';
import type { MessageId } from './messages';
import { renderMessagePage, withQuery } from './page';
import { CHECKOUT_PREFIX, PAGE_HEADERS, readAssets } from './plugin';
import { chosenOption } from './screens';
import { named } from '../http/contexts';

// A test invoice's simulated payments from its own checkout page: POST /pay/{id}/simulate, a
// plain form (`scenario` full, partial or over, and the `method` the page shows), runs the test
// helpers' simulatePayment, a transfer on the test network's local chain that the watcher, the
// state machine and the webhooks take as they take any payment, and sends the shopper back to
// the page with a 303. A live invoice (403), one that takes no more payments or runs on a public
// testnet here (409), or more than INVOICE_SIMULATION_LIMIT a minute on one invoice (429, shared
// with the portal's simulations) is a page saying so, in the page's language. The route is in
// the checkout's budget per client address besides (app.ts).

const INVOICE_ID = /^inv_[0-9a-z]{10,40}$/;
const METHOD_CODE = /^[A-Za-z0-9-]{1,40}$/;
const CHECKOUT_SCENARIOS = ['full', 'partial', 'over'] as const;
type CheckoutScenario = (typeof CHECKOUT_SCENARIOS)[number];
const isScenario = (text: string | undefined): text is CheckoutScenario =>
  (CHECKOUT_SCENARIOS as readonly (string | undefined)[]).includes(text);

/** The status and sentence of each refusal. */
const REFUSALS: Record<SimulationRefusal, [number, MessageId]> = {
  live: [403, 'test.live'],
  final: [409, 'test.final'],
  testnet: [409, 'test.testnet'],
};

interface Params {
  id: string;
}

export async function registerSimulations(
  app: FastifyInstance,
  ctx: AppContext,
  options: { assetsDir?: string } = {},
): Promise<void> {
  const assets = readAssets(options.assetsDir).urls;
  const local = localChains(ctx.config, ctx.db);

  await app.register(
    named('test payments', async (pay) => {
      acceptForms(pay);
      const { messagePage, onError } = messagePages(assets, 'checkout simulation');
      pay.setErrorHandler(onError);

      pay.post<{ Params: Params }>('/:id/simulate', async (request, reply) => {
        const { id } = request.params;
        const checkout = INVOICE_ID.test(id) ? await checkoutInvoice(ctx.db, id) : undefined;
        if (!checkout)
          return messagePage(request, reply, 404, 'notFound.heading', 'notFound.status');
        const form = formOf(request);
        const scenario = field(form, 'scenario');
        const method = field(form, 'method');
        const { language, picked } = pageLanguage(request);
        const back = (query: Record<string, string> = {}) =>
          withQuery(`${CHECKOUT_PREFIX}/${id}`, {
            ...query,
            lang: picked ? language.code : '',
          });
        /** The refusal's page, with the way back to the invoice. */
        const refused = (status: number, text: MessageId) =>
          reply
            .code(status)
            .headers(PAGE_HEADERS)
            .type('text/html; charset=utf-8')
            .send(
              renderMessagePage(language, 'test.refused', text, {
                assets,
                link: { href: back(), label: 'test.back' },
                path: `${CHECKOUT_PREFIX}/${id}`,
              }),
            );
        if (!isScenario(scenario) || (method !== undefined && !METHOD_CODE.test(method))) {
          return messagePage(request, reply, 400, 'error.heading', 'error.status');
        }
        const option = chosenOption(checkout.invoice, method);
        if (method !== undefined && option === undefined) {
          return messagePage(request, reply, 400, 'error.heading', 'error.status');
        }
        const refusal = simulationRefusal(
          {
            livemode: checkout.livemode,
            status: checkout.invoice.status,
            chainId: option?.chain_id ?? checkout.invoice.payment_options[0]?.chain_id,
          },
          local,
        );
        if (refusal !== null) return refused(...REFUSALS[refusal]);

        const wait = await claimInvoiceSimulation(ctx.db, id, ctx.clock().getTime());
        if (wait > 0) {
          void reply.header('retry-after', String(wait));
          return refused(429, 'test.tooMany');
        }
        try {
          await simulatePayment(ctx.db, local, {
            appId: checkout.appId,
            invoiceId: id,
            method: option?.method,
            scenario,
            now: ctx.clock(),
          });
        } catch (err) {
          if (err instanceof ConflictError) {
            return refused(
              409,
              err.message === SIMULATION_MSG.paidInFull ? 'test.paidInFull' : 'test.final',
            );
          }
          throw err;
        }
        return reply
          .code(303)
          .headers(PAGE_HEADERS)
          .header('location', back({ method: option?.method ?? '' }))
          .send();
      });
    }),
    { prefix: CHECKOUT_PREFIX },
  );
}
