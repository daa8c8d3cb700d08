import { renderToStaticMarkup } from './markup';
import type { RefundStatus } from '../db/schema';
import type { ClaimState, RefundClaim } from '../domain/refunds/claims';
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

// A refund's claim page, `/refund/<token>`, drawn on the server: the app's name and logo, the
// amount and token, the network by name and chain id, the merchant's reason, and while the link
// is open a plain form for the shopper's address with the warning about exchanges and networks
// and a confirmation to tick, so it works without JavaScript and runs none (the checkout's CSP,
// no script at all). Once claimed it shows the address and where the refund stands, and no form;
// an expired or cancelled link says so. A refused claim draws the page again with the sentence
// next to its field and what was typed kept.

/** What the page says next to a field when the claim was refused. */
export interface ClaimRefusal {
  field: 'address' | 'confirm';
  id: MessageId;
}

export interface ClaimPageView {
  claim: RefundClaim;
  token: string;
  language: Language;
  /** Whether the shopper picked the language: the form and the links then carry it. */
  picked: boolean;
  /** What the shopper typed, drawn again with its refusal. */
  typed?: string;
  refusal?: ClaimRefusal;
  /** A claim posted once the refund was claimed already: said above what it shows. */
  alreadyClaimed?: boolean;
}

/** The path of a claim link's page. */
export const claimPath = (token: string) => `/refund/${token}`;

/** The sentence of a claimed refund's status. */
const STATUS: Partial<Record<RefundStatus, MessageId>> = {
  awaiting_funds: 'refund.statusQueued',
  queued: 'refund.statusQueued',
  processing: 'refund.statusSending',
  completed: 'refund.statusSent',
  failed: 'refund.statusFailed',
};

function headingOf(state: ClaimState): MessageId {
  switch (state.kind) {
    case 'open':
      return 'refund.heading';
    case 'claimed':
    case 'failed':
      return 'refund.claimedHeading';
    case 'completed':
      return 'refund.sentHeading';
    case 'expired':
      return 'refund.expiredHeading';
    case 'cancelled':
      return 'refund.cancelledHeading';
  }
}

/** The whole page. */
export function renderClaimPage(view: ClaimPageView, assets: CheckoutAssets): string {
  const { claim, language } = view;
  const t = (id: MessageId, params?: Params) => say(language, id, params);
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<meta name="referrer" content="no-referrer">',
    ICON,
    `<title>${escape(`${t(headingOf(claim.state))} · ${t('refund.title', { app: claim.appName })}`)}</title>`,
    assets.style ? `<link rel="stylesheet" href="${assets.style}">` : '',
  ].join('');
  return `<!doctype html><html lang="${language.code}" dir="${language.dir}"><head>${head}</head><body>${renderToStaticMarkup(<ClaimBody view={view} />)}</body></html>`;
}

function ClaimBody({ view }: { view: ClaimPageView }) {
  const { claim, language } = view;
  const t = (id: MessageId, params?: Params) => say(language, id, params);
  const { state } = claim;
  return (
    <div className="shell">
      {claim.livemode ? null : <TestModeBanner language={language} />}
      <MerchantHeader label={t('refund.merchantLabel')} name={claim.appName} logo={claim.appLogo} />
      <main id="checkout" tabIndex={-1}>
        <section className={`screen screen-refund-${state.kind}`}>
          <h1>{t(headingOf(state))}</h1>
          {state.kind === 'open' ? (
            <>
              <p>{t('refund.intro', { app: claim.appName })}</p>
              <Facts view={view} />
              <ClaimForm view={view} />
            </>
          ) : state.kind === 'expired' || state.kind === 'cancelled' ? (
            <>
              <p className="status">
                {state.kind === 'expired'
                  ? t('refund.expired', { app: claim.appName })
                  : t('refund.cancelled', { app: claim.appName })}
              </p>
              <Facts view={view} />
            </>
          ) : (
            <>
              {view.alreadyClaimed ? (
                <p className="field-error" role="alert">
                  {t('refund.alreadyClaimed')}
                </p>
              ) : null}
              <Facts view={view} />
              <Claimed view={view} state={state} />
            </>
          )}
        </section>
      </main>
      <footer className="invoice-facts">
        <LanguagePicker
          language={language}
          hrefOf={(code) => withQuery(claimPath(view.token), { lang: code })}
        />
      </footer>
    </div>
  );
}

