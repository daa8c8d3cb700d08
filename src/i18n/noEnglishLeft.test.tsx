import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  makeApp,
  makeAppDetails,
  makePage,
  makeReceive,
  makeSend,
  makeUsedMethod,
} from '../../test/factories/apps';
import { makeProfile } from '../../test/factories/auth';
import { makeDashboard, makeTransaction } from '../../test/factories/dashboard';
import { makeDocTypes, makeUpload } from '../../test/factories/kyc';
import { makeInvoice, makeInvoiceDetails, makePartInvoice } from '../../test/factories/invoices';
import { makePaymentLink, makePaymentLinkDetails } from '../../test/factories/paymentLinks';
import {
  makeCompletedRefund,
  makeOverpaidInvoice,
  makeRefund,
  makeRefundPreview,
} from '../../test/factories/refunds';
import {
  BUSINESS,
  ENTERPRISE,
  makeCurrent,
  makeQuote,
  PACKAGES,
  STARTER,
} from '../../test/factories/subscriptions';
import { reply } from '../../test/msw/contract';
import { server } from '../../test/msw/server';
import { renderRoute, SIGNED_IN } from '../../test/renderWithProviders';
import { renderPublic } from '../features/auth/testing/renderPublic';
import { formatCoinTotal } from '../lib/format';
import authEn from './catalogues/auth/en.json';
import portalEn from './catalogues/portal/en.json';
import publicEn from './catalogues/public/en.json';
import { t } from './i18n';
import { changeLanguage } from './language';
import { LANGUAGES, type LanguageCode } from './languages';
import type { MessageKey } from './i18n';

// Each converted screen, drawn in the languages written in another script, shows no English: no
// text or accessible name is an English message that the language translates, and no Latin word
// is left but the spec's proper names and codes and the account's own data. Those two languages
// find all that a Latin-script one would (a string left in English, a status shown as the server
// names it, a date in English) and more; what only a Latin-script language could show, a message
// its catalogue lacks or leaves in English, catalogues.test.ts finds for every language. Drawing
// every screen in all seven took two minutes of the suite for nothing more.

jest.setTimeout(30_000);

const ENGLISH = { ...publicEn, ...authEn, ...portalEn } as Record<MessageKey, string>;
const KEYS = Object.keys(ENGLISH) as MessageKey[];

/** The test account's app, with nothing but names in its own words. */
const APP = makeApp({
  id: 'app_1',
  app_name: 'Shop Checkout',
  info: '',
  project_url: 'example.com',
  status: 1,
});

/** The screen at `route` for the signed-in test account, its shell and all. */
function renderSignedIn(route: string) {
  return renderRoute(route, {
    session: { ...SIGNED_IN, profile: makeProfile(), apps: [APP] },
  });
}

/** Proper names, codes and the test account's data, the same in every language. */
const NAMES = new Set([
  'CryptoSafeLock',
  'DeFi',
  'USDT',
  'BEP',
  'USD',
  'EUR',
  'PIN',
  'OTP',
  'Alt',
  // The spec's name of the wallet's network, the networks it warns of, and the export's format.
  'Binance',
  'smart',
  'chain',
  'ERC',
  'TRC',
  'CSV',
  // The gateway's terms, the support sample's network, the picture formats.
  'API',
  'IPN',
  'BNB',
  'Smart',
  'Chain',
  'JPG',
  'JPEG',
  'PNG',
  'Google',
  'Authenticator',
  // The webhooks' protocol: its method, its standard's name and its headers.
  'POST',
  'Standard',
  'Webhooks',
  'webhook',
  'timestamp',
  'signature',
  // The IP whitelist's address kinds, and the parts of the example URLs the fields show.
  'IPv',
  'CIDR',
  'https',
  // An IPN delivery's answer, and the scheme a redirect URL takes.
  'HTTP',
  'http',
  // The currencies, coins and tokens an invoice may be priced in.
  'GBP',
  'INR',
  'JPY',
  'CAD',
  'AUD',
  'CHF',
  'USDC',
  'ETH',
  'POL',
]);
const ACCOUNT = new Set([
  'Demo',
  'Merchant',
  'demo',
  'example',
  'com',
  'Shop',
  'Checkout',
  // The example redirect URL of a payment link.
  'shop',
  'thanks',
  'Game',
  'Payouts',
  // The packages' names, as the operator named them, and an invoice's number.
  'Starter',
  'Business',
  'Enterprise',
  'INV',
  // An API log's route.
  'gateway',
  'addresses',
  // The payment methods' and networks' names, and a customer's id.
  'TRX',
  'Tron',
  'CUST',
  // An API key's name.
  'server',
  // The operator's document types and names.
  'Identity',
  'Proof',
  'Aadhar',
  'Card',
  'Passport',
  'Driving',
  'License',
  'Voter',
  'PAN',
]);

/**
 * What a reader meets in `root`: its texts and the names and hints its elements carry, but for
 * what is marked as written in another language (the pickers name each language in its own) and
 * the test's own probe of the URL.
 */
function shown(root: Element, language: LanguageCode): string[] {
  // react-toastify names its close button and timer bar itself, in English, with no option to
  // change it: left out here, and listed as left in docs/decisions.md (Languages).
  const inPage = (element: Element | null) =>
    !element?.closest(
      `[lang]:not([lang="${language}"]), [data-testid="location"], .Toastify__close-button, .Toastify__progress-bar`,
    );
  const texts: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim();
    if (text && inPage(node.parentElement)) texts.push(text);
  }
  for (const element of root.querySelectorAll('[aria-label], [placeholder], [title], [alt]')) {
    for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
      const value = element.getAttribute(name)?.trim();
      if (value && inPage(element)) texts.push(value);
    }
  }
  return texts;
}

