import { QRCodeSVG } from 'qrcode.react';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from './markup';
import type { CheckoutInvoice } from '../domain/invoices/checkout';
import { LANGUAGES, say, type Language, type MessageId, type Params } from './messages';
import {
  chosenOption,
  formatters,
  isLive,
  screenOf,
  stateKey,
  tokenStandard,
  type Formatters,
  type PaymentOption,
  type Screen,
} from './screens';

// The checkout page, drawn on the server: everything needed to pay is in the HTML, so it works
// with JavaScript off. The browser script (src/checkout/checkout.ts) only adds to it: copy
// buttons, the countdown, live status. The page's own markup has no inline script or style
// (its CSP allows neither), and the script swaps in the fragment this module draws for a state
// (the <main> element's content) when the state changes.

/** The built script and style sheet, by URL; absent when the checkout's assets are not built. */
export interface CheckoutAssets {
  script?: string;
  style?: string;
}

interface View {
  checkout: CheckoutInvoice;
  option: PaymentOption | undefined;
  screen: Screen;
  language: Language;
  /** Whether the shopper picked the language (`?lang=`): the page's links then carry it. */
  picked: boolean;
  format: Formatters;
  t: (id: MessageId, params?: Params) => string;
  /** A URL of this invoice's pages, with the picked language kept. */
  href: (path: string, query?: Record<string, string>) => string;
  /** A test invoice this server can pay on a local chain: its screens offer simulated payments. */
  simulate: boolean;
}

/** The site's icon (the portal's), so a browser does not ask for a /favicon.ico there is not. */
export const ICON = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';

/** Seconds a paid screen waits before it takes the shopper back to the merchant. */
export const REDIRECT_SECONDS = 5;

export function viewOf(
  checkout: CheckoutInvoice,
  method: string | undefined,
  language: Language,
  picked = false,
  simulate = false,
): View {
  const option = chosenOption(checkout.invoice, method);
  return {
    checkout,
    option,
    screen: screenOf(checkout.invoice, option),
    language,
    picked,
    format: formatters(language),
    t: (id, params) => say(language, id, params),
    href: (path, query = {}) =>
      withQuery(`/pay/${checkout.invoice.id}${path}`, {
        ...query,
        ...(picked ? { lang: language.code } : {}),
      }),
    simulate,
  };
}

/** `path` with `query` (empty values left out). */
export function withQuery(path: string, query: Record<string, string>): string {
  const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== ''));
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** `text` safe inside HTML text and attribute values. */
export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);

/** Seconds between a live page's reloads without JavaScript (CHECKOUT_REFRESH_SECONDS). */
const REFRESH_SECONDS = 15;

/** The whole page for `view`. */
export function renderPage(
  view: View,
  assets: CheckoutAssets,
  refreshSeconds = REFRESH_SECONDS,
): string {
  const { t, checkout, screen } = view;
  const redirect = checkout.invoice.redirect_url;
  // Without JavaScript the page reloads itself while its state can still change, and a paid
  // page takes the shopper back; the script does both itself, so they sit in <noscript>.
  const noscript = isLive(screen)
    ? `<noscript><meta http-equiv="refresh" content="${refreshSeconds}"></noscript>`
    : screen === 'paid' && redirect !== null
      ? `<noscript><meta http-equiv="refresh" content="${REDIRECT_SECONDS};url=${escape(redirect)}"></noscript>`
      : '';
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<meta name="referrer" content="no-referrer">',
    ICON,
    noscript,
    `<title>${escape(`${headingOf(view)} · ${t('page.title', { app: checkout.appName })}`)}</title>`,
    assets.style ? `<link rel="stylesheet" href="${assets.style}">` : '',
    assets.script ? `<script src="${assets.script}" defer></script>` : '',
  ].join('');
  return `<!doctype html><html lang="${view.language.code}" dir="${view.language.dir}"><head>${head}</head><body>${renderToStaticMarkup(<Body view={view} />)}</body></html>`;
}

/** What the script swaps in on a change of state: the <main> element's content. */
export function renderFragment(view: View): string {
  return renderToStaticMarkup(<ScreenSection view={view} />);
}

