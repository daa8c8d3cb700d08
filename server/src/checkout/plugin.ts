import { existsSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { appOfInvoice, checkoutFingerprints, checkoutInvoice } from '../domain/invoices/checkout';
import { localChains } from '../domain/payments/testDeposits';
import { simulationRefusal } from '../domain/testMode/simulations';
import { keepBytes, keptAnswer, keptPage, type KeptPage } from '../http/keptAnswers';
import { StatusFeed } from './feed';
import { languageFor, say, type Language, type MessageId } from './messages';
import {
  renderFragment,
  renderMessagePage,
  renderPage,
  viewOf,
  withQuery,
  type CheckoutAssets,
} from './page';
import { chosenOption, statusOf } from './screens';
import { named } from '../http/contexts';

// The hosted checkout page, public (no session: the invoice id, 128 random bits, is the key):
// GET /pay/{id} (the page, `?method=CODE` once a method is chosen), /pay/{id}/fragment (the
// state's screen alone, which the script swaps in), /pay/{id}/status (JSON) and
// /pay/{id}/events (Server-Sent Events from the process's one feed), and the script and style
// sheet under /pay/assets/. Every page and status answer is rate limited per client address
// (app.ts, CHECKOUT_RATE_LIMIT_MAX), never indexed, sends no referrer and runs nothing but the
// page's own script.

export const CHECKOUT_PREFIX = '/pay';
export const CHECKOUT_ASSETS_PREFIX = '/pay/assets/';
/** The group whose routes (every page and status answer) share one budget per client address. */
export const CHECKOUT_RATE_LIMIT_GROUP = 'checkout';

/** Nothing but this server's own script and style sheet; no inline code, no other host. */
export const CHECKOUT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every page and status answer of the checkout and payment link pages. */
export const PAGE_HEADERS = {
  'content-security-policy': CHECKOUT_CSP,
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  // A page's language comes from Accept-Language unless the shopper picked one.
  vary: 'Accept-Language',
};

/** An invoice id as the gateway makes them (ids.ts): anything else is not one, unasked. */
const INVOICE_ID = /^inv_[0-9a-z]{10,40}$/;
const METHOD_CODE = /^[A-Za-z0-9-]{1,40}$/;
/** Built by scripts/build-checkout.mjs: content-hashed names. */
const ASSET_FILE = /^checkout\.[0-9a-f]{8,}\.(js|css)$/;

/** The built script and style sheet (dist/checkout), read once; none when not built. */
export function readAssets(dir: string | undefined) {
  const files = new Map<string, Buffer>();
  const urls: CheckoutAssets = {};
  if (!dir || !existsSync(path.join(dir, 'manifest.json'))) return { files, urls };
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
    js?: string;
    css?: string;
  };
  for (const [kind, name] of [
    ['js', manifest.js],
    ['css', manifest.css],
  ] as const) {
    if (name === undefined || !ASSET_FILE.test(name)) continue;
    const file = path.join(dir, name);
    const twin = (suffix: string) =>
      existsSync(`${file}${suffix}`) ? readFileSync(`${file}${suffix}`) : undefined;
    files.set(name, keepBytes(readFileSync(file), { br: twin('.br'), gzip: twin('.gz') }));
    if (kind === 'js') urls.script = `${CHECKOUT_ASSETS_PREFIX}${name}`;
    else urls.style = `${CHECKOUT_ASSETS_PREFIX}${name}`;
  }
  return { files, urls };
}

interface Params {
  id: string;
}
interface Query {
  /** Repeated in a hand-made URL, it comes as a list: not a method. */
  method?: string | string[];
  /** The picker's choice (a language code); anything else leaves Accept-Language to choose. */
  lang?: string | string[];
}

/** The language of a request's page, and whether the shopper picked it. */
export function requestLanguage(request: FastifyRequest): { language: Language; picked: boolean } {
  const { lang } = (request.query ?? {}) as { lang?: unknown };
  const language = languageFor(lang, request.headers['accept-language']);
  return { language, picked: lang === language.code };
}

export interface CheckoutOptions {
  /** dist/checkout: the built script and style sheet. */
  assetsDir?: string;
  /** How often the status feed looks for changes (ms). */
  feedTickMs?: number;
  /** How often a page open without JavaScript reloads itself while it can change (s). */
  refreshSeconds?: number;
}