/** A copy of `root` without the parts that show data: codes, payloads, the server's names. */
function without(root: Element, selectors: string): Element {
  const copy = root.cloneNode(true) as Element;
  copy.querySelectorAll(selectors).forEach((part) => part.remove());
  return copy;
}

function expectNoEnglish(root: Element, language: (typeof OTHER_SCRIPTS)[number]) {
  // The English messages this language writes otherwise (those without values to fill in),
  // but for a word that is also one of its own messages (Vietnamese 'In', Print, is the
  // English refund form's 'In').
  const own = new Set(KEYS.map((key) => t(key)));
  const english = new Set(
    KEYS.filter((key) => !ENGLISH[key].includes('{') && t(key) !== ENGLISH[key])
      .map((key) => ENGLISH[key])
      .filter((message) => !own.has(message)),
  );
  const texts = shown(root, language);
  expect(texts.filter((text) => english.has(text))).toEqual([]);
  // Addresses, hashes and keys (hexadecimal, or capitals, with a digit) are data, not words.
  const words = texts
    .flatMap((text) => text.match(/[A-Za-z0-9]+/g) ?? [])
    .filter((token) => !/^(0x)?[0-9a-f]*[0-9][0-9a-f]*$/i.test(token))
    .filter((token) => !/^[A-Z0-9]*[0-9][A-Z0-9]*$/.test(token))
    .flatMap((token) => token.match(/[A-Za-z]{3,}/g) ?? []);
  expect(words.filter((word) => !NAMES.has(word) && !ACCOUNT.has(word))).toEqual([]);
}

/** The languages written in another script than English. */
const OTHER_SCRIPTS = ['ru', 'ja'] as const satisfies readonly LanguageCode[];

/** Whether the language's messages are written in Latin letters (nine in ten of them at least). */
async function writtenInLatin(language: LanguageCode): Promise<boolean> {
  await changeLanguage(language);
  const text = KEYS.map((key) => t(key)).join(' ');
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  return latin / letters > 0.9;
}

test('the screens are drawn in every language written in another script than Latin', async () => {
  const written: Record<string, boolean> = {};
  for (const language of LANGUAGES) written[language] = await writtenInLatin(language);
  const others = LANGUAGES.filter((language) => !written[language]);
  expect(others).toEqual(OTHER_SCRIPTS);
});