/** A page with no invoice behind it: not found, a method not offered, too many requests. */
export function renderMessagePage(
  language: Language,
  heading: MessageId,
  text: MessageId,
  options: {
    params?: Params;
    assets: CheckoutAssets;
    /** A way on: its label a message id. */
    link?: { href: string; label: MessageId } | undefined;
    /** The page's own path, for the language picker's links. */
    path: string;
  },
): string {
  const { params = {}, assets, link, path } = options;
  const t = (id: MessageId) => say(language, id, params);
  const body = renderToStaticMarkup(
    <div className="shell">
      <main id="checkout" tabIndex={-1}>
        <section className="screen screen-message">
          <h1>{t(heading)}</h1>
          <p>{t(text)}</p>
          {link ? (
            <p>
              <a href={link.href}>{t(link.label)}</a>
            </p>
          ) : null}
        </section>
      </main>
      <footer className="invoice-facts">
        <LanguagePicker language={language} hrefOf={(code) => withQuery(path, { lang: code })} />
      </footer>
    </div>,
  );
  return [
    `<!doctype html><html lang="${language.code}" dir="${language.dir}"><head>`,
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">',
    ICON,
    `<title>${escape(t(heading))}</title>`,
    assets.style ? `<link rel="stylesheet" href="${assets.style}">` : '',
    `</head><body>${body}</body></html>`,
  ].join('');
}

function headingOf(view: View): string {
  const { t, screen, option, checkout, format } = view;
  const asset = option ? (checkout.methods.get(option.method)?.asset ?? '') : '';
  switch (screen) {
    case 'pick':
      return t('pick.heading');
    case 'waiting':
      return t('waiting.heading', { amount: format.token(option?.amount_due ?? '0'), asset });
    case 'partial':
      return t('partial.heading', { due: format.token(option?.due ?? '0'), asset });
    case 'seen':
      return t('seen.heading');
    case 'paid':
      return t('paid.heading');
    case 'expired':
      return t('expired.heading');
    case 'expired_partial':
      return t('expired.partialHeading');
    case 'late':
      return t('late.heading');
    case 'invalid':
      return t('invalid.heading');
  }
}

function Body({ view }: { view: View }) {
  const { t, checkout } = view;
  const { invoice } = checkout;
  return (
    <div className="shell">
      {checkout.livemode ? null : <TestModeBanner language={view.language} />}
      <MerchantHeader label={t('merchant.label')} name={checkout.appName} logo={checkout.appLogo} />
      <main
        id="checkout"
        tabIndex={-1}
        data-invoice={invoice.id}
        data-fragment={view.href('/fragment', { method: view.option?.method ?? '' })}
        data-copied={t('copy.done')}
        data-left={t('expiry.left')}
        data-minutes={t('expiry.minutes')}
        data-minute={t('expiry.minute')}
        data-seconds={t('expiry.seconds')}
        data-over={t('expiry.over')}
      >
        <ScreenSection view={view} />
      </main>
      <div id="announcer" className="visually-hidden" aria-live="polite" aria-atomic="true" />
      <footer className="invoice-facts">
        {invoice.description !== null ? (
          <p>
            {t('invoice.description')}
            {t('punctuation.colon')}
            {invoice.description}
          </p>
        ) : null}
        <p>{t('invoice.number', { id: invoice.id })}</p>
        <LanguagePicker
          language={view.language}
          hrefOf={(code) =>
            withQuery(`/pay/${invoice.id}`, { method: view.option?.method ?? '', lang: code })
          }
        />
      </footer>
    </div>
  );
}

/**
 * The languages as plain links (`?lang=`), so a shopper changes language without JavaScript;
 * each name in its own language, and its own `lang` for screen readers.
 */
