import type { AppDetails } from '../../api/apps';
import type { PaymentLink, PaymentLinkStatus } from '../../api/paymentLinks';
import type { StatusNames } from '../../components/StatusBadge';
import { PAYMENT_LINK_LIMITS } from '../../shared/paymentLinks';
import { t, type MessageKey } from '../../i18n/i18n';
import { CURRENCIES, tooManyDecimals } from './invoiceRules';

// The Invoices tab's payment links: names and the Create payment link form's rules (not in the
// spec: an extension of the app detail, as the invoices are).

/** A status's name in the language in use, and its colours. */
const named = (key: MessageKey, bg: string, text?: 'dark') => ({
  get label() {
    return t(key);
  },
  bg,
  ...(text ? { text } : {}),
});

export const PAYMENT_LINK_STATUS: StatusNames<PaymentLinkStatus> = {
  active: named('linkStatus.active', 'success'),
  expired: named('linkStatus.expired', 'warning', 'dark'),
  used_up: named('linkStatus.usedUp', 'secondary'),
  deactivated: named('linkStatus.deactivated', 'danger'),
};

/** The price as the list reads it: fixed, a range, or any amount. */
export function linkAmount(
  link: Pick<PaymentLink, 'amount' | 'amount_min' | 'amount_max' | 'currency'>,
): string {
  const { amount, amount_min: min, amount_max: max, currency } = link;
  if (amount !== null) return `${amount} ${currency}`;
  if (min !== null && max !== null) return t('linkAmount.range', { min, max, currency });
  if (min !== null) return t('linkAmount.from', { min, currency });
  if (max !== null) return t('linkAmount.upTo', { max, currency });
  return t('linkAmount.any', { currency });
}

/** Its paid invoices, against its maximum when it has one. */
export function linkUses(link: Pick<PaymentLink, 'max_uses' | 'totals'>): string {
  return link.max_uses === null
    ? String(link.totals.uses)
    : `${link.totals.uses} / ${link.max_uses}`;
}

/** The app's methods a link may offer: those it uses with For Deposit on, named for a person. */
export function linkMethods(details: AppDetails): { id: string; label: string }[] {
  return details.user_payment_methods
    .filter((used) => used.deposit_status === 1)
    .flatMap((used) => {
      const method = details.all_payment_methods.find((m) => m.id === used.payment_method_id);
      return method ? [{ id: method.id, label: `${method.name} (${method.network_name})` }] : [];
    });
}

/** The Create payment link form's values, as typed. */
export interface NewLinkValues extends Record<string, string> {
  title: string;
  description: string;
  /** `fixed`: the merchant's amount; `chosen`: the shopper's, within the optional bounds. */
  pricing: string;
  amount: string;
  amount_min: string;
  amount_max: string;
  currency: string;
  /** The ticked methods' ids, comma-separated; none ticked: every method with For Deposit on. */
  methods: string;
  /** A datetime-local value, in the browser's time zone. */
  expires_at: string;
  max_uses: string;
  redirect_url: string;
}

const DECIMAL = /^[0-9]+(?:\.([0-9]+))?$/;
const URL_PATTERN = /^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s/?#@]+([/?#][^\s]*)?$/;

/** What is wrong with a price typed in `currency`, or undefined; `invalid` is its message. */
function priceFault(text: string, currency: string, invalid: string): string | undefined {
  const match = DECIMAL.exec(text);
  if (!match || Number(text) <= 0 || Number(text) > PAYMENT_LINK_LIMITS.amountMax) return invalid;
  const decimals = CURRENCIES.find((c) => c.code === currency)?.decimals;
  const places = match[1]?.length ?? 0;
  if (decimals !== undefined && places > decimals) {
    return tooManyDecimals(currency, decimals);
  }
  return undefined;
}

/**
 * The Create payment link form's messages, in the language in use: the same as the server's
 * (PAYMENT_LINK_MESSAGES), which it says in English.
 */
const LINK_FORM_MSG = {
  get titleRequired() {
    return t('linkForm.titleRequired');
  },
  get currencyRequired() {
    return t('linkForm.currencyRequired');
  },
  get amountRequired() {
    return t('linkForm.amountRequired');
  },
  get amountInvalid() {
    return t('linkForm.amountInvalid');
  },
  get minInvalid() {
    return t('linkForm.minInvalid');
  },
  get maxInvalid() {
    return t('linkForm.maxInvalid');
  },
  get rangeInvalid() {
    return t('linkForm.rangeInvalid');
  },
  get expiryInvalid() {
    return t('linkForm.expiryInvalid');
  },
  get maxUsesInvalid() {
    return t('linkForm.maxUsesInvalid');
  },
  get redirectInvalid() {
    return t('linkForm.redirectInvalid');
  },
};

/** The form's messages before a call, at `now`: the server checks the same and more. */
export function newLinkErrors(values: NewLinkValues, now: Date): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  const m = LINK_FORM_MSG;
  if (values.title.trim() === '') errors.title = m.titleRequired;
  if (values.currency === '') errors.currency = m.currencyRequired;
  if (values.pricing === 'fixed') {
    if (values.amount === '') errors.amount = m.amountRequired;
    else errors.amount = priceFault(values.amount, values.currency, m.amountInvalid);
  } else {
    if (values.amount_min !== '') {
      errors.amount_min = priceFault(values.amount_min, values.currency, m.minInvalid);
    }
    if (values.amount_max !== '') {
      errors.amount_max = priceFault(values.amount_max, values.currency, m.maxInvalid);
    }
    if (
      values.amount_min !== '' &&
      values.amount_max !== '' &&
      !errors.amount_min &&
      !errors.amount_max &&
      Number(values.amount_min) > Number(values.amount_max)
    ) {
      errors.amount_max = m.rangeInvalid;
    }
  }
  if (values.expires_at !== '') {
    const at = new Date(values.expires_at).getTime();
    if (Number.isNaN(at) || at <= now.getTime()) errors.expires_at = m.expiryInvalid;
  }
  if (values.max_uses !== '') {
    const uses = Number(values.max_uses);
    if (!/^[0-9]+$/.test(values.max_uses) || uses < 1 || uses > PAYMENT_LINK_LIMITS.maxUses) {
      errors.max_uses = m.maxUsesInvalid;
    }
  }
  if (values.redirect_url.trim() !== '' && !URL_PATTERN.test(values.redirect_url.trim())) {
    errors.redirect_url = m.redirectInvalid;
  }
  for (const key of Object.keys(errors)) if (errors[key] === undefined) delete errors[key];
  return errors;
}