describe.each(OTHER_SCRIPTS)('in %s', (language) => {
  beforeEach(async () => {
    await changeLanguage(language);
  });

  test('the sign-in screen, both steps', async () => {
    server.use(reply('preLogin', { status: true, auth_type: 'mpin', token: 'step', msg: '' }));
    renderPublic('/login');
    const form = screen.getByRole('button', { name: t('login.submit') }).closest('form');
    if (!form) throw new Error('The sign-in screen has no form.');
    expectNoEnglish(document.body, language);
    // Submitted empty, it says what is missing in the language too.
    await userEvent.click(within(form).getByRole('button', { name: t('login.submit') }));
    expect(await screen.findByText(t('login.usernameRequired'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
    await userEvent.type(screen.getByLabelText(t('login.username')), 'demo');
    await userEvent.type(screen.getByLabelText(t('login.password'), { exact: true }), 'Demo@12345');
    await userEvent.click(within(form).getByRole('button', { name: t('login.submit') }));
    expect(await screen.findByText(t('login.mpin.hint'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('sign-up, with every message of an empty submit and the country list', async () => {
    const user = userEvent.setup();
    renderPublic('/register');
    await user.click(screen.getByRole('button', { name: t('login.signUp') }));
    expect(await screen.findByText(t('register.termsRequired'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
    // The password rules it names are in the language too, as the checklist's.
    await user.type(screen.getByLabelText(t('login.password'), { exact: true }), 'a');
    await user.click(screen.getByRole('button', { name: t('login.signUp') }));
    expect(
      await screen.findByText(new RegExp(t('password.uppercase'), 'i'), { selector: 'div' }),
    ).toBeInTheDocument();
    expectNoEnglish(document.body, language);
    await user.click(screen.getByRole('button', { name: t('country.show') }));
    expect(await screen.findByRole('listbox', { name: t('country.list') })).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('password reset, both steps', async () => {
    const user = userEvent.setup();
    server.use(reply('requestPasswordReset', { status: true, msg: '' }));
    renderPublic('/reset');
    await user.click(screen.getByRole('button', { name: t('reset.submit') }));
    expect(await screen.findByText(t('reset.nameRequired'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
    await user.type(screen.getByLabelText(t('register.email')), 'demo');
    await user.click(screen.getByRole('button', { name: t('reset.submit') }));
    const step = await screen.findByRole('form', { name: t('reset.setNew') });
    await user.click(within(step).getByRole('button', { name: t('reset.submitNew') }));
    expect(await screen.findByText(t('reset.codeRequired'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test("the signed-in shell: header, sidebar and the header's two panels", async () => {
    const user = userEvent.setup();
    renderRoute('/app/usages', {
      session: {
        ...SIGNED_IN,
        profile: makeProfile(),
        apps: [makeApp({ id: 'app_1', app_name: 'Shop Checkout' })],
      },
    });
    const header = await screen.findByRole('banner', {}, { timeout: 10_000 });
    await waitFor(() => expect(document.title).toBe(`${t('title.usages')} | ${t('title.portal')}`));
    const shell = () =>
      [header, document.querySelector('.portal__sidebar'), document.querySelector('.portal__skip')]
        .filter((part): part is Element => part !== null)
        .forEach((part) => expectNoEnglish(part, language));
    shell();
    await user.click(within(header).getByRole('button', { name: t('settings.open') }));
    shell();
    await user.click(within(header).getByRole('button', { name: new RegExp(t('language.label')) }));
    shell();
    await user.click(
      within(header).getByRole('button', { name: new RegExp(`^${t('notifications.title')}`) }),
    );
    expect(await within(header).findByText(t('notifications.empty'))).toBeInTheDocument();
    shell();
  });

  test('the dashboard', async () => {
    server.use(
      reply('getApps', { status: true, data: [APP] }),
      reply('getDashboard', {
        status: true,
        data: makeDashboard({
          last_login_device: null,
          latest_transacctions: [
            makeTransaction({ note: null }),
            makeTransaction({ type: 'debit', source: 'subscription', note: null }),
          ],
        }),
      }),
    );
    renderSignedIn('/app/dashboard');
    expect(
      await screen.findByRole('table', { name: t('dashboard.activity') }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: t('dashboard.myApps') })).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('the wallet, with its two notes open', async () => {
    const user = userEvent.setup();
    renderSignedIn('/app/wallet');
    expect(
      await screen.findByRole('heading', { name: t('wallet.how') }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expectNoEnglish(document.body, language);
    await user.click(screen.getByRole('button', { name: t('wallet.note') }));
    expect(await screen.findByText(t('wallet.noteText'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
    await user.click(screen.getByRole('button', { name: t('wallet.disclaimer') }));
    expect(
      await screen.findByRole('heading', { name: t('wallet.disclaimer') }),
    ).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('all apps', async () => {
    server.use(reply('getApps', { status: true, data: [APP] }));
    renderSignedIn('/app/all-app');
    expect(
      await screen.findByRole('link', { name: t('appCard.viewDetailsOf', { name: APP.app_name }) }),
    ).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('create app: the plan notice, the required fields and the URL warning', async () => {
    const user = userEvent.setup();
    server.use(reply('listPackages', { status: true, data: PACKAGES, current_subscription: null }));
    renderSignedIn('/app/create-app');
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toBeInTheDocument();
    expectNoEnglish(document.body, language);
    await user.click(screen.getByRole('button', { name: t('apps.create') }));
    expect(await screen.findByText(t('apps.nameRequired'))).toBeInTheDocument();
    await user.type(screen.getByLabelText(t('apps.webhookUrl')), 'not a url');
    expect(await screen.findByText(t('apps.invalidUrl'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test("create app when the plan's apps are all made", async () => {
    server.use(
      reply('listPackages', {
        status: true,
        data: PACKAGES,
        current_subscription: makeCurrent({ package_id: STARTER.id, price: STARTER.price }),
      }),
    );
    renderSignedIn('/app/create-app');
    const notice = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(notice).toHaveTextContent(STARTER.name);
    expectNoEnglish(document.body, language);
  });

  test('the packages, with the upgrade, downgrade and cancel dialogs', async () => {
    const user = userEvent.setup();
    server.use(
      reply('getPurchaseQuote', {
        status: true,
        data: makeQuote(ENTERPRISE, {
          kind: 'upgrade',
          credit: 32.66,
          unused_days: 20,
          replaced_package: BUSINESS.name,
          amount_due: 116.34,
          refund: 1,
          balance: 10,
          payable: false,
        }),
      }),
    );
    renderSignedIn('/app/subscriptions');
    const card = (plan: string) =>
      screen.findByRole('article', { name: t('plans.cardLabel', { plan }) }, { timeout: 10_000 });
    within(await card(ENTERPRISE.name)).getByRole('button', { name: t('plans.upgrade') });
    expectNoEnglish(document.body, language);
    await user.click(
      within(await card(ENTERPRISE.name)).getByRole('button', { name: t('plans.upgrade') }),
    );
    const upgrade = await screen.findByRole('dialog', { name: t('plans.upgrade') });
    expect(await within(upgrade).findByText(t('plans.quoteDue'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
    await user.click(within(upgrade).getAllByRole('button', { name: t('common.close') })[0]!);
    await user.click(
      within(await card(STARTER.name)).getByRole('button', { name: t('plans.downgrade') }),
    );
    const downgrade = await screen.findByRole('dialog', { name: t('plans.downgrade') });
    await within(downgrade).findByLabelText(t('plans.reason'));
    expectNoEnglish(document.body, language);
    await user.click(within(downgrade).getAllByRole('button', { name: t('common.close') })[0]!);
    await user.click(
      within(await card(BUSINESS.name)).getByRole('button', { name: t('plans.cancel') }),
    );
    expect(await screen.findByRole('button', { name: t('plans.cancelYes') })).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('the purchase history and an invoice', async () => {
    const user = userEvent.setup();
    renderSignedIn('/app/history');
    await user.click(
      await screen.findByRole(
        'button',
        { name: t('history.invoiceOf', { id: 'INV-2026-000001' }) },
        { timeout: 10_000 },
      ),
    );
    expect(await screen.findByRole('dialog', { name: t('history.invoice') })).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('the profile', async () => {
    renderSignedIn('/app/profile');
    expect(
      await screen.findByRole('button', { name: t('profile.changePicture') }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(await screen.findByText(t('person.pincode'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('support', async () => {
    renderSignedIn('/app/support');
    expect(
      await screen.findByRole('button', { name: t('support.send') }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('usages', async () => {
    renderSignedIn('/app/usages');
    expect(await screen.findByText(t('usages.empty'), {}, { timeout: 10_000 })).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('authentication: the pin form, the authenticator setup and the security code dialog', async () => {
    const user = userEvent.setup();
    renderSignedIn('/app/authentication');
    const pinForm = await screen.findByRole(
      'form',
      { name: t('security.pinForm') },
      { timeout: 10_000 },
    );
    await user.click(within(pinForm).getByRole('button', { name: t('security.updatePin') }));
    expect(await screen.findByText(t('security.newPinRequired'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
    await user.click(screen.getByRole('button', { name: t('security.google') }));
    expectNoEnglish(document.body, language);
    // Its switch, before it is set up, says so in a toast.
    await user.click(
      screen.getByRole('switch', { name: t('security.use', { method: t('security.google') }) }),
    );
    expect(await screen.findByText(t('security.setup2faFirst'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('change password, submitted empty', async () => {
    const user = userEvent.setup();
    renderSignedIn('/app/changepassword');
    const form = await screen.findByRole(
      'form',
      { name: t('title.changePassword') },
      { timeout: 10_000 },
    );
    await user.click(within(form).getByRole('button', { name: t('security.updatePassword') }));
    expect(await screen.findByText(t('security.currentRequired'))).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test('identity verification: both forms submitted empty, a rejected upload and its history', async () => {
    const user = userEvent.setup();
    server.use(
      reply('listDocTypes', {
        status: true,
        data: makeDocTypes({ dt_identity: [makeUpload({ status: 2, remarks: null })] }),
      }),
    );
    renderSignedIn('/app/kyc');
    const personal = await screen.findByRole(
      'form',
      { name: t('kyc.personal') },
      { timeout: 10_000 },
    );
    await user.click(within(personal).getByRole('button', { name: t('kyc.submit') }));
    expect(await within(personal).findByText(t('kyc.genderRequired'))).toBeInTheDocument();
    const identity = screen.getByRole('form', {
      name: t('kyc.uploadForm', { type: 'Identity Proof' }),
    });
    await user.click(within(identity).getByRole('button', { name: t('kyc.submit') }));
    expect(await within(identity).findByText(t('kyc.frontRequired'))).toBeInTheDocument();
    // The operator's section titles ('Photo') are data: the page is read but for them.
    const header = document.querySelector('.page-header');
    for (const part of [header, personal, identity]) if (part) expectNoEnglish(part, language);
    await user.click(
      screen.getByRole('button', { name: t('kyc.viewHistoryOf', { type: 'Identity Proof' }) }),
    );
    const history = await screen.findByRole('dialog', {
      name: t('kyc.historyTitle', { type: 'Identity Proof' }),
    });
    expect(within(history).getByRole('table')).toBeInTheDocument();
    expectNoEnglish(history, language);
  });

  test('the not-found screen, public and signed in', async () => {
    const { unmount } = renderRoute('/nowhere');
    expect(
      await screen.findByText(t('notFound.message'), {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expectNoEnglish(document.body, language);
    unmount();
    renderSignedIn('/app/nowhere');
    expect(
      await screen.findByText(t('notFound.message'), {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expectNoEnglish(document.body, language);
  });

  test("an app's menu and its Merchant Setting, with the invoice settings' messages", async () => {
    const user = userEvent.setup();
    renderSignedIn('/app/my-app/app_1/merchant-setting');
    const tab = await screen.findByRole(
      'heading',
      { name: t('tab.merchantSetting'), level: 2 },
      { timeout: 10_000 },
    );
    expect(await screen.findByRole('heading', { name: t('webhook.title') })).toBeInTheDocument();
    // The description is the account's own words: emptied, the form is read without them.
    await user.clear(screen.getByLabelText(t('apps.description')));
    const tolerance = screen.getByLabelText(t('invoiceSettings.tolerance'));
    await user.clear(tolerance);
    await user.type(tolerance, '11');
    await user.click(screen.getByRole('button', { name: t('merchant.update') }));
    expect(await screen.findByText(t('invoiceSettings.toleranceInvalid'))).toBeInTheDocument();
    // The app's own name and description head the page: its menu and tab are read.
    const layout = tab.closest('.app-detail__layout');
    if (!layout) throw new Error('The app detail has no layout.');
    expectNoEnglish(layout, language);
    expectNoEnglish(
      screen.getByRole('switch', { name: t('testMode.switch') }).parentElement!,
      language,
    );
  });

  test("an app's API logs", async () => {
    renderSignedIn('/app/my-app/app_1/api-logs');
    const api = await screen.findByRole('table', { name: t('logs.api') }, { timeout: 10_000 });
    await within(api).findAllByRole('row');
    expectNoEnglish(api.closest('.app-detail__layout') ?? api, language);
  });

  test("an app's daily logs", async () => {
    renderSignedIn('/app/my-app/app_1/daily-logs');
    const daily = await screen.findByRole('table', { name: t('logs.daily') }, { timeout: 10_000 });
    await within(daily).findAllByRole('row');
    expectNoEnglish(daily.closest('.app-detail__layout') ?? daily, language);
  });

  test("an app's Usage: its figures, each method's totals and the note", async () => {
    renderSignedIn('/app/my-app/app_1/usage');
    await screen.findByText(t('usage.accounts'), {}, { timeout: 10_000 });
    // The methods' and networks' names head their cards: the figures and totals are read.
    const parts = document.querySelectorAll('.usage-card, .usage-totals, .app-detail__content > p');
    expect(parts.length).toBeGreaterThan(3);
    parts.forEach((part) => expectNoEnglish(part, language));
  });
  test("an app's Payment Setting: its cards, the payout address form and both wallets", async () => {
    const user = userEvent.setup();
    const held = makeUsedMethod({ payout_hold_until: '2026-11-27T16:00:00.000Z' });
    server.use(
      reply('getAppDetails', {
        status: true,
        data: makeAppDetails({ user_payment_methods: [held] }),
      }),
    );
    renderSignedIn('/app/my-app/app_1/payment-setting');
    const deposit = await screen.findByRole(
      'button',
      { name: t('method.depositWallet') },
      { timeout: 10_000 },
    );
    const cards = () => document.querySelectorAll('.payment-method');
    expect(cards()).toHaveLength(2);
    // The methods' and networks' names head the cards: the rest is read.
    cards().forEach((card) => expectNoEnglish(without(card, 'h3, .text-muted.small'), language));
    // The unused method opens the payout address form, which says what is missing.
    await user.click(
      screen.getByRole('switch', { name: t('method.use', { method: 'TRX (Tron)' }) }),
    );
    const enable = await screen.findByRole('dialog', { name: t('method.enterPayout') });
    await user.click(within(enable).getByRole('button', { name: t('kyc.submit') }));
    expect(await within(enable).findByText(t('payout.required'))).toBeInTheDocument();
    expectNoEnglish(enable, language);
    await user.click(within(enable).getByRole('button', { name: t('kyc.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(deposit);
    const wallet = await screen.findByRole('dialog', { name: t('method.depositWallet') });
    expectNoEnglish(wallet, language);
    await user.click(within(wallet).getByRole('button', { name: t('depositWallet.editOf') }));
    expect(within(wallet).getByLabelText(t('payout.label'))).toBeInTheDocument();
    expectNoEnglish(wallet, language);
    await user.click(within(wallet).getAllByRole('button', { name: t('common.close') })[0]!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: t('method.operationalWallet') }));
    const operational = await screen.findByRole('dialog', {
      name: t('method.operationalWallet'),
    });
    // The balance in the language's numbers ('3,500000' in French, '3.500000' in Japanese).
    expect(await within(operational).findByText(formatCoinTotal(3.5))).toBeInTheDocument();
    expectNoEnglish(operational, language);
  });

  test("an app's Payment Setting: the operational wallet before it is ready", async () => {
    const user = userEvent.setup();
    server.use(
      reply('getAppDetails', {
        status: true,
        data: makeAppDetails({ user_payment_methods: [makeUsedMethod({ gas_address: null })] }),
      }),
    );
    renderSignedIn('/app/my-app/app_1/payment-setting');
    await user.click(
      await screen.findByRole(
        'button',
        { name: t('method.operationalWallet') },
        { timeout: 10_000 },
      ),
    );
    expect(await screen.findByText(t('method.gasNotReady'))).toBeInTheDocument();
    expectNoEnglish(document.querySelector('.Toastify') ?? document.body, language);
  });
  test("an app's App Keys: the form submitted empty, the new key, the gateway's start and both dialogs", async () => {
    const user = userEvent.setup();
    renderSignedIn('/app/my-app/app_1/app-keys');
    const submit = await screen.findByRole(
      'button',
      { name: t('kyc.submit') },
      { timeout: 10_000 },
    );
    await screen.findByRole('cell', { name: 'Checkout server' });
    await user.click(submit);
    expect(await screen.findByText(t('keys.nameRequired'))).toBeInTheDocument();
    expect(screen.getByText(t('keys.minOnePermission'))).toBeInTheDocument();
    // The examples are code and the key's name is data: the rest is read, permissions too.
    const data = 'code, textarea, .key-name-cell, strong';
    const content = () => document.querySelector('.app-detail__content') ?? document.body;
    expectNoEnglish(without(content(), data), language);
    await user.click(
      screen.getByRole('button', {
        name: t('keys.editPermissionsOf', { name: 'Checkout server' }),
      }),
    );
    const edit = await screen.findByRole('dialog', { name: t('keys.editPermissions') });
    expectNoEnglish(without(edit, data), language);
    await user.click(within(edit).getAllByRole('button', { name: t('common.close') })[0]!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(
      screen.getByRole('button', { name: t('keys.revokeOf', { name: 'Checkout server' }) }),
    );
    const revoke = await screen.findByRole('dialog', { name: t('keys.revokeTitle') });
    expectNoEnglish(without(revoke, 'strong'), language);
    await user.click(within(revoke).getByRole('button', { name: t('kyc.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.type(screen.getByLabelText(t('keys.name')), 'New key');
    await user.click(screen.getAllByRole('checkbox')[0]!);
    await user.click(screen.getByRole('button', { name: t('kyc.submit') }));
    expect(await screen.findByText(t('keys.copyNow'))).toBeInTheDocument();
    expectNoEnglish(without(content(), data), language);
  });

  test("an app's Transaction: its accounts with the test deposit, its receives with their details, its sends", async () => {
    const user = userEvent.setup();
    server.use(
      reply('getAppDetails', {
        status: true,
        data: makeAppDetails({
          receive: makePage('receive', [
            makeReceive(1, { deposit_status: 5 }),
            makeReceive(2, { deposit_status: 3, flag: 'wrong_network' }),
          ]),
          send: makePage('send', [makeSend(1, { status: 6, refund_id: 'rf_1' }), makeSend(2)]),
        }),
      }),
    );
    renderSignedIn('/app/my-app/app_1/transaction');
    const accounts = await screen.findByRole(
      'table',
      { name: t('tx.accounts') },
      { timeout: 10_000 },
    );
    await within(accounts).findByRole('cell', { name: 'CUST-101' });
    const content = () => document.querySelector('.app-detail__content') ?? document.body;
    expectNoEnglish(content(), language);
    await user.click(
      screen.getByRole('button', { name: t('testDeposit.titleOf', { id: 'CUST-101' }) }),
    );
    const test = await screen.findByRole('dialog', { name: t('testDeposit.title') });
    await user.click(within(test).getByRole('button', { name: t('testDeposit.send') }));
    expect(await within(test).findByText(t('testDeposit.amountRequired'))).toBeInTheDocument();
    expectNoEnglish(test, language);
    await user.click(within(test).getByRole('button', { name: t('kyc.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: t('tx.receive') }));
    const receives = await screen.findByRole('table', { name: t('tx.received') });
    expect(
      await within(receives).findAllByRole('button', { name: t('tx.reinitiate') }),
    ).toHaveLength(1);
    expectNoEnglish(content(), language);
    await user.click(within(receives).getAllByText(t('tx.details'))[0]!);
    const details = await screen.findByRole('dialog', { name: t('tx.title') });
    expectNoEnglish(details, language);
    await user.click(within(details).getAllByRole('button', { name: t('common.close') })[0]!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: t('tx.send') }));
    const sends = await screen.findByRole('table', { name: t('tx.sent') });
    expect(await within(sends).findByText(t('tx.refund'))).toBeInTheDocument();
    expectNoEnglish(content(), language);
  });

  test("an app's IPN logs and a delivery's details", async () => {
    const user = userEvent.setup();
    renderSignedIn('/app/my-app/app_1/ipn-logs');
    const logs = await screen.findByRole('table', { name: t('ipn.caption') }, { timeout: 10_000 });
    await user.click(await within(logs).findByRole('button', { name: t('appCard.viewDetails') }));
    // The event's name (the dialog's title), the payload and the receiver's answers are data.
    expectNoEnglish(
      without(document.querySelector('.app-detail__content') ?? logs, 'code'),
      language,
    );
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(t('ipn.attempts'))).toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: t('json.label') })).toBeInTheDocument();
    expectNoEnglish(
      without(dialog, 'code, pre, .json-view > *, .modal-title, tbody td:nth-child(3)'),
      language,
    );
  });
  test("an app's Invoices: the list, its filters and its nav", async () => {
    renderSignedIn('/app/my-app/app_1/invoices');
    const list = await screen.findByRole('table', { name: t('tab.invoices') }, { timeout: 10_000 });
    await within(list).findAllByRole('row');
    expect(await within(list).findAllByText(t('invStatus.settled'))).not.toHaveLength(0);
    // The invoices' ids and order ids are data: the rest is read.
    const content = document.querySelector('.app-detail__content') ?? list;
    expectNoEnglish(without(content, '.font-monospace, td.text-break'), language);
  });

  test("an invoice's details: its payments, timeline and the accept and mark dialogs", async () => {
    const user = userEvent.setup();
    const part = makePartInvoice();
    const paid = part.payments[0]!;
    const invoice = makeInvoice({
      ...part,
      status: 'expired',
      exceptions: ['paid_partial', 'paid_late'],
      overpaid: { value: '1.00', method: 'USDT-BEP20', amount: '1.08' },
      mark_reason: '#1042',
      payments: [
        { ...paid, status: 'confirmed', late: true },
        {
          ...paid,
          id: 'ipay_2',
          tx_hash: `0x${'a1'.repeat(32)}`,
          method: 'USDT-ERC20',
          chain_id: 1,
          flag: 'wrong_network',
        },
        { ...paid, id: 'ipay_3', log_index: 1, status: 'removed', flag: 'wrong_asset' },
      ],
    });
    const details = makeInvoiceDetails(invoice);
    const created = details.timeline[0]!;
    server.use(
      reply('getAppInvoice', {
        status: true,
        data: {
          invoice,
          timeline: [
            created,
            {
              ...created,
              event_id: 'evt_2',
              event: 'invoice.expired',
              status: 'expired',
              exceptions: ['paid_partial', 'paid_late'],
              deliveries: [
                {
                  ...created.deliveries[0]!,
                  id: 'whd_2',
                  status: 'retrying',
                  http_code: null,
                  attempts: 3,
                },
              ],
            },
            { ...created, event_id: 'evt_3', event: 'refund.failed', status: null, deliveries: [] },
          ],
        },
      }),
    );
    renderSignedIn(`/app/my-app/app_1/invoices?invoice=${invoice.id}`);
    const payments = await screen.findByRole(
      'table',
      { name: t('invDetail.payments') },
      { timeout: 10_000 },
    );
    expect(
      within(payments).getByText(t('invPayment.late', { status: t('invPayment.confirmed') })),
    ).toBeInTheDocument();
    // Ids, addresses, links, the order and description and the rates' sources are data.
    const data = 'code, .text-break, .font-monospace';
    const content = () => document.querySelector('.app-detail__content') ?? document.body;
    expectNoEnglish(without(content(), data), language);
    await user.click(within(payments).getByRole('button', { name: t('invDetail.accept') }));
    const accept = await screen.findByRole('dialog', { name: t('invAccept.title') });
    expectNoEnglish(accept, language);
    await user.click(
      within(accept)
        .getAllByRole('button', { name: t('common.close') })
        .at(-1)!,
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    for (const target of ['invDetail.markSettled', 'invDetail.markInvalid'] as const) {
      await user.click(screen.getByRole('button', { name: t(target) }));
      const mark = await screen.findByRole('dialog', { name: t(target) });
      await user.click(within(mark).getByRole('button', { name: t('security.confirm') }));
      expect(await within(mark).findByText(t('invForm.reasonRequired'))).toBeInTheDocument();
      expectNoEnglish(mark, language);
      await user.click(
        within(mark)
          .getAllByRole('button', { name: t('common.close') })
          .at(-1)!,
      );
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    }
  });

  test("a test app's new invoice: its simulated payments", async () => {
    server.use(
      reply('getAppDetails', {
        status: true,
        data: makeAppDetails({ app_data: makeApp({ status: 1, livemode: false }) }),
      }),
    );
    const invoice = makeInvoice();
    renderSignedIn(`/app/my-app/app_1/invoices?invoice=${invoice.id}`);
    const title = await screen.findByRole(
      'heading',
      { name: t('invSimulate.title') },
      { timeout: 10_000 },
    );
    expectNoEnglish(title.closest('.card') ?? title, language);
  });

  test('create invoice: the form submitted wrong, then the checkout link', async () => {
    const user = userEvent.setup();
    renderSignedIn('/app/my-app/app_1/invoices');
    await user.click(
      await screen.findByRole('button', { name: t('inv.create') }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: t('inv.create') });
    const expiry = within(dialog).getByLabelText(t('invCreate.expiry'));
    await user.clear(expiry);
    await user.click(within(dialog).getByRole('button', { name: t('inv.create') }));
    expect(await within(dialog).findByText(t('invForm.amountRequired'))).toBeInTheDocument();
    expect(within(dialog).getByText(t('invForm.expiryInvalid'))).toBeInTheDocument();
    expectNoEnglish(dialog, language);
    await user.type(within(dialog).getByLabelText(t('dashboard.amount')), '49.999');
    await user.selectOptions(within(dialog).getByLabelText(t('settings.currency')), 'EUR');
    await user.type(expiry, '15');
    await user.click(within(dialog).getByRole('button', { name: t('inv.create') }));
    expect(
      await within(dialog).findByText(t('invForm.decimals', { currency: 'EUR', count: 2 })),
    ).toBeInTheDocument();
    expectNoEnglish(dialog, language);
    await user.type(within(dialog).getByLabelText(t('dashboard.amount')), '{backspace}');
    await user.click(within(dialog).getByRole('button', { name: t('inv.create') }));
    expect(await within(dialog).findByLabelText(t('invDetail.checkout'))).toBeInTheDocument();
    // The new invoice's id and its checkout link are data.
    expectNoEnglish(without(dialog, 'code, input'), language);
  });

  test("an app's payment links: the list, each price and status", async () => {
    server.use(
      reply('listAppPaymentLinks', {
        status: true,
        data: makePage('links', [
          makePaymentLink(),
          makePaymentLink({ id: 'pl_2', amount_min: null, amount_max: '9', status: 'used_up' }),
          makePaymentLink({ id: 'pl_3', amount_max: null, status: 'expired' }),
          makePaymentLink({
            id: 'pl_4',
            amount_min: null,
            amount_max: null,
            status: 'deactivated',
          }),
          makePaymentLink({
            id: 'pl_5',
            amount: '25.00',
            amount_min: null,
            amount_max: null,
            max_uses: 10,
          }),
        ]),
      }),
    );
    renderSignedIn('/app/my-app/app_1/invoices?view=links');
    const list = await screen.findByRole('table', { name: t('inv.links') }, { timeout: 10_000 });
    expect(await within(list).findAllByText(t('linkStatus.active'))).toHaveLength(2);
    // The links' titles and addresses are data: the rest is read.
    const content = document.querySelector('.app-detail__content') ?? list;
    expectNoEnglish(without(content, '.text-break'), language);
  });

  test('create payment link: the form submitted wrong, then the new link', async () => {
    const user = userEvent.setup();
    renderSignedIn('/app/my-app/app_1/invoices?view=links');
    await user.click(
      await screen.findByRole('button', { name: t('link.create') }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: t('link.create') });
    await user.click(within(dialog).getByRole('button', { name: t('link.create') }));
    expect(await within(dialog).findByText(t('linkForm.titleRequired'))).toBeInTheDocument();
    expect(within(dialog).getByText(t('linkForm.amountRequired'))).toBeInTheDocument();
    expectNoEnglish(dialog, language);
    await user.type(within(dialog).getByLabelText(t('history.price')), '0');
    await user.click(within(dialog).getByRole('button', { name: t('link.create') }));
    expect(await within(dialog).findByText(t('linkForm.amountInvalid'))).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText(t('linkCreate.chosen')));
    await user.type(within(dialog).getByLabelText(t('linkCreate.min')), '50');
    await user.type(within(dialog).getByLabelText(t('linkCreate.max')), '5');
    await user.type(within(dialog).getByLabelText(t('linkCreate.expires')), '2020-01-01T10:00');
    await user.type(within(dialog).getByLabelText(t('linkCreate.maxUses')), '0');
    await user.type(within(dialog).getByLabelText(t('linkCreate.redirect')), 'ftp://shop');
    await user.click(within(dialog).getByRole('button', { name: t('link.create') }));
    expect(await within(dialog).findByText(t('linkForm.rangeInvalid'))).toBeInTheDocument();
    expect(within(dialog).getByText(t('linkForm.expiryInvalid'))).toBeInTheDocument();
    expect(within(dialog).getByText(t('linkForm.maxUsesInvalid'))).toBeInTheDocument();
    expect(within(dialog).getByText(t('linkForm.redirectInvalid'))).toBeInTheDocument();
    // The methods' names are the spec's, and what was typed is the account's.
    expectNoEnglish(without(dialog, 'input'), language);
    for (const field of [
      'linkCreate.min',
      'linkCreate.max',
      'linkCreate.expires',
      'linkCreate.maxUses',
      'linkCreate.redirect',
    ] as const) {
      await user.clear(within(dialog).getByLabelText(t(field)));
    }
    await user.type(within(dialog).getByLabelText(t('link.title')), 'Mug');
    await user.click(within(dialog).getByRole('button', { name: t('link.create') }));
    expect(await within(dialog).findByLabelText(t('linkCreate.link'))).toBeInTheDocument();
    // The new link's title and address are data.
    expectNoEnglish(without(dialog, 'strong, input'), language);
  });

  test("a payment link's details, its invoices and the deactivate dialog", async () => {
    const user = userEvent.setup();
    const link = makePaymentLink({
      methods: ['USDT-BEP20'],
      expires_at: '2026-12-01T09:00:00.000Z',
      max_uses: 10,
      redirect_url: 'https://shop.example.com/thanks',
    });
    server.use(reply('getAppPaymentLink', { status: true, data: makePaymentLinkDetails(link) }));
    renderSignedIn(`/app/my-app/app_1/invoices?view=links&link=${link.id}`);
    const invoices = await screen.findByRole(
      'table',
      { name: t('link.invoices') },
      { timeout: 10_000 },
    );
    expect(await within(invoices).findAllByText(t('invStatus.settled'))).not.toHaveLength(0);
    // Its title, description and addresses and the invoices' ids are data: the rest is read.
    const content = () => document.querySelector('.app-detail__content') ?? document.body;
    expectNoEnglish(without(content(), '.text-break, .font-monospace'), language);
    await user.click(screen.getByRole('button', { name: t('link.deactivate') }));
    const dialog = await screen.findByRole('dialog', { name: t('link.deactivateTitle') });
    expectNoEnglish(dialog, language);
    await user.click(within(dialog).getByRole('button', { name: t('common.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test("a payment link's details without limits", async () => {
    renderSignedIn(`/app/my-app/app_1/invoices?view=links&link=plink_1`);
    expect(await screen.findByText(t('link.noLimit'), {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText(t('link.never'))).toBeInTheDocument();
    expect(screen.getByText(t('link.everyMethod'))).toBeInTheDocument();
    const content = document.querySelector('.app-detail__content') ?? document.body;
    expectNoEnglish(without(content, '.text-break, .font-monospace'), language);
  });

  test("an app's refunds: each status and where the money goes", async () => {
    const refund = makeRefund();
    server.use(
      reply('listAppRefunds', {
        status: true,
        data: makePage('refunds', [
          refund,
          makeCompletedRefund(),
          makeRefund({ id: 'rf_3', status: 'awaiting_funds', address_source: 'merchant' }),
          makeRefund({ id: 'rf_4', status: 'queued', claim_url: null }),
          makeRefund({ id: 'rf_5', status: 'processing', claim_url: null }),
          makeRefund({ id: 'rf_6', status: 'failed', claim_url: null }),
          makeRefund({ id: 'rf_7', status: 'cancelled', claim_url: null }),
          makeRefund({ id: 'rf_8', status: 'expired', claim_url: null }),
        ]),
      }),
    );
    renderSignedIn('/app/my-app/app_1/invoices?view=refunds');
    const list = await screen.findByRole('table', { name: t('inv.refunds') }, { timeout: 10_000 });
    expect(
      await within(list).findByRole('button', { name: t('refund.cancelOf', { id: refund.id }) }),
    ).toBeInTheDocument();
    expect(
      within(list).getByRole('button', { name: t('refund.reinitiateOf', { id: 'rf_6' }) }),
    ).toBeInTheDocument();
    // The invoices' ids, the claim links, addresses and hashes are data: the rest is read.
    const content = document.querySelector('.app-detail__content') ?? list;
    // The invoice column's buttons are named by the invoices' ids.
    const data = 'code, .text-break, .font-monospace, td:nth-child(2)';
    expectNoEnglish(without(content, data), language);
  });

  test('refund: the form submitted wrong, the preview, then the claim link', async () => {
    const user = userEvent.setup();
    const invoice = makeOverpaidInvoice({ buyer_email: 'ab@example.com' });
    server.use(
      reply('getAppInvoice', { status: true, data: makeInvoiceDetails(invoice) }),
      reply('previewAppRefund', {
        status: true,
        data: makeRefundPreview({ amount: '10.8', rate: '0.925925', rate_kind: 'current' }),
      }),
    );
    renderSignedIn(`/app/my-app/app_1/invoices?invoice=${invoice.id}`);
    await user.click(
      await screen.findByRole('button', { name: t('invDetail.refund') }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: t('invDetail.refund') });
    await user.click(within(dialog).getByRole('button', { name: t('refundForm.preview') }));
    expect(await within(dialog).findByText(t('refundForm.reasonRequired'))).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText(t('refundForm.custom')));
    await user.click(within(dialog).getByRole('button', { name: t('refundForm.preview') }));
    expect(await within(dialog).findByText(t('refundForm.amountRequired'))).toBeInTheDocument();
    // The methods' codes are the spec's names.
    expectNoEnglish(dialog, language);
    await user.type(within(dialog).getByLabelText(t('refundForm.amount')), '10.00');
    await user.click(within(dialog).getByLabelText(t('refundForm.rateCurrent')));
    await user.type(within(dialog).getByLabelText(t('invDetail.reasonLabel')), '#1042');
    await user.click(within(dialog).getByRole('button', { name: t('refundForm.preview') }));
    expect(
      await within(dialog).findByRole('button', { name: t('refundConfirm.confirm') }),
    ).toBeInTheDocument();
    expectNoEnglish(dialog, language);
    await user.click(within(dialog).getByRole('button', { name: t('refundConfirm.confirm') }));
    expect(await within(dialog).findByLabelText(t('claim.link'))).toBeInTheDocument();
    expectNoEnglish(dialog, language);
  });

  test('refund to an address: the preview and the refund on its way', async () => {
    const user = userEvent.setup();
    const invoice = makeOverpaidInvoice();
    const address = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    server.use(
      reply('getAppInvoice', { status: true, data: makeInvoiceDetails(invoice) }),
      reply('createAppRefund', {
        status: true,
        msg: '',
        data: makeRefund({
          status: 'queued',
          claim_url: null,
          address,
          address_source: 'merchant',
        }),
      }),
    );
    renderSignedIn(`/app/my-app/app_1/invoices?invoice=${invoice.id}`);
    await user.click(
      await screen.findByRole('button', { name: t('invDetail.refund') }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: t('invDetail.refund') });
    await user.type(within(dialog).getByLabelText(t('refundForm.address')), address);
    await user.type(within(dialog).getByLabelText(t('invDetail.reasonLabel')), '#1042');
    await user.click(within(dialog).getByRole('button', { name: t('refundForm.preview') }));
    await user.click(
      await within(dialog).findByRole('button', { name: t('refundConfirm.confirm') }),
    );
    expect(await within(dialog).findByText(t('refundStatus.queued'))).toBeInTheDocument();
    expectNoEnglish(dialog, language);
  });
});