export function LanguagePicker({
  language,
  hrefOf,
}: {
  language: Language;
  hrefOf: (code: string) => string;
}) {
  return (
    <details className="languages">
      <summary>
        {say(language, 'language.label')}
        {say(language, 'punctuation.colon')}
        {language.name}
      </summary>
      <ul>
        {LANGUAGES.map((l) => (
          <li key={l.code}>
            <a
              href={hrefOf(l.code)}
              lang={l.code}
              hrefLang={l.code}
              {...(l.code === language.code ? { 'aria-current': 'true' } : {})}
            >
              {l.name}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * A test app's page says, before anything else and on every screen, that no real money moves:
 * a stripe that stays at the top as the page scrolls. A status (not an alert): it is there from
 * the start, read in its place, never announced over what the page says next.
 */
export function TestModeBanner({ language }: { language: Language }) {
  return (
    <p className="test-mode" role="status">
      {say(language, 'test.banner')}
    </p>
  );
}

/** The side, in CSS pixels, the header draws a logo at (checkout.css `.logo`). */
export const LOGO_SIZE = 40;

/** Where the portal's image route serves a stored picture (getImage, public for a logo). */
const imagePath = (file: string) => `/api/images/${encodeURIComponent(file)}`;

/**
 * The merchant: the app's logo, or its initial when it has none, beside its name. The logo is
 * decorative (the name says who it is), and its width and height are set so the header keeps its
 * place while it loads.
 */
export function MerchantHeader({
  label,
  name,
  logo,
}: {
  label: string;
  name: string;
  logo: string | null;
}) {
  return (
    <header className="merchant">
      {logo !== null ? (
        <img
          className="logo logo-image"
          src={imagePath(logo)}
          alt=""
          width={LOGO_SIZE}
          height={LOGO_SIZE}
        />
      ) : (
        <span className="logo" aria-hidden="true">
          {monogram(name)}
        </span>
      )}
      <p>
        <span className="merchant-label">{label}</span>{' '}
        <span className="merchant-name">{name}</span>
      </p>
    </header>
  );
}

/** The app's initial: it stands for the app when the app has no logo. */
function monogram(name: string): string {
  return (Array.from(name.trim())[0] ?? '?').toUpperCase();
}

/** One state's screen; its data-* attributes tell the script what it shows. */
function ScreenSection({ view }: { view: View }) {
  const { screen, checkout } = view;
  const redirect = screen === 'paid' ? checkout.invoice.redirect_url : null;
  return (
    <section
      className={`screen screen-${screen}`}
      data-screen={screen}
      data-key={stateKey(checkout.invoice)}
      data-live={isLive(screen) ? 'true' : 'false'}
      {...(redirect !== null ? { 'data-redirect': redirect } : {})}
    >
      <h1 tabIndex={-1}>{headingOf(view)}</h1>
      <ScreenBody view={view} />
      <SimulateForm view={view} />
    </section>
  );
}

function ScreenBody({ view }: { view: View }): ReactNode {
  const { screen, option } = view;
  switch (screen) {
    case 'pick':
      return <Picker view={view} />;
    case 'waiting':
    case 'partial':
      return option ? <PayPanel view={view} option={option} /> : <Picker view={view} />;
    case 'seen':
      return <Seen view={view} />;
    case 'paid':
      return <Paid view={view} />;
    case 'expired':
    case 'expired_partial':
      return <Expired view={view} />;
    case 'late':
      return <Late view={view} />;
    case 'invalid':
      return <Invalid view={view} />;
  }
}

/** The scenarios a screen offers: what is due in full, half of it, more than it; once paid, more. */
const SIMULATIONS: Partial<Record<Screen, readonly ('full' | 'partial' | 'over')[]>> = {
  waiting: ['full', 'partial', 'over'],
  partial: ['full', 'partial', 'over'],
  seen: ['over'],
};

/**
 * A test invoice's buttons that pay it with a simulated transfer (POST /pay/{id}/simulate, a
 * plain form, so no script is needed): in the chosen method, on the screens that can take one.
 */
function SimulateForm({ view }: { view: View }) {
  const { t, option, screen } = view;
  const scenarios = SIMULATIONS[screen];
  if (!view.simulate || !option || !scenarios) return null;
  return (
    <form className="simulate" method="post" action={view.href('/simulate')}>
      <fieldset>
        <legend>{t('test.heading')}</legend>
        <p>{t('test.note')}</p>
        <input type="hidden" name="method" value={option.method} />
        <p className="simulate-buttons">
          {scenarios.map((scenario) => (
            <button key={scenario} type="submit" name="scenario" value={scenario}>
              {t(`test.${scenario}`)}
            </button>
          ))}
        </p>
      </fieldset>
    </form>
  );
}

function Picker({ view }: { view: View }) {
  const { t, checkout, format } = view;
  const { invoice } = checkout;
  return (
    <>
      <p>{t('pick.intro')}</p>
      <p className="total">
        {t('amount.fiat')}
        {t('punctuation.colon')}
        <strong>{format.money(invoice.amount, invoice.currency)}</strong>
      </p>
      <ul className="methods">
        {invoice.payment_options.map((o) => {
          const method = checkout.methods.get(o.method);
          const asset = method?.asset ?? o.method;
          return (
            <li key={o.method}>
              <a href={view.href('', { method: o.method })}>
                <span className="method-name">
                  {t('pick.option', { asset, network: method?.network ?? '' })}
                </span>
                <span className="method-amount">
                  {t('pick.amount', { amount: format.token(o.due), asset })}
                </span>
              </a>
            </li>
          );
        })}
      </ul>
    </>
  );
}

function PayPanel({ view, option }: { view: View; option: PaymentOption }) {
  const { t, checkout, format, screen } = view;
  const { invoice } = checkout;
  const method = checkout.methods.get(option.method);
  const asset = method?.asset ?? option.method;
  const network = method?.network ?? '';
  const standard = tokenStandard(option);
  const due = screen === 'partial' ? option.due : option.amount_due;
  const uri = checkout.dueUris.get(option.method) ?? null;
  const qrValue = uri ?? option.address;
  return (
    <>
      <p className="status" data-announce="">
        {screen === 'partial'
          ? t('partial.status', {
              paid: format.token(option.paid),
              due: format.token(option.due),
              asset,
            })
          : t('waiting.status')}
      </p>
      <p className="warning">
        <strong>
          {standard
            ? t('network.warning', { asset, network, standard })
            : t('network.warningPlain', { asset, network })}
        </strong>
      </p>
      <div className="pay">
        <figure className="qr">
          <QRCodeSVG
            value={qrValue}
            size={208}
            marginSize={2}
            title={t('address.qr', {
              amount: format.token(due),
              asset,
              network,
              address: option.address,
            })}
          />
          <figcaption>{t('address.scanOrCopy')}</figcaption>
        </figure>
        <dl className="facts">
          <div>
            <dt>{t('amount.token')}</dt>
            <dd>
              <span className="amount" dir="ltr">
                {format.token(due)} {asset}
              </span>
              <button type="button" className="copy" data-copy={due} hidden>
                {t('copy.amount')}
              </button>
            </dd>
          </div>
          <div>
            <dt>{t('address.heading')}</dt>
            <dd>
              <code className="address" dir="ltr">
                {option.address}
              </code>
              <button type="button" className="copy" data-copy={option.address} hidden>
                {t('copy.address')}
              </button>
            </dd>
          </div>
          <div>
            <dt>{t('network.heading')}</dt>
            <dd>{t('network.value', { network, chainId: option.chain_id })}</dd>
          </div>
          <div>
            <dt>{t('network.token')}</dt>
            <dd>
              {option.token_contract !== null ? (
                <code className="address" dir="ltr">
                  {option.token_contract}
                </code>
              ) : (
                t('network.coin')
              )}
            </dd>
          </div>
          <div>
            <dt>{t('amount.fiat')}</dt>
            <dd>{format.money(invoice.amount, invoice.currency)}</dd>
          </div>
          {screen === 'partial' ? (
            <div>
              <dt>{t('amount.paid')}</dt>
              <dd>{format.money(invoice.paid, invoice.currency)}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('amount.rate')}</dt>
            <dd>
              {/* Isolated: a sentence of symbols and digits keeps its order in a right-to-left page. */}
              <bdi>
                {t('amount.rateValue', {
                  asset,
                  rate: format.rate(option.rate),
                  currency: invoice.currency,
                })}
              </bdi>
            </dd>
          </div>
          <div>
            <dt>{t('expiry.label')}</dt>
            <dd>
              <time dateTime={invoice.expires_at}>{format.time(invoice.expires_at)}</time>
              <span className="countdown" data-expires={invoice.expires_at} hidden />
            </dd>
          </div>
        </dl>
      </div>
      {uri !== null ? (
        <p>
          <a className="button" href={uri}>
            {t('address.open')}
          </a>
        </p>
      ) : null}
      {invoice.payment_options.length > 1 && screen === 'waiting' ? (
        <p>
          <a href={view.href('')}>{t('pick.change')}</a>
        </p>
      ) : null}
    </>
  );
}

/** The payments that count, each with its method's asset and confirmations needed. */
function countedPayments(view: View) {
  const { checkout } = view;
  return checkout.invoice.payments
    .filter((p) => p.status !== 'removed')
    .map((p) => {
      const method = checkout.methods.get(p.method);
      return {
        ...p,
        asset: method?.asset ?? p.method,
        required: method?.confirmations ?? 0,
      };
    });
}

function Seen({ view }: { view: View }) {
  const { t, format } = view;
  const payments = countedPayments(view);
  return (
    <>
      <ul className="payments" data-announce="">
        {payments.map((p) => {
          const confirmations = Math.min(p.confirmations, p.required);
          const text = t('seen.status', {
            paid: format.token(p.amount),
            asset: p.asset,
            confirmations,
            required: p.required,
          });
          return (
            <li key={`${p.tx_hash}:${p.log_index ?? ''}`}>
              <span>{text}</span>
              <progress value={confirmations} max={Math.max(p.required, 1)} aria-label={text} />
            </li>
          );
        })}
      </ul>
      <LateAndOver view={view} />
      <p>{t('seen.next')}</p>
    </>
  );
}

function LateAndOver({ view }: { view: View }) {
  const { t, checkout, format } = view;
  const { invoice } = checkout;
  const over = invoice.overpaid;
  return (
    <>
      {invoice.exceptions.includes('paid_late') ? <p>{t('paid.late')}</p> : null}
      {over !== null ? (
        <p>
          {t('paid.over', {
            amount: format.token(over.amount),
            asset: checkout.methods.get(over.method)?.asset ?? over.method,
            app: checkout.appName,
          })}
        </p>
      ) : null}
    </>
  );
}

function Paid({ view }: { view: View }) {
  const { t, checkout } = view;
  const app = checkout.appName;
  const redirect = checkout.invoice.redirect_url;
  return (
    <>
      <p className="status" data-announce="">
        {t('paid.status', { app })}
      </p>
      <LateAndOver view={view} />
      {redirect !== null ? (
        <>
          <p>{t('paid.redirect', { app })}</p>
          <p>
            <a className="button" href={redirect}>
              {t('paid.return', { app })}
            </a>
          </p>
        </>
      ) : (
        <p>{t('paid.close')}</p>
      )}
    </>
  );
}

/** What was paid in the asset of the payments (their first one's). */
function paidInAsset(view: View): { paid: string; asset: string; amount: string } {
  const { checkout, format } = view;
  const payments = countedPayments(view);
  const first = payments[0];
  const option = checkout.invoice.payment_options.find((o) => o.method === first?.method);
  return {
    paid: format.token(option?.paid ?? '0'),
    asset: first?.asset ?? '',
    amount: format.token(option?.amount_due ?? '0'),
  };
}

function BackLink({ view, label }: { view: View; label: MessageId }) {
  const redirect = view.checkout.invoice.redirect_url;
  if (redirect === null) return null;
  return (
    <p>
      <a href={redirect}>{view.t(label, { app: view.checkout.appName })}</a>
    </p>
  );
}

function Expired({ view }: { view: View }) {
  const { t, checkout, screen } = view;
  const app = checkout.appName;
  if (screen === 'expired') {
    return (
      <>
        <p className="status" data-announce="">
          {t('expired.nothing')}
        </p>
        <p>{t('expired.again', { app })}</p>
        <BackLink view={view} label="expired.back" />
      </>
    );
  }
  return (
    <>
      <p className="status" data-announce="">
        {t('expired.partial', paidInAsset(view))}
      </p>
      <p>{t('expired.partialNext', { app })}</p>
      <BackLink view={view} label="expired.back" />
    </>
  );
}

function Late({ view }: { view: View }) {
  const { t, checkout } = view;
  return (
    <>
      <p className="status" data-announce="">
        {t('late.status', paidInAsset(view))}
      </p>
      <p>{t('late.next', { app: checkout.appName })}</p>
      <BackLink view={view} label="expired.back" />
    </>
  );
}

function Invalid({ view }: { view: View }) {
  const { t, checkout } = view;
  return (
    <>
      <p className="status" data-announce="">
        {t('invalid.status', { app: checkout.appName })}
      </p>
      <BackLink view={view} label="expired.back" />
    </>
  );
}