/** The refund's facts: amount and token, network, the merchant's reason, the link's expiry. */
function Facts({ view }: { view: ClaimPageView }) {
  const { claim, language } = view;
  const t = (id: MessageId, params?: Params) => say(language, id, params);
  const format = formatters(language);
  return (
    <dl className="facts">
      <div>
        <dt>{t('refund.amount')}</dt>
        <dd>
          <span className="amount" dir="ltr">
            {format.token(claim.amount)} {claim.asset}
          </span>
        </dd>
      </div>
      <div>
        <dt>{t('refund.token')}</dt>
        <dd>
          <code dir="ltr">{claim.method}</code>
        </dd>
      </div>
      <div>
        <dt>{t('network.heading')}</dt>
        <dd>{t('network.value', { network: claim.network, chainId: claim.chainId })}</dd>
      </div>
      <div>
        <dt>{t('refund.reason')}</dt>
        {/* The merchant's words, in their own language and direction. */}
        <dd>
          <bdi>{claim.reason}</bdi>
        </dd>
      </div>
      {claim.state.kind === 'open' || claim.state.kind === 'expired' ? (
        claim.expiresAt !== null ? (
          <div>
            <dt>{t('refund.until')}</dt>
            <dd>
              <time dateTime={claim.expiresAt}>{format.time(claim.expiresAt)}</time>
            </dd>
          </div>
        ) : null
      ) : null}
    </dl>
  );
}

/** The shopper's address, the warning, the confirmation and the button, in a plain form. */
function ClaimForm({ view }: { view: ClaimPageView }) {
  const { claim, language, refusal } = view;
  const t = (id: MessageId, params?: Params) => say(language, id, params);
  const values = { asset: claim.asset, network: claim.network, app: claim.appName };
  const addressRefused = refusal?.field === 'address';
  const confirmRefused = refusal?.field === 'confirm';
  return (
    <form method="post" action={claimPath(view.token)}>
      <div className="field">
        <p>
          <label htmlFor="address">{t('refund.addressLabel', values)}</label>
        </p>
        <p>
          <input
            id="address"
            name="address"
            type="text"
            required
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            dir="ltr"
            defaultValue={view.typed ?? ''}
            aria-describedby={addressRefused ? 'address-error address-warning' : 'address-warning'}
            {...(addressRefused ? { 'aria-invalid': true } : {})}
          />
        </p>
        {addressRefused ? (
          <p id="address-error" className="field-error">
            {t(refusal.id, values)}
          </p>
        ) : null}
      </div>
      <p id="address-warning" className="warning">
        <strong>{t('refund.warning', values)}</strong>
      </p>
      <p>
        <input
          id="confirm"
          name="confirm"
          type="checkbox"
          value="yes"
          required
          {...(confirmRefused ? { 'aria-invalid': true, 'aria-describedby': 'confirm-error' } : {})}
        />{' '}
        <label htmlFor="confirm">{t('refund.confirm', values)}</label>
      </p>
      {confirmRefused ? (
        <p id="confirm-error" className="field-error">
          {t(refusal.id, values)}
        </p>
      ) : null}
      {view.picked ? <input type="hidden" name="lang" value={language.code} /> : null}
      <p>{t('refund.final')}</p>
      <p>
        <button type="submit" className="button">
          {t('refund.submit')}
        </button>
      </p>
    </form>
  );
}

/** Where a claimed refund goes and where it stands. */
function Claimed({
  view,
  state,
}: {
  view: ClaimPageView;
  state: Extract<ClaimState, { address: string }>;
}) {
  const { claim, language } = view;
  const t = (id: MessageId, params?: Params) => say(language, id, params);
  const status = STATUS[state.status] ?? 'refund.statusQueued';
  return (
    <>
      <dl className="facts">
        <div>
          <dt>{t('address.heading')}</dt>
          <dd>
            <code className="address" dir="ltr">
              {state.address}
            </code>
          </dd>
        </div>
        <div>
          <dt>{t('refund.status')}</dt>
          <dd className="status">{t(status, { app: claim.appName })}</dd>
        </div>
        {state.txHash !== null ? (
          <div>
            <dt>{t('refund.txHash')}</dt>
            <dd>
              <code className="address" dir="ltr">
                {state.txHash}
              </code>
            </dd>
          </div>
        ) : null}
      </dl>
      <p>{t('refund.close')}</p>
    </>
  );
}
