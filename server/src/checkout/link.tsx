import { renderToStaticMarkup } from './markup';
import type { PublicPaymentLink } from '../domain/paymentLinks/paymentLinks';
import { say, type Language, type MessageId, type Params } from './messages';
import {
  escape,
  ICON,
  LanguagePicker,
  MerchantHeader,
  TestModeBanner,
  withQuery,
  type CheckoutAssets,
} from './page';
import { formatters } from './screens';

// A payment link's page, `/l/<slug>`, drawn on the server: the app's name and logo, the link's
// title and description, its price or a field for the shopper's amount, and one "Pay" button in a
// plain form, so it works without JavaScript and runs none (the checkout's CSP, no script at all).
// The form carries the visit's token, which makes one invoice of however many posts of it, and
// the language when the shopper picked one.

/** What the page says under the amount field when the amount was refused. */
export interface AmountRefusal {
  id: MessageId;
  params?: Params;
}

export interface LinkPageView {
  found: PublicPaymentLink;
  language: Language;
  /** Whether the shopper picked the language: the form then carries it. */
  picked: boolean;
  /** The visit's token, kept when the page is drawn again for a refused amount. */
  visit: string;
  /** What the shopper typed, drawn again with its refusal. */
  typed?: string;
  refusal?: AmountRefusal;
}

/** The path of the link's page. */
const linkPath = (slug: string) => `/l/${slug}`;

/** The whole page. */
export function renderLinkPage(view: LinkPageView, assets: CheckoutAssets): string {
  const { found, language } = view;
  const t = (id: MessageId, params?: Params) => say(language, id, params);
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<meta name="referrer" content="no-referrer">',
    ICON,
    `<title>${escape(`${found.link.title} · ${t('page.title', { app: found.appName })}`)}</title>`,
    assets.style ? `<link rel="stylesheet" href="${assets.style}">` : '',
  ].join('');
  return `<!doctype html><html lang="${language.code}" dir="${language.dir}"><head>${head}</head><body>${renderToStaticMarkup(<LinkBody view={view} />)}</body></html>`;
}

function LinkBody({ view }: { view: LinkPageView }) {
  const { found, language } = view;
  const { link } = found;
  const t = (id: MessageId, params?: Params) => say(language, id, params);
  const format = formatters(language);
  return (
    <div className="shell">
      {found.livemode ? null : <TestModeBanner language={language} />}
      <MerchantHeader label={t('merchant.label')} name={found.appName} logo={found.appLogo} />
      <main id="checkout" tabIndex={-1}>
        <section className="screen screen-link">
          <h1>{link.title}</h1>
          {link.description !== null ? <p>{link.description}</p> : null}
          <form method="post" action={linkPath(link.slug)}>
            {link.amount !== null ? (
              <p className="total">
                {t('link.amount')}
                {t('punctuation.colon')}
                <strong>{format.money(link.amount, link.currency)}</strong>
              </p>
            ) : (
              <AmountField view={view} />
            )}
            <input type="hidden" name="visit" value={view.visit} />
            {view.picked ? <input type="hidden" name="lang" value={language.code} /> : null}
            <p>
              <button type="submit" className="button">
                {t('link.pay')}
              </button>
            </p>
            <p>{t('link.next')}</p>
          </form>
          {link.expires_at !== null ? (
            <p>{t('link.until', { date: format.time(new Date(link.expires_at).toISOString()) })}</p>
          ) : null}
        </section>
      </main>
      <footer className="invoice-facts">
        <LanguagePicker
          language={language}
          hrefOf={(code) => withQuery(linkPath(link.slug), { lang: code })}
        />
      </footer>
    </div>
  );
}

/** The shopper's amount: its label, the range it may be in, and its refusal when there is one. */
function AmountField({ view }: { view: LinkPageView }) {
  const { link } = view.found;
  const t = (id: MessageId, params?: Params) => say(view.language, id, params);
  const money = (value: string) => formatters(view.language).money(value, link.currency);
  const range =
    link.amount_min !== null && link.amount_max !== null
      ? t('link.range', { min: money(link.amount_min), max: money(link.amount_max) })
      : link.amount_min !== null
        ? t('link.rangeMin', { min: money(link.amount_min) })
        : link.amount_max !== null
          ? t('link.rangeMax', { max: money(link.amount_max) })
          : undefined;
  const described = [
    ...(view.refusal ? ['amount-error'] : []),
    ...(range !== undefined ? ['amount-range'] : []),
  ].join(' ');
  return (
    <div className="field">
      <p>
        <label htmlFor="amount">{t('link.amountLabel', { currency: link.currency })}</label>
      </p>
      <p>
        <input
          id="amount"
          name="amount"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={view.typed ?? ''}
          {...(described !== '' ? { 'aria-describedby': described } : {})}
          {...(view.refusal ? { 'aria-invalid': true } : {})}
        />
      </p>
      {view.refusal ? (
        <p id="amount-error" className="field-error">
          {t(view.refusal.id, view.refusal.params)}
        </p>
      ) : null}
      {range !== undefined ? <p id="amount-range">{range}</p> : null}
    </div>
  );
}