export async function registerCheckout(
  app: FastifyInstance,
  ctx: AppContext,
  options: CheckoutOptions = {},
): Promise<StatusFeed> {
  const assets = readAssets(options.assetsDir);
  // A test invoice's page offers simulated payments where this server runs its chain.
  const local = localChains(ctx.config, ctx.db);
  // A quarter of a second: a payment shows on the shopper's page about as soon as its webhook
  // leaves, for one query a tick per process, and only while a page is open.
  const feedTickMs = options.feedTickMs ?? 250;
  const feed = new StatusFeed(
    {
      fingerprints: (ids) => checkoutFingerprints(ctx.db, ids),
      status: async (id) => {
        const checkout = await checkoutInvoice(ctx.db, id);
        return checkout && statusOf(checkout);
      },
    },
    {
      tickMs: feedTickMs,
      // A ping every 25 s.
      pingEvery: Math.max(1, Math.round(25_000 / feedTickMs)),
      onError: (error) => app.log.warn({ err: error }, 'checkout status feed'),
    },
  );
  const streams = new Set<ServerResponse>();
  app.addHook('onClose', (_instance, done) => {
    feed.close();
    for (const stream of streams) stream.end();
    done();
  });

  await app.register(
    named('checkout pages', async (pay) => {
      const sendPage = (reply: FastifyReply, page: KeptPage) =>
        reply
          .code(page.status)
          .headers(PAGE_HEADERS)
          .type('text/html; charset=utf-8')
          .send(page.body);

      /** A page with no invoice behind it, in the request's language. */
      const messagePage = (
        request: FastifyRequest,
        status: number,
        heading: Parameters<typeof renderMessagePage>[1],
        text: Parameters<typeof renderMessagePage>[2],
        params: Record<string, string> = {},
        link?: { href: string; label: MessageId },
      ): KeptPage => ({
        status,
        body: Buffer.from(
          renderMessagePage(requestLanguage(request).language, heading, text, {
            params,
            assets: assets.urls,
            link,
            path: request.url.split('?')[0] ?? '',
          }),
        ),
      });
      const notFound = (request: FastifyRequest) =>
        messagePage(request, 404, 'notFound.heading', 'notFound.status');

      // Refusals on these routes (the rate limit's 429 among them) are pages, or JSON for the
      // status answers the script reads.
      pay.setErrorHandler((error: FastifyError, request, reply) => {
        const status =
          error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
        if (status >= 500) request.log.error({ err: error }, 'checkout');
        const route = request.routeOptions.url ?? '';
        if (route.endsWith('/status') || route.endsWith('/events')) {
          return reply.code(status).headers(PAGE_HEADERS).send({ error: error.message });
        }
        return sendPage(
          reply,
          status === 429
            ? messagePage(request, 429, 'tooMany.heading', 'tooMany.status')
            : messagePage(request, status, 'error.heading', 'error.status'),
        );
      });

      // Each invoice's app, learnt once: an invoice never changes app.
      const apps = new Map<string, string>();
      const appOf = async (id: string) => {
        const known = apps.get(id);
        if (known !== undefined || !INVOICE_ID.test(id)) return known;
        const app = await appOfInvoice(ctx.db, id);
        if (app === undefined) return undefined;
        if (apps.size >= 100_000) apps.clear();
        apps.set(id, app);
        return app;
      };

      /** The 404 of a status answer or stream, in JSON. */
      const statusNotFound = (request: FastifyRequest, reply: FastifyReply) =>
        reply
          .code(404)
          .headers(PAGE_HEADERS)
          .send({ error: say(requestLanguage(request).language, 'notFound.heading') });

      /** The chosen method when the invoice offers it; the 400 page otherwise. */
      const methodOf = (
        request: FastifyRequest<{ Params: Params; Querystring: Query }>,
        offered: readonly string[],
      ): { method: string | undefined } | KeptPage => {
        const { method } = request.query;
        if (method === undefined || method === '') return { method: undefined };
        if (typeof method === 'string' && METHOD_CODE.test(method) && offered.includes(method)) {
          return { method };
        }
        const { language, picked } = requestLanguage(request);
        return messagePage(
          request,
          400,
          'badMethod.heading',
          'badMethod.status',
          { method: String(method).slice(0, 40) },
          {
            href: withQuery(`${CHECKOUT_PREFIX}/${request.params.id}`, {
              lang: picked ? language.code : '',
            }),
            label: 'pick.change',
          },
        );
      };

      /**
       * The page (or the fragment the script swaps in) of a request: drawn from the invoice,
       * then kept until a row of its app changes (http/keptAnswers.ts), per method, language
       * and whether the shopper picked it. Nothing on it depends on the time: the expiry job
       * writes the status, and the countdown is the script's.
       */
      const drawn = async (
        request: FastifyRequest<{ Params: Params; Querystring: Query }>,
        part: 'page' | 'fragment',
      ): Promise<KeptPage> => {
        const { id } = request.params;
        const app = await appOf(id);
        if (app === undefined) return notFound(request);
        const { language, picked } = requestLanguage(request);
        const build = async (): Promise<KeptPage> => {
          const checkout = await checkoutInvoice(ctx.db, id);
          if (!checkout) return notFound(request);
          const chosen = methodOf(
            request,
            checkout.invoice.payment_options.map((o) => o.method),
          );
          if ('status' in chosen) return chosen;
          const simulate =
            simulationRefusal(
              {
                livemode: checkout.livemode,
                status: checkout.invoice.status,
                chainId: chosenOption(checkout.invoice, chosen.method)?.chain_id,
              },
              local,
            ) === null;
          const view = viewOf(checkout, chosen.method, language, picked, simulate);
          const html =
            part === 'page'
              ? renderPage(view, assets.urls, options.refreshSeconds)
              : renderFragment(view);
          return { status: 200, body: Buffer.from(html) };
        };
        const { method = '' } = request.query;
        // A method not even of a code's shape is refused each time, never kept.
        if (typeof method !== 'string' || (method !== '' && !METHOD_CODE.test(method))) {
          return build();
        }
        return keptPage(
          ctx.changes,
          {
            key: `checkout:${part}:${id}:${method}:${language.code}:${picked ? 1 : 0}`,
            owner: app,
            now: ctx.clock().getTime(),
            until: () => Infinity,
          },
          build,
        );
      };

      pay.get<{ Params: Params; Querystring: Query }>('/:id', async (request, reply) =>
        sendPage(reply, await drawn(request, 'page')),
      );

      pay.get<{ Params: Params; Querystring: Query }>('/:id/fragment', async (request, reply) =>
        sendPage(reply, await drawn(request, 'fragment')),
      );

      pay.get<{ Params: Params; Querystring: Query }>('/:id/status', async (request, reply) => {
        const { id } = request.params;
        const app = await appOf(id);
        if (app === undefined) return statusNotFound(request, reply);
        // Polled every few seconds by a page whose stream failed: kept like the page. An invoice
        // gone (its app deleted) is kept as null until the app's rows change again.
        const status = await keptAnswer(
          ctx.changes,
          {
            key: `checkout:status:${id}`,
            owner: app,
            now: ctx.clock().getTime(),
            until: () => Infinity,
          },
          async () => {
            const checkout = await checkoutInvoice(ctx.db, id);
            return { status: checkout ? statusOf(checkout) : null };
          },
        );
        if (status.status === null) return statusNotFound(request, reply);
        return reply.headers(PAGE_HEADERS).send(status.status);
      });

      // Callback style: the answer is the raw stream, written until the shopper leaves.
      pay.get<{ Params: Params; Querystring: Query }>('/:id/events', async (request, reply) => {
        const { id } = request.params;
        const checkout = (await appOf(id)) ? await checkoutInvoice(ctx.db, id) : undefined;
        if (!checkout) return statusNotFound(request, reply);
        reply.hijack();
        const raw = reply.raw;
        const set = Object.entries(reply.getHeaders()).filter(
          (entry): entry is [string, string | number | string[]] => entry[1] !== undefined,
        );
        raw.writeHead(200, {
          ...Object.fromEntries(set),
          ...PAGE_HEADERS,
          'content-type': 'text/event-stream; charset=utf-8',
          // No proxy may hold the events back to fill a buffer.
          'x-accel-buffering': 'no',
        });
        const send = (status: ReturnType<typeof statusOf>) =>
          raw.write(`event: status\ndata: ${JSON.stringify(status)}\n\n`);
        raw.write('retry: 5000\n\n');
        send(statusOf(checkout));
        const unsubscribe = feed.subscribe(id, {
          status: send,
          ping: () => raw.write(': ping\n\n'),
        });
        streams.add(raw);
        request.raw.on('close', () => {
          unsubscribe();
          streams.delete(raw);
        });
        return reply;
      });

      pay.get<{ Params: { file: string } }>('/assets/:file', (request, reply) => {
        const file = assets.files.get(request.params.file);
        if (!file) return reply.code(404).send({ error: 'No such file.' });
        return reply
          .header('cache-control', 'public, max-age=31536000, immutable')
          .type(
            request.params.file.endsWith('.js')
              ? 'text/javascript; charset=utf-8'
              : 'text/css; charset=utf-8',
          )
          .send(file);
      });
    }),
    { prefix: CHECKOUT_PREFIX },
  );

  return feed;
}
