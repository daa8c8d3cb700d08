import type { GetAppDetailsApiArg, ReceiveTransaction, SendTransaction } from '../../api/apps';
import type { StatusNames } from '../../components/StatusBadge';
import { APP_MESSAGES } from '../../shared/apps';
import { t, type MessageKey } from '../../i18n/i18n';

// Client-side rules and names of the apps screens: the app form, its keys, payout addresses and
// the app detail's lists and tabs.

/**
 * The forms' and toasts' messages in the language in use. The shared ones (APP_MESSAGES) are
 * what the server says too, in English.
 */
export const MSG = {
  ...APP_MESSAGES,
  get payoutRequired() {
    return t('payout.required');
  },
  get invalidAddress() {
    return t('payout.invalid');
  },
  get gasNotReady() {
    return t('method.gasNotReady');
  },
  get addressCopied() {
    return t('method.addressCopied');
  },
  get keyNameRequired() {
    return t('keys.nameRequired');
  },
  get minOnePermission() {
    return t('keys.minOnePermission');
  },
  get keyCopied() {
    return t('keys.copied');
  },
  // Test deposits (not in the spec: the gateway's test mode); the first two are the contract's.
  get amountRequired() {
    return t('testDeposit.amountRequired');
  },
  get amountDecimals() {
    return t('testDeposit.amountDecimals');
  },
  get amountPositive() {
    return t('testDeposit.amountPositive');
  },
};

/**
 * The loose URL pattern checked while typing (it warns, it does not block submit): an optional
 * http(s) scheme, a dotted host or localhost, an optional port and path.
 */
const LOOSE_URL =
  /^(https?:\/\/)?(localhost|[\w-]+(\.[\w-]+)+|\d{1,3}(\.\d{1,3}){3})(:\d{1,5})?([/?#][^\s]*)?$/i;

export function isLooseUrl(value: string): boolean {
  return LOOSE_URL.test(value.trim());
}

/** EVM: 40 hex characters with an optional 0x; anything else Tron-style: T + 33 base58. */
export function isPayoutAddress(networkType: string, value: string): boolean {
  const text = value.trim();
  return networkType === 'EVM'
    ? /^(0x)?[0-9a-fA-F]{40}$/.test(text)
    : /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text);
}

/** The payout address field's message, or undefined when it passes the pattern. */
export function payoutAddressError(networkType: string, value: string): string | undefined {
  if (value.trim() === '') return MSG.payoutRequired;
  return isPayoutAddress(networkType, value) ? undefined : MSG.invalidAddress;
}

/** A test deposit's amount: what the contract's pattern takes, above 0 (the server caps it). */
export function testAmountError(value: string): string | undefined {
  if (value === '') return MSG.amountRequired;
  if (!/^(0|[1-9][0-9]{0,11})(\.[0-9]{1,6})?$/.test(value)) return MSG.amountDecimals;
  return Number(value) > 0 ? undefined : MSG.amountPositive;
}

/** A status's name in the language in use, and its colour. */
const named = (key: MessageKey, bg: string) => ({
  get label() {
    return t(key);
  },
  bg,
});

/** The first three states, the same for receives and sends. */
const QUEUE_STATUS = {
  0: named('wallet.pending', 'secondary'),
  1: named('txStatus.completed', 'success'),
  2: named('txStatus.queued', 'info'),
};

/**
 * A payment or deposit in another method than the one asked for: the same coin or token on
 * another EVM chain, or another coin or token.
 */
export const STRAY_FLAG: Readonly<Record<'wrong_network' | 'wrong_asset', string>> = {
  get wrong_network() {
    return t('stray.wrongNetwork');
  },
  get wrong_asset() {
    return t('stray.wrongAsset');
  },
};

export const DEPOSIT_STATUS: StatusNames<ReceiveTransaction['deposit_status']> = {
  ...QUEUE_STATUS,
  3: named('txStatus.hashVerified', 'info'),
  4: named('txStatus.gasTransferred', 'info'),
  5: named('txStatus.failed', 'danger'),
};

export const SEND_STATUS: StatusNames<SendTransaction['status']> = {
  ...QUEUE_STATUS,
  3: named('txStatus.processing', 'info'),
  4: named('txStatus.energy', 'info'),
  5: named('txStatus.awaitingChain', 'info'),
  6: named('txStatus.unsuccessful', 'danger'),
  7: named('txStatus.cancelled', 'dark'),
};

/** Deposits that can be re-initiated; withdrawals that can be cancelled or re-initiated. */
export const canRequeueDeposit = (status: number) => status === 5;
export const canActOnSend = (status: number) => status === 3 || status === 6;

/** The left menu of the app detail screen; the slug is the URL's :tab. */
export const TABS = [
  { slug: 'payment-setting', title: 'tab.paymentSetting' },
  { slug: 'app-keys', title: 'tab.appKeys' },
  { slug: 'merchant-setting', title: 'tab.merchantSetting' },
  { slug: 'usage', title: 'tab.usage' },
  { slug: 'transaction', title: 'tab.transaction' },
  { slug: 'api-logs', title: 'tab.apiLogs' },
  { slug: 'ipn-logs', title: 'tab.ipnLogs' },
  { slug: 'daily-logs', title: 'tab.dailyLogs' },
  // Not in the spec's eight: the Invoices extension (docs/decisions.md).
  { slug: 'invoices', title: 'tab.invoices' },
] as const satisfies readonly { slug: string; title: MessageKey }[];
export type TabSlug = (typeof TABS)[number]['slug'];

export function tabOf(slug: string | undefined): TabSlug | undefined {
  if (slug === undefined) return TABS[0].slug;
  return TABS.find((tab) => tab.slug === slug)?.slug;
}

/** The paged lists of getAppDetails: query parameter (as in first_page_url) -> hook argument. */
export const LIST_ARGS = {
  receive: 'receive',
  send: 'send',
  accounts: 'accounts',
  api_logs: 'apiLogs',
  callback_data: 'callbackData',
  daily_logs: 'dailyLogs',
} as const satisfies Record<string, keyof GetAppDetailsApiArg>;
export type ListName = keyof typeof LIST_ARGS;
